"""The COON codec: Dart → COON by walking the tree-sitter-dart token stream, COON → formatted Dart.

Encoding works on the syntax tree's tokens (string literals whole), never on source text: the tree says which
identifier is a named-argument label, which value is ``Enum.member`` for that label, which comma is trailing.
Decoding reads COON tokens only; every rule it applies is mirrored by ``_reading`` in the encoder, which escapes a
word whenever the decoder would read it differently — that is what makes the dialect lossless.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import tree_sitter

from coonbench.dart.minify import join_tokens, needs_space
from coonbench.dart.parse import DartParseError, ParsedUnit, parse_unit
from coonbench.dart.query import unit_tokens
from coonbench.dart.strings import string_end
from coonbench.formats._coon_format import format_dart
from coonbench.formats._coon_lex import CTok, check_brackets, lex
from coonbench.formats._coon_tables import (
    CALL_ENUMS,
    CLASS_PLACEHOLDER,
    ENUM_LABELS,
    HEADER_PREFIX,
    IMPLIED,
    LABELS,
    MACROS,
    TYPES,
    VERSION,
    WIDGETS,
)
from coonbench.formats.base import FormatError

WIDGET_WORDS = {v: k for k, v in WIDGETS.items()}
TYPE_WORDS = {v: k for k, v in TYPES.items()}
LABEL_WORDS = {v: k for k, v in LABELS.items()}
# Longest macro first, so that a macro that is a prefix of another never wins.
_MACROS_BY_LENGTH = sorted(MACROS.items(), key=lambda kv: -len(kv[1]))
# A label drops its colon when its value starts with one of these COON tokens (``c T('a')``, ``p@@16``).
_VALUE_KINDS = ("esc", "num", "edge", "cedge", "macro")
_OPERAND_KINDS = ("ident", *_VALUE_KINDS)
# Named constructors with a widget word: (Type, ".", name) → the dotted name (one COON word).
_DOTTED = {tuple(full.partition(".")): full for full in WIDGETS if "." in full}
# Implied constructors as Dart tokens (``BorderRadius.circular`` → ("BorderRadius", ".", "circular")).
IMPLIED_TOKENS = {label: tuple(re.split(r"(\.)", full)) for label, full in IMPLIED.items()}
_CLASS_MACROS = frozenset(name for name, seq in MACROS.items() if any(CLASS_PLACEHOLDER in p for p in seq))
_IDENT_RE = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
# ``^name`` = ``required this.name`` directly after one of these (``^`` is binary-only in Dart, so never ambiguous).
REQUIRED_THIS = ("required", "this", ".")
_REQUIRED_THIS_AFTER = ("(", "{", "[", ",")
# Dart reserved words, built-in identifiers and lower-case built-in types: never read as a colon-less label.
NOT_LABELS = frozenset(
    """assert break case catch class const continue default do else enum extends false final finally for if in is
    new null rethrow return super switch this throw true try var void while with abstract as covariant deferred
    dynamic export extension external factory function get implements import interface late library mixin operator
    part required set static typedef async await hide of on show sync yield base sealed when int double num bool
    """.split()
)
# Words that may follow an identifier at the start of an argument without making it a label (``for (x in xs)``).
INFIX_WORDS = frozenset("in is as async sync".split())
_RECORD_PARENTS = ("record_literal", "record_type", "record_pattern")


# --- reading a word: shared by decoder and encoder --------------------------------------------------------------


def _item_start(prev: CTok | None) -> bool:
    return prev is not None and prev.is_op("(", ",")


def _label_word(text: str) -> bool:
    """A word that reads as a label at the start of an argument: a table word, or any lower-case identifier
    that is not a Dart keyword or built-in lower-case type (those start parameters and loop variables)."""
    return text in LABEL_WORDS or (text[0].islower() and text not in NOT_LABELS and text not in TYPE_WORDS)


def _reading(tok: CTok, prev: CTok | None, nxt: CTok | None) -> tuple[str, str]:
    """How the decoder reads a word: ('label', full label) or ('ident', Dart identifier)."""
    if tok.kind == "esc":
        return ("ident", tok.text)
    if _item_start(prev) and nxt is not None and nxt.is_op(".") and LABEL_WORDS.get(tok.text) in ENUM_LABELS:
        return ("label", LABEL_WORDS[tok.text])  # ``l.grey`` = ``color: Colors.grey``
    if _item_start(prev) and nxt is not None and nxt.is_op("(") and LABEL_WORDS.get(tok.text) in IMPLIED:
        return ("label", LABEL_WORDS[tok.text])  # ``s(z 14)`` = ``style: TextStyle(fontSize: 14)``
    if _item_start(prev) and nxt is not None and _label_word(tok.text):
        if nxt.is_op(":") or nxt.kind in _VALUE_KINDS or (nxt.kind == "ident" and nxt.text not in INFIX_WORDS):
            return ("label", LABEL_WORDS.get(tok.text, tok.text))
    if tok.text in WIDGET_WORDS and nxt is not None and nxt.is_op("(", "."):
        return ("ident", WIDGET_WORDS[tok.text])
    if tok.text in TYPE_WORDS:
        return ("ident", TYPE_WORDS[tok.text])
    return ("ident", tok.text)


def _significant(tokens: list[CTok]) -> tuple[list[CTok | None], list[CTok | None]]:
    """For each token, the previous and next non-comment token (comments are transparent to every rule)."""
    prevs: list[CTok | None] = []
    last: CTok | None = None
    for tok in tokens:
        prevs.append(last)
        if tok.kind != "comment":
            last = tok
    nexts: list[CTok | None] = [None] * len(tokens)
    last = None
    for i in range(len(tokens) - 1, -1, -1):
        nexts[i] = last
        if tokens[i].kind != "comment":
            last = tokens[i]
    return prevs, nexts


def declares_class(texts: list[str], k: int) -> bool:
    """Whether ``texts[k]`` is the name in a ``class Name`` (the rule class-name macros use, on Dart tokens)."""
    return k >= 1 and texts[k - 1] == "class" and _IDENT_RE.fullmatch(texts[k]) is not None


def instantiate(name: str, cls: str | None) -> tuple[str, ...] | None:
    """Macro ``name``'s Dart tokens; class-name macros get ``cls`` (None when no class was declared before)."""
    seq = MACROS[name]
    if name not in _CLASS_MACROS:
        return seq
    if cls is None:
        return None
    return tuple(part.replace(CLASS_PLACEHOLDER, cls) for part in seq)


