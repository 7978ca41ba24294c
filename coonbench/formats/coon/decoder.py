"""COON → Dart: the COON lexer's tokens read by the shared rules of ``words``, then laid out as formatted
Dart. Every error is a FormatError with the COON line and column."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from coonbench.formats.coon.layout import format_dart
from coonbench.formats.coon.lexer import CTok, check_brackets, lex
from coonbench.formats.coon.tables import (
    ALIAS_WORDS,
    CALL_ENUMS,
    ENUM_LABELS,
    HEADER_PREFIX,
    IMPLIED,
    MACROS,
    VERSION,
)
from coonbench.formats.coon.words import (
    ALIAS_KINDS,
    CLASS_MACROS,
    IDENT_RE,
    IMPLIED_TOKENS,
    OF_CONTEXT,
    REQUIRED_THIS,
    check_size,
    collector_paused,
    declares_class,
    directive_list,
    expand_uri,
    instantiate,
    is_short_uri,
    opens_list,
    reading,
    relative_package_uris,
    significant,
)
from coonbench.formats.base import FormatError


@dataclass(slots=True)
class DartToken:
    """A decoded Dart token and the COON position it came from (for validator messages)."""

    text: str
    line: int
    column: int



def strip_header(text: str) -> tuple[str, int]:
    """Remove an optional ``%coon <version>`` first line; returns the rest and the number of lines removed."""
    stripped = text.lstrip(" \t\r\n")
    if not stripped.startswith(HEADER_PREFIX):
        return text, 0
    skipped = text[: len(text) - len(stripped)].count("\n")
    first, _, rest = stripped.partition("\n")
    parts = first.split()
    if len(parts) != 2 or parts[0] != HEADER_PREFIX or parts[1] != str(VERSION):
        raise FormatError(
            f"unsupported COON header {first.strip()!r}", skipped + 1, 1, expected=f"'{HEADER_PREFIX} {VERSION}'"
        )
    return rest, skipped + 1


_AS_WRITTEN: Final = frozenset(("op", "str", "num", "comment", "at", "hash"))
"""COON token kinds that are Dart as written (but for the few rules of ``decode_texts``'s first branch)."""
_NAME_KINDS: Final = ("ident", "esc")


def decode_tokens(text: str) -> list[DartToken]:
    """COON text → Dart tokens with their COON positions. Raises FormatError (lexical, brackets, macros)."""
    texts, origins = decode_texts(text)
    return [DartToken(part, tok.line, tok.column) for part, tok in zip(texts, origins)]


def decode_texts(text: str) -> tuple[list[str], list[CTok]]:
    """COON text → the Dart tokens' texts, and for each the COON token it came from (its position is the error's).
    Raises FormatError (lexical, brackets, macros). Two flat lists: ``decode`` and the encoder's check read only
    the texts, and make no object per token."""
    if not isinstance(text, str):
        raise FormatError("COON must be text", expected="str")
    check_size(text, "COON")
    body, offset = strip_header(text)
    try:
        toks = lex(body)
    except FormatError as err:
        raise FormatError(err.message, (err.line or 1) + offset, err.column, err.expected) from None
    if offset:
        toks = [CTok(t.kind, t.text, t.line + offset, t.column, t.spaced) for t in toks]
    toks = relative_package_uris(directive_list(resolve_aliases(toks)))
    prevs, nexts = significant(toks)
    after = _next_significant_index(toks)
    texts: list[str] = []
    origins: list[CTok] = []
    n = len(toks)
    i = 0
    while i < n:
        tok = toks[i]
        kind = tok.kind
        if kind in _AS_WRITTEN:
            if kind == "op":
                op = tok.text
                if (
                    op == "."
                    and i >= 2
                    and toks[i - 1].is_op("(")
                    and toks[i - 2].kind == "ident"
                    and len(texts) >= 2
                    and texts[-1] == "("
                    and texts[-2] in CALL_ENUMS
                ):
                    # ``Ic(.home)`` = ``Icon(Icons.home)``; elsewhere ``(.x`` is Dart's
                    texts.append(CALL_ENUMS[texts[-2]])
                    origins.append(tok)
                elif op == "^" and opens_list(prevs[i]) and _is_name(nexts[i]):
                    texts.extend(REQUIRED_THIS)
                    origins.extend((tok,) * len(REQUIRED_THIS))
                    i += 1
                    continue
                elif tok.spaced and _ends_annotation_name(texts):
                    texts[-1] += " "  # ``@x (int, int) f()``: the gap says the ``(`` is not the annotation's arguments
            elif kind == "str" and is_short_uri(tok.text, prevs[i]):
                # ``import ':provider'`` = ``import 'package:provider/provider.dart'``, ``'../a'`` = ``'../a.dart'``
                texts.append(expand_uri(tok.text))
                origins.append(tok)
                i += 1
                continue
            texts.append(tok.text)
            origins.append(tok)
            i += 1
            continue
        if kind == "ident" or kind == "esc":
            role, value = reading(tok, prevs[i], nexts[i])
            if role != "label":
                texts.append(value)
                origins.append(tok)
                i += 1
                continue
            texts.append(value)
            texts.append(":")
            origins.append(tok)
            origins.append(tok)
            j = i + 1
            while j < n and toks[j].kind == "comment":
                texts.append(toks[j].text)
                origins.append(tok)
                j += 1
            if j < n and toks[j].is_op(":"):
                j += 1
                d = j if j < n and toks[j].kind != "comment" else after[j - 1]
                if value in ENUM_LABELS and _member_follows(toks, after, d):
                    # ``l:.grey`` = ``color: Colors.grey``; after any other label ``.x`` is Dart's own shorthand
                    while j < d:
                        texts.append(toks[j].text)  # comments between ':' and '.'
                        origins.append(tok)
                        j += 1
                    texts.append(ENUM_LABELS[value])
                    origins.append(tok)
            elif j < n and value in IMPLIED and toks[j].is_op("("):
                parts = IMPLIED_TOKENS[value]
                texts.extend(parts)  # ``s(z 14)``: the label's implied constructor
                origins.extend((tok,) * len(parts))
            elif (
                j + 1 < n
                and value in IMPLIED
                and toks[j].kind == "ident"
                and toks[j].text == "const"
                and toks[j + 1].is_op("(")
            ):
                texts.append("const")
                origins.append(toks[j])
                parts = IMPLIED_TOKENS[value]
                texts.extend(parts)  # ``s const(z 14)`` = ``style: const TextStyle(fontSize: 14)``
                origins.extend((tok,) * len(parts))
                j += 1
            elif value in ENUM_LABELS and _member_follows(toks, after, j):
                texts.append(ENUM_LABELS[value])  # ``l.grey``: the label's enum type, no colon
                origins.append(tok)
            i = j
            continue
        if kind == "macro":
            if tok.text not in MACROS:
                raise FormatError(
                    f"unknown abbreviation '#{tok.text}'",
                    tok.line,
                    tok.column,
                    expected="one of " + ", ".join(f"#{m}" for m in MACROS),
                )
            cls = None
            if tok.text in CLASS_MACROS:
                cls = next((texts[k] for k in range(len(texts) - 1, 0, -1) if declares_class(texts, k)), None)
            body_parts = instantiate(tok.text, cls)
            if body_parts is None:
                raise FormatError(
                    f"'#{tok.text}' names the enclosing class, but no class was declared before it",
                    tok.line,
                    tok.column,
                    expected="a 'class Name' before it",
                )
            parts = body_parts
        elif kind == "ofc":
            parts = OF_CONTEXT  # ``Theme#`` = ``Theme.of(context)``
        else:  # edge, cedge
            parts = ("EdgeInsets", ".", "all", "(", tok.text, ")")
            if kind == "cedge":
                parts = ("const", *parts)
        texts.extend(parts)
        origins.extend((tok,) * len(parts))
        i += 1
    check_brackets(texts, origins)
    return texts, origins


def resolve_aliases(toks: list[CTok]) -> list[CTok]:
    """``\\x`` defines alias N (the N-th definition, from 1) as the lexeme ``x``; ``\\N`` is that lexeme again, and
    so is the N-th alias word (``ALIAS_WORDS``) written as a bare word after the definition (not after ``@`` or
    ``#```, whose name is glued to the sigil).

    The result is the token stream written out in full, so every other rule reads it exactly as if no alias had
    been used. FormatError for a ``\\`` not followed by a word or string, or a ``\\N`` not yet defined."""
    if not any(t.kind in ("def", "ref") for t in toks):
        return toks
    out: list[CTok] = []
    defined: list[CTok] = []
    words: dict[str, CTok] = {}  # alias word → its lexeme, once defined
    n = len(toks)
    i = 0
    prev_kind = ""
    while i < n:
        tok = toks[i]
        kind = tok.kind
        if kind == "ident" and tok.text in words and prev_kind != "at" and prev_kind != "hash":
            src = words[tok.text]
            out.append(CTok(src.kind, src.text, tok.line, tok.column))
            prev_kind = kind
            i += 1
            continue
        prev_kind = kind
        if tok.kind == "def":
            nxt = toks[i + 1] if i + 1 < n else None
            if nxt is None or nxt.kind not in ALIAS_KINDS:
                raise FormatError(
                    "'\\' defines an alias but no word or string follows", tok.line, tok.column,
                    expected="a word, `word or string directly after '\\'",
                )
            defined.append(nxt)
            if len(defined) <= len(ALIAS_WORDS):
                words[ALIAS_WORDS[len(defined) - 1]] = nxt
            out.append(nxt)
            prev_kind = nxt.kind
            i += 2
            continue
        if tok.kind == "ref":
            k = int(tok.text) if len(tok.text) <= 7 else 0
            if not 1 <= k <= len(defined):
                raise FormatError(
                    f"alias '\\{tok.text}' is not defined", tok.line, tok.column,
                    expected=f"\\1 … \\{len(defined)} (defined so far)" if defined else "a '\\word' definition first",
                )
            src = defined[k - 1]
            out.append(CTok(src.kind, src.text, tok.line, tok.column))
        else:
            out.append(tok)
        i += 1
    return out


def _next_significant_index(toks: list[CTok]) -> list[int]:
    """For each index, the index of the next non-comment token after it (``len(toks)`` when none)."""
    if not any(tok.kind == "comment" for tok in toks):
        return list(range(1, len(toks) + 1))
    after = [len(toks)] * len(toks)
    last = len(toks)
    for k in range(len(toks) - 1, -1, -1):
        after[k] = last
        if toks[k].kind != "comment":
            last = k
    return after


def _ends_annotation_name(texts: list[str]) -> bool:
    """Whether the Dart written so far ends with ``@name`` or ``@prefix.name``."""
    k = len(texts) - 1
    while k >= 2 and texts[k - 1] == ".":
        k -= 2
    return k >= 1 and texts[k - 1] == "@" and IDENT_RE.fullmatch(texts[k]) is not None


def _is_name(tok: CTok | None) -> bool:
    return tok is not None and tok.kind in _NAME_KINDS


def _member_follows(toks: list[CTok], after: list[int], d: int) -> bool:
    """Whether ``toks[d]`` is '.' followed (comments skipped) by a name: an enum member shorthand."""
    if d >= len(toks) or not toks[d].is_op("."):
        return False
    m = after[d]
    return m < len(toks) and _is_name(toks[m])


def decode(text: str) -> str:
    """COON → formatted Dart (2-space indentation). Raises only FormatError."""
    with collector_paused():
        texts, _ = decode_texts(text)
        try:
            return format_dart(texts)
        except RecursionError:
            raise FormatError("brackets nested too deeply to format", 1, 1, expected="less nesting") from None
