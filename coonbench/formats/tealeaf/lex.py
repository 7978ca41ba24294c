"""TeaLeaf tokenizer: text → tokens with line and column, strings unescaped, numbers converted."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from coonbench.formats._limits import too_long_int
from coonbench.formats.base import FormatError

_TOKEN_RE = re.compile(
    r"""
    (?P<ws>[ \t\r\n\ufeff]+)
  | (?P<comment>\#[^\n]*)
  | (?P<mstring>\"\"\")
  | (?P<string>\")
  | (?P<bytes>b\")
  | (?P<timestamp>-?\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?)
  | (?P<hex>-?0[xX][0-9A-Za-z_]*)
  | (?P<bin>-?0[bB][0-9A-Za-z_]*)
  | (?P<number>-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)
  | (?P<neginf>-inf\b)
  | (?P<directive>@[A-Za-z_][A-Za-z0-9_-]*)
  | (?P<word>[^\W\d][\w.-]*)
  | (?P<punct>[:,()\[\]{}~!?])
    """,
    re.VERBOSE,
)
_STRING_BODY_RE = re.compile(r'(?:[^"\\]|\\.)*"', re.DOTALL)
# A surrogate pair written as two escapes is one character; any other \uXXXX (a lone surrogate included) is
# that code point. Raw characters are never re-paired (a document may hold lone surrogates side by side).
_ESCAPE_RE = re.compile(r'\\(u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[0-9A-Fa-f]{4}|.)')
_SIMPLE_UNESCAPE = {"\\": "\\", '"': '"', "n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "/": "/"}


@dataclass
class Token:
    kind: str
    text: str
    line: int
    col: int
    value: Any = None


class TupleValue(list):
    """A parenthesised tuple: bound to a struct in a table/struct context, otherwise a plain array."""

    line = 0
    col = 0


class _Tilde:
    """``~`` (absent in a table row; null elsewhere)."""

    def __repr__(self) -> str:
        return "~"


TILDE = _Tilde()


def unsupported(feature: str, tok: Token) -> FormatError:
    return FormatError(f"unsupported TeaLeaf feature: {feature}", tok.line, tok.col,
                       expected="plain data (values, objects, arrays, @struct/@table)")


def tokenize(text: str) -> list[Token]:
    toks: list[Token] = []
    pos, line, line_start, n = 0, 1, 0, len(text)
    match = _TOKEN_RE.match
    while pos < n:
        m = match(text, pos)
        col = pos - line_start + 1
        if m is None:
            raise FormatError(f"unexpected character {text[pos]!r}", line, col, expected="a value, key or punctuation")
        kind = m.lastgroup
        end = m.end()
        assert kind is not None
        if kind == "ws" or kind == "comment":
            nl = text.count("\n", pos, end)
            if nl:
                line += nl
                line_start = text.rindex("\n", pos, end) + 1
            pos = end
            continue
        if kind == "string":
            sm = _STRING_BODY_RE.match(text, end)
            if sm is None:
                raise FormatError("unterminated string", line, col, expected='a closing "')
            raw = text[end:sm.end() - 1]
            toks.append(Token("string", raw, line, col, _unescape(raw, line, col)))
            nl = raw.count("\n")
            if nl:
                line += nl
                line_start = text.rindex("\n", pos, sm.end()) + 1
            pos = sm.end()
            continue
        if kind == "mstring":
            close = text.find('"""', end)
            if close < 0:
                raise FormatError("unterminated multiline string", line, col, expected='a closing """')
            raw = text[end:close]
            toks.append(Token("string", raw, line, col, _dedent(raw)))
            nl = text.count("\n", pos, close + 3)
            if nl:
                line += nl
                line_start = text.rindex("\n", pos, close + 3) + 1
            pos = close + 3
            continue
        word = m.group()
        if kind in ("hex", "bin"):
            digits = word.lstrip("-")[2:]
            ok = re.fullmatch(r"[0-9A-Fa-f]+" if kind == "hex" else r"[01]+", digits)
            if not ok:
                raise FormatError(f"invalid {'hex' if kind == 'hex' else 'binary'} number: {word}", line, col,
                                  expected="hex digits" if kind == "hex" else "binary digits 0/1")
            toks.append(Token("number", word, line, col, int(word, 16 if kind == "hex" else 2)))
        elif kind == "number":
            nxt = text[end:end + 1]
            if nxt and (nxt.isalnum() or nxt in "_."):
                raise FormatError(f"bad number {text[pos:end + 1]!r}", line, col, expected="a number")
            is_float = "." in word or "e" in word or "E" in word
            if is_float:
                toks.append(Token("number", word, line, col, float(word)))
            else:
                try:
                    toks.append(Token("number", word, line, col, int(word)))
                except ValueError:  # more digits than Python converts
                    raise too_long_int(word, line, col) from None
        elif kind == "neginf":
            toks.append(Token("number", word, line, col, float("-inf")))
        else:
            toks.append(Token(kind, word, line, col))
        pos = end
    toks.append(Token("eof", "", line, pos - line_start + 1))
    return toks


def _unescape(raw: str, line: int, col: int) -> str:
    if "\\" not in raw:
        return raw

    def repl(m: re.Match[str]) -> str:
        e = m.group(1)
        if e[0] == "u" and len(e) == 5:
            return chr(int(e[1:], 16))
        if e[0] == "u" and len(e) == 11:
            high, low = int(e[1:5], 16), int(e[7:], 16)
            return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        if e in _SIMPLE_UNESCAPE:
            return _SIMPLE_UNESCAPE[e]
        raise FormatError(f"bad escape sequence \\{e}", line, col, expected='one of \\\\ \\" \\n \\t \\r \\b \\f \\uXXXX')

    return _ESCAPE_RE.sub(repl, raw)


def _dedent(raw: str) -> str:
    lines = raw.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    indents = [len(x) - len(x.lstrip(" \t")) for x in lines if x.strip()]
    cut = min(indents, default=0)
    return "\n".join(x[cut:] for x in lines)