def _opens_list(tok: CTok | None) -> bool:
    """Whether ``tok`` (an operator, or a macro by its last Dart token) may be followed by ``^name``."""
    if tok is None:
        return False
    if tok.kind == "macro":
        return tok.text in MACROS and MACROS[tok.text][-1] in _REQUIRED_THIS_AFTER
    return tok.is_op(*_REQUIRED_THIS_AFTER)


def macro_text(name: str) -> str:
    """Macro ``name`` as readable Dart, the class placeholder shown as ``{Class}`` (docs, primer, macro_table)."""
    sentinel = "Zq9Class"
    parts = [part.replace(CLASS_PLACEHOLDER, sentinel) for part in MACROS[name]]
    return join_tokens(parts).replace(sentinel, CLASS_PLACEHOLDER)


# --- decoding ---------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class DartToken:
    """A decoded Dart token and the COON position it came from (for validator messages)."""

    text: str
    line: int
    column: int


MAX_CHARS = 1_000_000
"""Largest COON or Dart text the codec takes (the biggest real Dart file we know is 76 KB): past it a FormatError,
so one hostile 5 MB input cannot hold a caller for tens of seconds."""


def check_size(text: str, what: str) -> None:
    """FormatError when ``text`` is longer than ``MAX_CHARS``."""
    if len(text) > MAX_CHARS:
        raise FormatError(
            f"{what} text of {len(text):,} characters is over the codec's limit", 1, 1,
            expected=f"at most {MAX_CHARS:,} characters (coonbench.formats._coon_codec.MAX_CHARS)",
        )


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


