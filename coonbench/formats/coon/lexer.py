"""COON lexer and Dart string scanner: text → positioned tokens, or a FormatError saying where and what was expected."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

from coonbench.dart.minify import DART_OPERATORS
from coonbench.dart.strings import is_string_start, string_end
from coonbench.formats.base import FormatError

SINGLE_PUNCT: Final = frozenset("+-*/%<>=!&|^~?.:;,()[]{}")
OPENERS: Final = {"(": ")", "[": "]", "{": "}"}
CLOSERS: Final = {v: k for k, v in OPENERS.items()}
_IDENT: Final = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
# Numbers with Dart 3.6 digit separators (``1_000_000``, ``0xFF_FF``); a trailing ``_`` is left to Dart's parser.
_NUMBER: Final = re.compile(r"0[xX][0-9a-fA-F][0-9a-fA-F_]*|(?:\d[\d_]*(?:\.\d[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?")


_DIGITS: Final = re.compile(r"[0-9]+")
_COMMENT_NEXT: Final = re.compile(r"[ \t\r\n]*/[/*]")  # ``@ /* c */ override``: a comment between '@' and the name


class CTok:
    """A COON token. kind: str num ident esc op macro edge cedge at hash ofc comment def ref; ``text`` without its
    prefix sigil. A plain class with slots (not a NamedTuple): compiled, it is a native object made without a Python
    call, and the lexer makes one per token. Never changed once made (the encoder shares positionless ones)."""

    __slots__ = ("kind", "text", "line", "column", "spaced")

    def __init__(self, kind: str, text: str, line: int, column: int, spaced: bool = False) -> None:
        self.kind = kind
        self.text = text
        self.line = line
        self.column = column
        # a ``(`` after whitespace: ``@x (int, int) f()`` is not ``@x(int, int) f()`` (in Dart too)
        self.spaced = spaced

    def __repr__(self) -> str:
        return f"CTok({self.kind!r}, {self.text!r}, {self.line}, {self.column}{', True' if self.spaced else ''})"

    def is_op(self, *texts: str) -> bool:
        return self.kind == "op" and self.text in texts


def scan_string(text: str, i: int, line: int, col: int) -> int:
    """End offset of the Dart string literal starting at ``i`` (at ``line``, ``col``); FormatError when it is
    unterminated."""
    end = string_end(text, i)
    if end is None:
        quote = text[i + 1] if text[i] in "rR" else text[i]
        delim = quote * 3 if text.startswith(quote * 3, i + (text[i] in "rR")) else quote
        raise FormatError("unterminated string literal", line, col, expected=f"closing {delim}")
    return end


_OPS_RE: Final = "|".join(re.escape(o) for o in DART_OPERATORS)
# Words are read before this is tried (``_word_end``), so it has no ``ident`` alternative.
_MASTER: Final = re.compile(
    r"(?P<ws>[ \t\r\n]+)"
    r"|(?P<num>0[xX][0-9a-fA-F][0-9a-fA-F_]*|(?:\d[\d_]*(?:\.\d[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?)"
    rf"|(?P<op>(?!//|/\*)(?:{_OPS_RE}|[+\-*/%<>=!&|^~?.:;,()\[\]{{}}]))"
)


_PUNCT: Final = frozenset("()[]{},;:")
"""Single-character tokens that start no multi-character operator, so ``lex`` takes them without ``_MASTER`` (which would read
them the same)."""
_GLUES: Final = {
    first: "".join(sorted({op[1] for op in DART_OPERATORS if op[0] == first})) for first in "=<>?!"
}
"""For these operator characters, the characters that make them part of a longer operator (``=`` of ``==``, ``=>``):
followed by anything else, one is an operator alone (as ``_MASTER`` would read it)."""
_WORD_START: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$")


def _word_end(text: str, i: int) -> int:
    """The end of the run of a word's characters from ``i``, as ``_IDENT`` reads them: scanned without a regex (a
    third of all tokens are words), each character tested by its code point (no hashing of a one-character string
    per character)."""
    n = len(text)
    while i < n:
        c = ord(text[i])
        if not (97 <= c <= 122 or 65 <= c <= 90 or 48 <= c <= 57 or c == 95 or c == 36):  # a-z A-Z 0-9 _ $
            return i
        i += 1
    return n


def lex(text: str) -> list[CTok]:
    """Tokens of a COON document (header excluded by the caller). Raises FormatError at the first bad character."""
    out: list[CTok] = []
    i, n = 0, len(text)
    line, line_start = 1, 0
    match = _MASTER.match
    while i < n:
        ch = text[i]
        if ch in _PUNCT:  # four tokens in ten: no regex needed
            out.append(CTok("op", ch, line, i - line_start + 1))
            i += 1
            continue
        if ch == " ":  # the usual gap: one space (a run of them, or other whitespace, is read by ``_MASTER``)
            i += 1
            if i < n and text[i] == "(":
                out.append(CTok("op", "(", line, i - line_start + 1, True))
                i += 1
            continue
        if ch == "." and (i + 1 == n or (text[i + 1] != "." and not text[i + 1].isdecimal())):  # not ``..``, ``.5``
            out.append(CTok("op", ".", line, i - line_start + 1))
            i += 1
            continue
        if ch in _WORD_START and not (ch in "rR" and text.startswith(("'", '"'), i + 1)):  # ``r'…'``: a raw string
            end = _word_end(text, i + 1)
            out.append(CTok("ident", text[i:end], line, i - line_start + 1))
            i = end
            continue
        if ch in _GLUES and (i + 1 == n or text[i + 1] not in _GLUES[ch]):  # ``=`` alone, not ``==`` or ``=>``
            out.append(CTok("op", ch, line, i - line_start + 1))
            i += 1
            continue
        if ch == "\\":  # one token in twenty: read before the master regex, strings, comments and other sigils
            col = i - line_start + 1
            # per-document dictionary: ``\N`` repeats alias N; ``\`` directly before a word or string defines one
            m = _DIGITS.match(text, i + 1)
            if m:
                out.append(CTok("ref", m.group(), line, col))
                i = m.end()
            elif _IDENT.match(text, i + 1) or text.startswith("`", i + 1) or is_string_start(text, i + 1):
                out.append(CTok("def", "\\", line, col))
                i += 1
            else:
                raise FormatError(
                    "bad prefix '\\'", line, col, expected="a number (\\3 = alias 3) or a word or string to define"
                )
            continue
        m = match(text, i)
        if m is not None:
            group = m.lastgroup
            assert group is not None  # every alternative of _MASTER is a named group
            if group != "ws":
                end = m.end()
                out.append(CTok(group, text[i:end], line, i - line_start + 1))
                i = end
                continue
            chunk = m.group()  # whitespace
            if "\n" in chunk:
                line += chunk.count("\n")
                line_start = i + chunk.rindex("\n") + 1
            i = m.end()
            if text.startswith("(", i):
                out.append(CTok("op", "(", line, i - line_start + 1, True))
                i += 1
            continue
        col = i - line_start + 1
        if is_string_start(text, i):
            end = scan_string(text, i, line, col)
            out.append(CTok("str", text[i:end], line, col))
        elif text.startswith("//", i) or (i == 0 and text.startswith("#!")):  # a line comment, the script tag
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(CTok("comment", text[i:end].rstrip("\r"), line, col))
        elif text.startswith("/*", i):
            depth, end = 1, i + 2
            while end < n and depth:
                if text.startswith("/*", end):
                    depth, end = depth + 1, end + 2
                elif text.startswith("*/", end):
                    depth, end = depth - 1, end + 2
                else:
                    end += 1
            if depth:
                raise FormatError("unterminated block comment", line, col, expected="*/")
            out.append(CTok("comment", text[i:end], line, col))
        elif ch == "`":
            m = _IDENT.match(text, i + 1)
            if not m:
                raise FormatError("bad prefix '`'", line, col, expected="an identifier directly after ` (escape)")
            out.append(CTok("esc", m.group(), line, col))
            end = m.end()
        elif text.startswith("@@", i):
            num = _NUMBER.match(text, i + 2)
            if not num:
                raise FormatError(
                    "bad prefix '@@'", line, col, expected="a number (@@16 = const EdgeInsets.all(16))"
                )
            out.append(CTok("cedge", num.group(), line, col))
            end = num.end()
        elif ch == "@":
            num = _NUMBER.match(text, i + 1)
            if num:
                out.append(CTok("edge", num.group(), line, col))
                end = num.end()
            elif _IDENT.match(text, i + 1) or text.startswith("`", i + 1) or _COMMENT_NEXT.match(text, i + 1):
                out.append(CTok("at", "@", line, col))
                end = i + 1
            else:
                raise FormatError(
                    "bad prefix '@'", line, col, expected="a number (@16 = EdgeInsets.all(16)) or an annotation name"
                )
        elif ch == "#":
            m = _IDENT.match(text, i + 1)
            if m:
                out.append(CTok("macro", m.group(), line, col))
                end = m.end()
            elif text.startswith("`", i + 1):
                # ``#`name`` = '#' then the escaped name (symbol ``#name``); ``#`+`` = '#' then any other token
                out.append(CTok("hash", "#", line, col))
                end = i + 1 if _IDENT.match(text, i + 2) else i + 2
            else:
                out.append(CTok("ofc", "#", line, col))  # not before a name: ``.of(context)`` (``Theme#.textTheme``)
                end = i + 1
        else:
            raise FormatError(f"unexpected character {ch!r}", line, col, expected="a COON token")
        chunk = text[i:end]
        if "\n" in chunk:
            line += chunk.count("\n")
            line_start = i + chunk.rindex("\n") + 1
        i = end
    return out


def check_brackets(texts: Sequence[str], origins: Sequence[Any]) -> None:
    """Raise FormatError at the first unbalanced bracket, naming the bracket expected.

    ``texts`` are decoded Dart tokens (macros such as ``#i`` hold an unclosed ``{``) and ``origins[k]`` has the
    ``line``/``column`` that ``texts[k]`` came from.
    """
    stack: list[int] = []
    for k, text in enumerate(texts):
        if len(text) != 1:
            continue  # every bracket is one character
        if text in OPENERS:
            stack.append(k)
        elif text in CLOSERS:
            here = origins[k]
            if not stack:
                raise FormatError(f"unbalanced '{text}'", here.line, here.column, expected="no closing bracket here")
            top = stack.pop()
            if OPENERS[texts[top]] != text:
                opened = origins[top]
                raise FormatError(
                    f"'{text}' closes '{texts[top]}' opened at {opened.line}:{opened.column}",
                    here.line,
                    here.column,
                    expected=f"'{OPENERS[texts[top]]}'",
                )
    if stack:
        top = stack[-1]
        opened = origins[top]
        raise FormatError(
            f"unclosed '{texts[top]}'", opened.line, opened.column, expected=f"'{OPENERS[texts[top]]}' before end"
        )