def decode_tokens(text: str) -> list[DartToken]:
    """COON text → Dart tokens with their COON positions. Raises FormatError (lexical, brackets, macros)."""
    if not isinstance(text, str):
        raise FormatError("COON must be text", expected="str")
    check_size(text, "COON")
    body, offset = strip_header(text)
    try:
        toks = lex(body)
    except FormatError as err:
        raise FormatError(err.message, (err.line or 1) + offset, err.column, err.expected) from None
    if offset:
        toks = [CTok(t.kind, t.text, t.line + offset, t.column) for t in toks]
    toks = resolve_aliases(toks)
    prevs, nexts = _significant(toks)
    after = _next_significant_index(toks)
    out: list[DartToken] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        emit = lambda s, t=tok: out.append(DartToken(s, t.line, t.column))  # noqa: E731
        if tok.kind in ("ident", "esc"):
            kind, value = _reading(tok, prevs[i], nexts[i])
            if kind == "label":
                emit(value)
                emit(":")
                j = i + 1
                while j < len(toks) and toks[j].kind == "comment":
                    emit(toks[j].text)
                    j += 1
                if j < len(toks) and toks[j].is_op(":"):
                    j += 1
                    d = j if j < len(toks) and toks[j].kind != "comment" else after[j - 1]
                    if value in ENUM_LABELS and _member_follows(toks, after, d):
                        # ``l:.grey`` = ``color: Colors.grey``; after any other label ``.x`` is Dart's own shorthand
                        while j < d:
                            emit(toks[j].text)  # comments between ':' and '.'
                            j += 1
                        emit(ENUM_LABELS[value])
                elif j < len(toks) and value in IMPLIED and toks[j].is_op("("):
                    for part in IMPLIED_TOKENS[value]:
                        emit(part)  # ``s(z 14)``: the label's implied constructor
                elif (
                    j + 1 < len(toks)
                    and value in IMPLIED
                    and toks[j].kind == "ident"
                    and toks[j].text == "const"
                    and toks[j + 1].is_op("(")
                ):
                    out.append(DartToken("const", toks[j].line, toks[j].column))
                    for part in IMPLIED_TOKENS[value]:
                        emit(part)  # ``s const(z 14)`` = ``style: const TextStyle(fontSize: 14)``
                    j += 1
                elif value in ENUM_LABELS and _member_follows(toks, after, j):
                    emit(ENUM_LABELS[value])  # ``l.grey``: the label's enum type, no colon
                i = j
                continue
            emit(value)
        elif tok.kind == "macro":
            if tok.text not in MACROS:
                raise FormatError(
                    f"unknown abbreviation '#{tok.text}'",
                    tok.line,
                    tok.column,
                    expected="one of " + ", ".join(f"#{m}" for m in MACROS),
                )
            cls = None
            if tok.text in _CLASS_MACROS:
                texts = [t.text for t in out]
                cls = next((texts[k] for k in range(len(texts) - 1, 0, -1) if declares_class(texts, k)), None)
            parts = instantiate(tok.text, cls)
            if parts is None:
                raise FormatError(
                    f"'#{tok.text}' names the enclosing class, but no class was declared before it",
                    tok.line,
                    tok.column,
                    expected="a 'class Name' before it",
                )
            for part in parts:
                emit(part)
        elif tok.kind in ("edge", "cedge"):
            if tok.kind == "cedge":
                emit("const")
            for part in ("EdgeInsets", ".", "all", "(", tok.text, ")"):
                emit(part)
        elif (
            tok.is_op(".")
            and i >= 2
            and toks[i - 1].is_op("(")
            and toks[i - 2].kind == "ident"
            and len(out) >= 2
            and out[-1].text == "("
            and out[-2].text in CALL_ENUMS
        ):
            emit(CALL_ENUMS[out[-2].text])  # ``Ic(.home)`` = ``Icon(Icons.home)``; elsewhere ``(.x`` is Dart's own
            emit(".")
        elif (
            tok.kind == "op"
            and tok.text == "^"
            and _opens_list(prevs[i])
            and nexts[i] is not None
            and nexts[i].kind in ("ident", "esc")
        ):
            for part in REQUIRED_THIS:
                emit(part)
        elif tok.kind == "str" and is_short_uri(tok.text, prevs[i]):
            emit(expand_uri(tok.text))  # ``import ':provider'`` = ``import 'package:provider/provider.dart'``
        else:  # str num op at hash comment
            emit(tok.text)
        i += 1
    check_brackets(out)
    return out


URI_KEYWORDS = ("import", "export")
# ``'package:a/b.dart'`` with a plain package name and path (no ``$``, backslash, quote or space).
_PACKAGE_URI = re.compile(r"'package:([A-Za-z0-9_]+)/([A-Za-z0-9_./-]+)\.dart'")


def _names_uri(prev: CTok | None) -> bool:
    """Whether the string after ``prev`` (the previous significant token) is a directive's URI."""
    return prev is not None and prev.kind == "ident" and prev.text in URI_KEYWORDS


def is_short_uri(text: str, prev: CTok | None) -> bool:
    """Whether a COON string is a short package URI: ``':…'`` directly after ``import``/``export``."""
    return (
        _names_uri(prev) and len(text) >= 4 and text.startswith("':") and text.endswith("'") and "'" not in text[2:-1]
    )


def expand_uri(text: str) -> str:
    """``':provider'`` → ``'package:provider/provider.dart'``; ``':flutter/cupertino'`` →
    ``'package:flutter/cupertino.dart'`` (the decoder's side of ``short_uri``)."""
    body = text[2:-1]
    if "/" not in body:
        body = f"{body}/{body}"
    return f"'package:{body}.dart'"


def short_uri(text: str) -> str | None:
    """The short form of a package URI string when it reads back exactly, else None."""
    m = _PACKAGE_URI.fullmatch(text)
    if m is None:
        return None
    package, path = m.groups()
    short = f"':{package}'" if path == package else f"':{package}/{path}'"
    return short if expand_uri(short) == text else None


def _short_uris(toks: list[CTok]) -> list[CTok]:
    """Package URIs of ``import``/``export`` directives in their short form (``import ':provider'``)."""
    out = list(toks)
    for k, (tok, prev) in enumerate(zip(toks, _significant(toks)[0])):
        if tok.kind == "str" and _names_uri(prev):
            short = short_uri(tok.text)
            if short is not None:
                out[k] = _ctok("str", short)
    return out


ALIAS_KINDS = ("ident", "esc", "str")
"""Lexemes the per-document dictionary may define (``\\name``, ``\\`T``, ``\\'text'``) and repeat (``\\N``)."""


def resolve_aliases(toks: list[CTok]) -> list[CTok]:
    """``\\x`` defines alias N (the N-th definition, from 1) as the lexeme ``x``; ``\\N`` is that lexeme again.

    The result is the token stream written out in full, so every other rule reads it exactly as if no alias had
    been used. FormatError for a ``\\`` not followed by a word or string, or a ``\\N`` not yet defined."""
    if not any(t.kind in ("def", "ref") for t in toks):
        return toks
    out: list[CTok] = []
    defined: list[CTok] = []
    n = len(toks)
    i = 0
    while i < n:
        tok = toks[i]
        if tok.kind == "def":
            nxt = toks[i + 1] if i + 1 < n else None
            if nxt is None or nxt.kind not in ALIAS_KINDS:
                raise FormatError(
                    "'\\' defines an alias but no word or string follows", tok.line, tok.column,
                    expected="a word, `word or string directly after '\\'",
                )
            defined.append(nxt)
            out.append(nxt)
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
    after = [len(toks)] * len(toks)
    last = len(toks)
    for k in range(len(toks) - 1, -1, -1):
        after[k] = last
        if toks[k].kind != "comment":
            last = k
    return after


def _member_follows(toks: list[CTok], after: list[int], d: int) -> bool:
    """Whether ``toks[d]`` is '.' followed (comments skipped) by a name: an enum member shorthand."""
    if d >= len(toks) or not toks[d].is_op("."):
        return False
    m = after[d]
    return m < len(toks) and toks[m].kind in ("ident", "esc")


def decode(text: str) -> str:
    """COON → formatted Dart (2-space indentation). Raises only FormatError."""
    tokens = decode_tokens(text)
    try:
        return format_dart([t.text for t in tokens])
    except RecursionError:
        raise FormatError("brackets nested too deeply to format", 1, 1, expected="less nesting") from None


# --- encoding ---------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Item:
    """One Dart token on its way to COON, with what the tree said about it."""

    text: str
    node: tree_sitter.Node | None
    kind: str  # str num word op comment macro edge at hash label lcolon
    drop: bool = False
    implied: bool = False  # a label whose enum type was dropped / a call whose first argument's type was dropped


def _classify(text: str, node: tree_sitter.Node) -> str:
    if node.type in ("comment", "documentation_comment", "block_comment"):
        return "comment"
    if node.type == "string_literal":
        return "str"
    if text[0].isdigit() or (text[0] == "." and len(text) > 1):
        return "num"
    if text[0].isalpha() or text[0] in "_$":
        return "word"
    return "op"


def _is_label(node: tree_sitter.Node) -> bool:
    parent = node.parent
    return (
        node.type == "identifier"
        and parent is not None
        and parent.type == "label"
        and parent.parent is not None
        and parent.parent.type == "named_argument"
    )


def _enum_type_node(label_ident: tree_sitter.Node) -> tree_sitter.Node | None:
    """The ``Type`` of ``label: Type.member…`` when Type is the label's enum type (it can then be dropped)."""
    label = label_ident.parent
    assert label is not None and label.parent is not None
    full = label_ident.text.decode("utf-8") if label_ident.text else ""
    wanted = ENUM_LABELS.get(full)
    if wanted is None:
        return None
    parts = [c for c in label.parent.named_children if c.type != "label"]
    if len(parts) < 2 or parts[0].type != "identifier" or parts[0].text != wanted.encode():
        return None
    sel = parts[1].named_children
    if parts[1].type != "selector" or not sel or sel[0].type != "unconditional_assignable_selector":
        return None
    return parts[0]


def parse_source(source: str) -> ParsedUnit:
    """The source's tree (program or fragment); FormatError naming line and column when the grammar rejects it."""
    check_size(source, "Dart")
    try:
        return parse_unit(source)
    except DartParseError as err:
        raise FormatError(
            f"not Dart (tree-sitter-dart rejects it): {err.message}", err.line, err.column, expected="valid Dart"
        ) from None


def _items(unit: ParsedUnit, keep_comments: bool) -> list[_Item]:
    toks = unit_tokens(unit, comments=keep_comments)
    items: list[_Item] = []
    last_sig: _Item | None = None  # the last non-comment item (``label /* c */ :`` keeps the label's colon)
    drop_ids: set[int] = set()
    kinds = [_classify(t.text, t.node) for t in toks]
    next_sig: list[str | None] = [None] * len(toks)
    last: str | None = None
    for k in range(len(toks) - 1, -1, -1):
        next_sig[k] = last
        if kinds[k] != "comment":
            last = toks[k].text
    for k, tok in enumerate(toks):
        kind = kinds[k]
        item = _Item(tok.text, tok.node, kind)
        if kind == "word":
            if _is_label(tok.node):
                item.kind = "label"
                enum_node = _enum_type_node(tok.node)
                if enum_node is not None:
                    drop_ids.add(enum_node.id)
                    item.implied = True
            elif drop_ids and tok.node.id in drop_ids:
                item.drop = True
            elif (
                k >= 2
                and k + 1 < len(toks)
                and toks[k + 1].text == "."
                and toks[k - 1].text == "("
                and CALL_ENUMS.get(toks[k - 2].text) == tok.text
            ):
                item.drop = True  # Icon(Icons.x) → Ic(.x)
                items[k - 2].implied = True
        elif kind == "op":
            text = tok.text
            if text == ",":
                if next_sig[k] in (")", "]", "}"):
                    parent = tok.node.parent
                    if parent is not None and parent.type not in _RECORD_PARENTS:
                        item.drop = True  # trailing comma: insignificant (AST equivalence ignores it)
            elif text == ":" and last_sig is not None and last_sig.kind == "label":
                item.kind = "lcolon"  # the label carries its colon (kept until macros have matched)
            elif text == "#":
                item.kind = "hash"
            elif text == "@":
                item.kind = "at"
        items.append(item)
        if kind != "comment":
            last_sig = item
    return [it for it in items if not it.drop]


_MACRO_FIRST: dict[str, list[str]] = {}
for _name, _seq in _MACROS_BY_LENGTH:
    _MACRO_FIRST.setdefault(_seq[0], []).append(_name)


def _apply_macros(items: list[_Item]) -> list[_Item]:
    out: list[_Item] = []
    i, n_items = 0, len(items)
    texts = [it.text for it in items]
    cls: str | None = None  # the most recently declared class (before items[i])
    cls_seen = 0  # items before this index have been checked for ``class Name``

    def advance(upto: int) -> None:
        nonlocal cls, cls_seen
        for k in range(max(cls_seen, 1), upto):
            if declares_class(texts, k):
                cls = texts[k]
        cls_seen = max(cls_seen, upto)

    while i < n_items:
        text = items[i].text
        matched = False
        for name in _MACRO_FIRST.get(text, ()):
            if name in _CLASS_MACROS:
                advance(i)  # the class declared before items[i]: scanned only when a class macro could match
            seq = instantiate(name, cls)
            if seq is None:
                continue
            n = len(seq)
            window = items[i : i + n]
            if tuple(texts[i : i + n]) == seq and all(it.kind != "comment" for it in window):
                out.append(_Item(name, None, "macro"))
                i += n
                matched = True
                break
        if matched:
            continue
        if text == "const" and i + 6 < n_items and items[i].kind == "word" and texts[i + 1] == "EdgeInsets":
            w = items[i + 2 : i + 7]
            if (w[0].text, w[1].text, w[2].text, w[4].text) == (".", "all", "(", ")") and w[3].kind == "num":
                out.append(_Item(w[3].text, None, "cedge"))
                i += 7
                continue
        if text == "EdgeInsets" and i + 5 < n_items:
            w = items[i + 1 : i + 6]
            if (w[0].text, w[1].text, w[2].text, w[4].text) == (".", "all", "(", ")") and w[3].kind == "num":
                out.append(_Item(w[3].text, None, "edge"))
                i += 6
                continue
        at_item = bool(out) and out[-1].kind == "op" and out[-1].text in ("(", ",")
        if items[i].kind == "label" and text in IMPLIED_TOKENS and at_item:
            k = i + 1 + (i + 1 < n_items and items[i + 1].kind == "lcolon")
            has_const = k < n_items and texts[k] == "const" and items[k].kind == "word"
            seq = IMPLIED_TOKENS[text]
            start = k + has_const
            end = start + len(seq)
            if (
                end < n_items
                and tuple(texts[start:end]) == seq
                and texts[end] == "("
                and all(it.kind != "comment" for it in items[i:end])
            ):
                out.append(_Item(text, items[i].node, "ilabel"))
                if has_const:
                    out.append(items[k])
                i = end
                continue
        if (
            items[i].kind == "word"
            and tuple(texts[i : i + 3]) in _DOTTED
            and i + 3 < n_items
            and texts[i + 3] == "("
            and items[i + 2].kind == "word"
        ):
            out.append(_Item(_DOTTED[tuple(texts[i : i + 3])], None, "word"))
            i += 3
            continue
        if (
            text == "required"
            and items[i].kind == "word"
            and tuple(texts[i : i + 3]) == REQUIRED_THIS
            and i + 3 < n_items
            and items[i + 3].kind == "word"
            and out
            and out[-1].kind in ("op", "macro")
            and _opens_list(_ctok(out[-1].kind, out[-1].text))
            and all(it.kind != "comment" for it in items[i : i + 3])
        ):
            out.append(_Item("^", None, "op"))
            i += 3
            continue
        out.append(items[i])
        i += 1
    return out


def _ctok(kind: str, text: str) -> CTok:
    return CTok(kind, text, 0, 0)


def _to_ctoks(items: list[_Item]) -> list[CTok]:
    """Items → COON tokens: words abbreviated or escaped so that ``_reading`` gives back what the tree said."""
    # First draft: every word and label in its plain spelling, labels with colon; then fix each against _reading.
    draft: list[tuple[CTok, _Item | None]] = []
    for it in items:
        if it.kind == "label":
            draft.append((_ctok("ident", it.text), it))
            draft.append((_ctok("op", ":"), None))
        elif it.kind == "ilabel":
            draft.append((_ctok("ident", LABELS.get(it.text, it.text)), it))
        elif it.kind == "word":
            draft.append((_ctok("ident", it.text), it))
        elif it.kind in ("str", "num", "op", "comment", "macro", "edge", "cedge", "at", "hash"):
            draft.append((_ctok(it.kind, it.text), None))
        else:  # pragma: no cover - every kind is handled above
            raise AssertionError(it.kind)
    toks = [t for t, _ in draft]
    prevs, nexts = _significant(toks)
    out: list[CTok] = []
    skip_colon = False
    for i, (tok, it) in enumerate(draft):
        if skip_colon and tok.is_op(":"):
            skip_colon = False
            continue
        skip_colon = False
        if it is None:
            out.append(tok)
            continue
        prev, nxt = prevs[i], nexts[i]
        if it.kind == "ilabel":
            if _reading(tok, prev, nxt) != ("label", it.text):  # pragma: no cover - guaranteed by _apply_macros
                raise AssertionError(f"implied constructor after {it.text!r} would not read back")
            out.append(tok)
            continue
        if it.kind == "label":
            after = nexts[i + 1] if i + 1 < len(draft) else None  # the value's first token (colon skipped)
            word = LABELS.get(it.text, it.text)
            choices: list[tuple[CTok, bool]] = []  # (token, keeps its colon)
            const_call = (  # ``label: const (…)`` must keep its colon: colon-less it reads as an implied constructor
                it.text in IMPLIED
                and i + 3 < len(draft)
                and draft[i + 2][0].text == "const"
                and draft[i + 3][0].is_op("(")
            )
            if after is not None and (after.kind in _OPERAND_KINDS or after.is_op(".")) and not const_call:
                choices.append((_ctok("ident", word), False))
            choices.append((_ctok("ident", word), True))
            if word != it.text:
                choices.append((_ctok("ident", it.text), True))
            dot_after = after is not None and after.is_op(".") and it.text in ENUM_LABELS
            for cand, colon in choices:
                follower = nxt if colon else after
                got = _reading(cand, prev, follower)
                # a label word before '.member' makes the decoder insert the enum type: right only when dropped
                implies = dot_after and got[0] == "label"
                if (got == ("label", it.text) or (got == ("ident", it.text) and colon)) and implies == it.implied:
                    out.append(cand)
                    skip_colon = not colon
                    break
            else:
                out.append(_ctok("esc", it.text))
            continue
        # a plain word (identifier or keyword)
        if prev is not None and prev.kind == "hash":
            out.append(_ctok("esc", it.text))  # a symbol's name (``#`Text``): never abbreviated
            continue
        if (
            it.text in CALL_ENUMS
            and not it.implied
            and i + 2 < len(draft)
            and draft[i + 1][0].is_op("(")
            and draft[i + 2][0].is_op(".")
        ):
            out.append(_ctok("esc", it.text))  # ``Icon(.x)`` as written: escaped, or the decoder adds ``Icons``
            continue
        candidates: list[CTok] = []
        if it.text in WIDGETS and nxt is not None and nxt.is_op("(", "."):
            candidates.append(_ctok("ident", WIDGETS[it.text]))
        if it.text in TYPES:
            candidates.append(_ctok("ident", TYPES[it.text]))
        candidates.append(_ctok("ident", it.text))
        colon_follows = nxt is not None and nxt.is_op(":")
        for cand in candidates:
            got = _reading(cand, prev, nxt)
            if got == ("ident", it.text) or (colon_follows and got == ("label", it.text) and it.text not in ENUM_LABELS):
                out.append(cand)
                break
        else:
            out.append(_ctok("esc", it.text))
    return out


def _merge_closers(toks: list[CTok]) -> list[CTok]:
    """``List<List<int> >`` → ``List<List<int>>``: consecutive ``>`` are written as one ``>>``/``>>>`` (Dart's own
    spelling; it parses to the same tree), instead of being kept apart by a space."""
    out: list[CTok] = []
    for tok in toks:
        if tok.is_op(">") and out and out[-1].is_op(">", ">>"):
            out[-1] = _ctok("op", out[-1].text + ">")
        else:
            out.append(tok)
    return out


ALIAS_REF_COST = 1.5
"""Estimated tokens of a ``\\N`` (with o200k, ``(\\`` and ``.\\`` are one token, `` \\`` another; the number one)."""
ALIAS_DEF_COST = 1.0
"""Estimated tokens a definition's ``\\`` adds."""
# A BPE-like split (case-changes, runs of letters, 3-digit groups, punctuation runs, spaces): within ±1 of the o200k
# count for 99% of the corpus's words and strings, without loading a tokenizer into the codec.
_PIECES = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]{1,3}|[^A-Za-z0-9\s]+|\s+")


@lru_cache(maxsize=65536)
def _lexeme_cost(spelled: str) -> int:
    """Estimated tokens of a lexeme (decides which words the dictionary aliases; never affects correctness)."""
    if len(spelled) > 64:
        return len(spelled) // 4
    return len(_PIECES.findall(spelled))


def _alias(toks: list[CTok]) -> list[CTok]:
    """The per-document dictionary: a word or string written ``n`` times that costs ``t`` o200k tokens is defined
    at its first use (``\\word``) and repeated as ``\\N`` when that saves tokens: (n − 1)·(t − 1.5) > 1.

    Never after ``@`` or ``#``` (their name is glued to the sigil); a string only when it is one lexeme (an
    adjacent run ``'a' 'b'`` is several)."""
    counts: dict[tuple[str, str], int] = {}
    prev: CTok | None = None
    eligible = [False] * len(toks)
    for k, tok in enumerate(toks):
        if tok.kind in ALIAS_KINDS and not (prev is not None and prev.kind in ("at", "hash")):
            eligible[k] = True
            key = (tok.kind, tok.text)
            counts[key] = counts.get(key, 0) + 1
        prev = tok
    chosen = {
        key
        for key, n in counts.items()
        if n > 1
        and (n - 1) * (_lexeme_cost(_spell(_ctok(*key))) - ALIAS_REF_COST) > ALIAS_DEF_COST
        and (key[0] != "str" or string_end(key[1], 0) == len(key[1]))  # one literal, not a run 'a' 'b'
    }
    if not chosen:
        return toks
    out: list[CTok] = []
    number: dict[tuple[str, str], int] = {}
    for k, tok in enumerate(toks):
        key = (tok.kind, tok.text)
        if eligible[k] and key in chosen:
            if key in number:
                out.append(_ctok("ref", str(number[key])))
                continue
            number[key] = len(number) + 1
            out.append(_ctok("def", "\\"))
        out.append(tok)
    return out


def _spell(tok: CTok) -> str:
    if tok.kind == "ref":
        return "\\" + tok.text
    if tok.kind == "esc":
        return "`" + tok.text
    if tok.kind == "macro":
        return "#" + tok.text
    if tok.kind == "edge":
        return "@" + tok.text
    if tok.kind == "cedge":
        return "@@" + tok.text
    if tok.kind == "hash":
        return "#`"
    return tok.text


def _join(toks: list[CTok]) -> str:
    parts: list[str] = []
    prev: CTok | None = None
    for tok in toks:
        text = _spell(tok)
        if prev is not None:
            ptext = _spell(prev)
            if prev.kind == "comment" and ptext.startswith("//"):
                parts.append("\n")
            elif prev.kind == "def":
                pass  # ``\\word``: the definition mark is glued to its lexeme
            elif prev.kind == "ref":
                if text[0].isalnum() or text[0] in "_$`'\"" or (text[0] == "." and text[1:2].isdigit()):
                    parts.append(" ")
            elif prev.kind == "at":
                pass  # @name: the annotation sigil is glued to its name
            elif prev.kind == "hash" and tok.kind == "esc":
                text = tok.text  # ``#`name``: the hash's backtick escapes the name
            elif needs_space(ptext, text) or (prev.kind == "op" and prev.text == "." and tok.kind in ("edge", "cedge")):
                parts.append(" ")
            elif prev.kind in ("edge", "cedge", "macro") and (text[0].isalnum() or text[0] in "_$`'\"."):
                parts.append(" ")
            elif tok.kind in ("esc", "macro", "edge", "cedge", "hash") and (ptext[-1].isalnum() or ptext[-1] in "_$"):
                parts.append(" ")
            elif tok.kind == "comment" and ptext[-1] in "/*":
                parts.append(" ")
        parts.append(text)
        prev = tok
    if prev is not None and prev.kind == "comment" and prev.text.startswith("//"):
        parts.append("\n")
    return "".join(parts)


def encode_unit(unit: ParsedUnit, *, keep_comments: bool = False) -> str:
    """A parsed Dart unit → COON body (no header, not verified: ``encode`` verifies)."""
    items = [it for it in _apply_macros(_items(unit, keep_comments)) if it.kind != "lcolon"]
    return _join(_alias(_short_uris(_merge_closers(_to_ctoks(items)))))
