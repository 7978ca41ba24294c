"""Dart → COON by walking the tree-sitter-dart token stream (string literals whole), never the source text: the tree
says which identifier is a named-argument label, which value is ``Enum.member`` for that label, which comma is
trailing. Every word is checked against the decoder's ``reading`` (``words``) and escaped where it would read
back differently. Not verified here: ``verifier.encode`` decodes and compares."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

import tree_sitter

from coonbench.dart.annotations import detached_names
from coonbench.dart.equivalence import unit_scan
from coonbench.dart.minify import LINE_ENDED, space_between
from coonbench.dart.parse import DartParseError, ParsedUnit, parse_unit
from coonbench.dart.query import Token, unit_tokens
from coonbench.dart.scan import insignificant_commas
from coonbench.dart.strings import string_end
from coonbench.formats.coon.lexer import CTok, lex
from coonbench.formats.coon.tables import (
    ALIAS_WORDS,
    CALL_ENUMS,
    ENUM_LABELS,
    IMPLIED,
    LABELS,
    MACROS,
    TYPES,
    WIDGETS,
)
from coonbench.formats.coon.words import (
    ALIAS_KINDS,
    CLASS_MACROS,
    IMPLIED_TOKENS,
    OF_CONTEXT,
    OPERAND_KINDS,
    REQUIRED_THIS,
    URI_KEYWORDS,
    check_size,
    declares_class,
    instantiate,
    names_uri,
    opens_list,
    package_path,
    reading,
    relative_package_uri,
    short_uri,
    significant,
)
from coonbench.formats.base import FormatError

# Longest macro first, so that a macro that is a prefix of another never wins.
_MACROS_BY_LENGTH: Final = sorted(MACROS.items(), key=lambda kv: -len(kv[1]))
# Named constructors with a widget word: (Type, ".", name) → the dotted name (one COON word).
_DOTTED: Final = {tuple(full.partition(".")): full for full in WIDGETS if "." in full}
_DOTTED_TYPES: Final = frozenset(key[0] for key in _DOTTED)
_RECORD_PARENTS: Final = ("record_literal", "record_type", "record_pattern")
# The tables the per-word rules read, as plain dictionaries named after them: compiled, a lookup in one is a direct
# dictionary call, where the tables themselves (read-only mapping proxies) are asked through the generic protocol.
_WIDGETS: Final[dict[str, str]] = dict(WIDGETS)
_TYPES: Final[dict[str, str]] = dict(TYPES)
_LABELS: Final[dict[str, str]] = dict(LABELS)
_ENUM_LABELS: Final[dict[str, str]] = dict(ENUM_LABELS)
_IMPLIED: Final[dict[str, str]] = dict(IMPLIED)
_CALL_ENUMS: Final[dict[str, str]] = dict(CALL_ENUMS)


class _Item:
    """One Dart token on its way to COON, with what the tree said about it (a plain class with slots, not a
    dataclass: the compiled build makes it a native object with a compiled ``__init__``)."""

    __slots__ = ("text", "node", "kind", "drop", "implied", "spaced")

    def __init__(self, text: str, node: tree_sitter.Node | None, kind: str) -> None:
        self.text = text
        self.node = node
        self.kind = kind  # str num word op comment macro edge at hash ofc label lcolon
        self.drop = False
        self.implied = False  # a label whose enum type was dropped / a call whose first argument's type was dropped
        self.spaced = False  # a ``(`` detached from the annotation name before it (``annotations``)


_WRITTEN_AS_IS: Final = frozenset(("comment", "documentation_comment", "block_comment", "script_tag"))
# An ASCII first character's kind (but ``.``, see ``_classify``), looked up instead of asked for each token.
_FIRST_KINDS: Final = {
    c: "num" if c.isdigit() else "word" if c.isalpha() or c in "_$" else "op" for c in map(chr, range(128)) if c != "."
}


def _classify(text: str, node_type: str) -> str:
    if node_type in _WRITTEN_AS_IS:
        return "comment"  # written as it is (the script tag is kept with or without comments: it is no comment)
    if node_type == "string_literal":
        return "str"
    first = text[0]
    if first == ".":
        return "num" if len(text) > 1 else "op"
    kind = _FIRST_KINDS.get(first)
    if kind is not None:
        return kind
    if first.isdigit():
        return "num"
    if first.isalpha():
        return "word"
    return "op"


def _is_label(tok: Token) -> bool:
    """A named argument's label (``name`` of ``name: value``)."""
    return tok.type == "identifier" and tok.parent == "label" and tok.grandparent == "named_argument"


def _enum_type_node(label_ident: Token) -> tree_sitter.Node | None:
    """The ``Type`` of ``label: Type.member…`` when Type is the label's enum type (it can then be dropped)."""
    wanted = _ENUM_LABELS.get(label_ident.text)
    if wanted is None:
        return None
    label = label_ident.node.parent
    assert label is not None and label.parent is not None
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


def _items(unit: ParsedUnit, keep_comments: bool, trailing_commas: bool) -> list[_Item]:
    toks = unit_tokens(unit, comments=keep_comments)
    # the annotations' ``@`` leaves, from the walk: their names are found without a query over the whole tree
    ats = [t.node for t in unit_scan(unit).code if t.text == "@" and t.parent == "annotation"]
    detached = detached_names(unit, ats)
    items: list[_Item] = []
    last_sig: _Item | None = None  # the last non-comment item (``label /* c */ :`` keeps the label's colon)
    drop_ids: set[int] = set()
    kinds = [_classify(t.text, t.type) for t in toks]
    texts = [t.text for t in toks]
    next_sig: list[str | None] = []  # the next code token's text
    if "comment" in kinds:
        code = [k for k, kind in enumerate(kinds) if kind != "comment"]
        droppable = {code[j] for j in insignificant_commas([texts[k] for k in code])}
        next_sig.extend([None] * len(toks))
        last: str | None = None
        for k in range(len(toks) - 1, -1, -1):
            next_sig[k] = last
            if kinds[k] != "comment":
                last = texts[k]
    else:  # every token is code: its index is its own, the next token its next code token
        droppable = insignificant_commas(texts)
        next_sig.extend(texts[1:])
        next_sig.append(None)
    for k, tok in enumerate(toks):
        kind = kinds[k]
        item = _Item(tok.text, tok.node, kind)
        if kind == "word":
            if next_sig[k] == ":" and _is_label(tok):  # a label: ``name :``
                item.kind = "label"
                enum_node = _enum_type_node(tok)
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
                and _CALL_ENUMS.get(toks[k - 2].text) == tok.text
            ):
                item.drop = True  # Icon(Icons.x) → Ic(.x)
                items[k - 2].implied = True
        elif kind == "op":
            text = tok.text
            if text == "," and not trailing_commas:
                if k in droppable and tok.parent not in _RECORD_PARENTS:
                    item.drop = True  # a trailing comma Dart ignores (``scan.insignificant_commas``)
            elif text == ":" and last_sig is not None and last_sig.kind == "label":
                item.kind = "lcolon"  # the label carries its colon (kept until macros have matched)
            elif text == "(" and last_sig is not None and last_sig.node is not None and detached:
                item.spaced = last_sig.node.end_byte in detached
            elif text == "#":
                item.kind = "hash"
            elif text == "@":
                item.kind = "at"
        items.append(item)
        if kind != "comment":
            last_sig = item
    return [it for it in items if not it.drop]


_MACRO_FIRST: Final[dict[str, list[str]]] = {}
for _name, _seq in _MACROS_BY_LENGTH:
    _MACRO_FIRST.setdefault(_seq[0], []).append(_name)
_RULE_STARTS: Final = frozenset(
    [*_MACRO_FIRST, "const", "EdgeInsets", ".", "required", *_DOTTED_TYPES, *IMPLIED_TOKENS]
)
"""The texts that start a rule of ``_apply_macros`` (a macro's first token, ``const``/``EdgeInsets`` of an edge,
``.`` of ``.of(context)``, ``required`` of ``^name``, a dotted widget's type, a label with an implied
constructor): an item with any other text is copied as it is, after one set lookup."""


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
        text = texts[i]
        if text not in _RULE_STARTS:
            out.append(items[i])
            i += 1
            continue
        matched = False
        for name in _MACRO_FIRST.get(text, ()):
            if name in CLASS_MACROS:
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
        if (
            text == "."
            and out  # a document's first ``#!`` is its script tag
            and items[i].kind == "op"
            and i + 4 < n_items
            and texts[i + 1] == "of"  # before the window is made: most ``.`` are no ``.of(context)``
            and tuple(texts[i : i + 5]) == OF_CONTEXT
            and items[i + 1].kind == "word"
            and items[i + 3].kind == "word"
            and all(it.kind != "comment" for it in items[i : i + 5])
        ):
            out.append(_Item("#", None, "ofc"))  # ``Theme.of(context)`` → ``Theme#``
            i += 5
            continue
        if (
            items[i].kind == "label"
            and text in IMPLIED_TOKENS
            and bool(out)
            and out[-1].kind == "op"
            and out[-1].text in ("(", ",")
        ):
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
            text in _DOTTED_TYPES
            and items[i].kind == "word"
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
            and opens_list(_ctok(out[-1].kind, out[-1].text))
            and all(it.kind != "comment" for it in items[i : i + 3])
        ):
            out.append(_Item("^", None, "op"))
            i += 3
            continue
        out.append(items[i])
        i += 1
    return out


# kind → text → the one token for it: shared by every document, so a CTok is never changed once made
_CTOKS: Final[dict[str, dict[str, CTok]]] = {}
_CTOKS_MAX: Final = 1 << 16


_IDENT_CTOKS: Final[dict[str, CTok]] = {}
_CTOKS["ident"] = _IDENT_CTOKS  # half of all asked for: their row without a lookup


def _ctok(kind: str, text: str) -> CTok:
    """A positionless COON token, made once per (kind, text) while the table has room (about 200,000 are asked
    for on the development set, mostly the same few thousand)."""
    row = _IDENT_CTOKS if kind == "ident" else _CTOKS.get(kind)
    if row is None:
        row = _CTOKS[kind] = {}
    tok = row.get(text)
    if tok is None:
        tok = CTok(kind, text, 0, 0)
        if len(row) < _CTOKS_MAX:
            row[text] = tok
    return tok


def _to_ctoks(items: list[_Item]) -> list[CTok]:
    """Items → COON tokens: words abbreviated or escaped so that ``reading`` gives back what the tree said."""
    # First draft: every word and label in its plain spelling, labels with colon; then fix each against reading.
    toks: list[CTok] = []  # the draft: each token, and for a word or label its item (two lists, no pair per token)
    words: list[_Item | None] = []
    for item in items:
        kind = item.kind
        if kind == "word":
            toks.append(_ctok("ident", item.text))
            words.append(item)
        elif kind == "label":
            toks.append(_ctok("ident", item.text))
            words.append(item)
            toks.append(_ctok("op", ":"))
            words.append(None)
        elif kind == "ilabel":
            toks.append(_ctok("ident", _LABELS.get(item.text, item.text)))
            words.append(item)
        elif kind == "lcolon":
            continue  # a label's colon: the label carries it (kept until macros have matched)
        elif item.spaced:
            toks.append(CTok("op", "(", 0, 0, True))
            words.append(None)
        elif kind in ("str", "num", "op", "comment", "macro", "edge", "cedge", "at", "hash", "ofc"):
            toks.append(_ctok(kind, item.text))
            words.append(None)
        else:  # pragma: no cover - every kind is handled above
            raise AssertionError(kind)
    prevs, nexts = significant(toks)
    out: list[CTok] = []
    skip_colon = False
    for i, tok in enumerate(toks):
        if skip_colon and tok.kind == "op" and tok.text == ":":
            skip_colon = False
            continue
        skip_colon = False
        it = words[i]
        if it is None:
            out.append(tok)
            continue
        prev, nxt = prevs[i], nexts[i]
        if it.kind == "ilabel":
            if reading(tok, prev, nxt) != ("label", it.text):  # pragma: no cover - guaranteed by _apply_macros
                raise AssertionError(f"implied constructor after {it.text!r} would not read back")
            out.append(tok)
            continue
        if it.kind == "label":
            after = nexts[i + 1] if i + 1 < len(toks) else None  # the value's first token (colon skipped)
            word = _LABELS.get(it.text, it.text)
            choices: list[tuple[CTok, bool]] = []  # (token, keeps its colon)
            const_call = (  # ``label: const (…)`` must keep its colon: colon-less it reads as an implied constructor
                it.text in _IMPLIED
                and i + 3 < len(toks)
                and toks[i + 2].text == "const"
                and toks[i + 3].is_op("(")
            )
            if after is not None and (after.kind in OPERAND_KINDS or after.is_op(".")) and not const_call:
                choices.append((_ctok("ident", word), False))
            choices.append((_ctok("ident", word), True))
            if word != it.text:
                choices.append((_ctok("ident", it.text), True))
            dot_after = after is not None and after.is_op(".") and it.text in _ENUM_LABELS
            for cand, colon in choices:
                follower = nxt if colon else after
                got = reading(cand, prev, follower)
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
            it.text in _CALL_ENUMS
            and not it.implied
            and i + 2 < len(toks)
            and toks[i + 1].is_op("(")
            and toks[i + 2].is_op(".")
        ):
            out.append(_ctok("esc", it.text))  # ``Icon(.x)`` as written: escaped, or the decoder adds ``Icons``
            continue
        candidates: list[CTok] = []
        if it.text in _WIDGETS and nxt is not None and nxt.is_op("(", "."):
            candidates.append(_ctok("ident", _WIDGETS[it.text]))
        if it.text in _TYPES:
            candidates.append(_ctok("ident", _TYPES[it.text]))
        candidates.append(tok)  # the plain spelling (the draft's token)
        colon_follows = nxt is not None and nxt.kind == "op" and nxt.text == ":"
        for cand in candidates:
            role, value = reading(cand, prev, nxt)
            label_read = colon_follows and role == "label" and value not in _ENUM_LABELS
            if value == it.text and (role == "ident" or label_read):
                out.append(cand)
                break
        else:
            out.append(_ctok("esc", it.text))
    return out


def _merge_closers(toks: list[CTok]) -> list[CTok]:
    """``List<List<int> >`` → ``List<List<int>>``: consecutive ``>`` (and ``>>``) are written as one ``>>``/``>>>``
    (Dart's own spelling; it parses to the same tree), instead of being kept apart by a space."""
    out: list[CTok] = []
    closing = False  # the last token written is ``>`` or ``>>``
    for tok in toks:
        if tok.kind == "op" and (tok.text == ">" or tok.text == ">>"):
            if closing and len(out[-1].text) + len(tok.text) <= 3:
                out[-1] = _ctok("op", out[-1].text + tok.text)  # tree-sitter reads a glued `>>>` as `>` `>>`
                continue
            closing = True
        else:
            closing = False
        out.append(tok)
    return out


ALIAS_REF_COST: Final = 1.0
"""Estimated tokens of a repeat: an alias word (``q``, ``ch``) is one o200k token after most punctuation (``(q``,
``.q``, `` q``); measured, 1.0 saves 7,200 more o200k tokens on the tuning repositories than 1.5."""
ALIAS_DEF_COST: Final = 1.0
"""Estimated tokens a definition's ``\\`` adds."""
# A BPE-like split (case-changes, runs of letters, 3-digit groups, punctuation runs, spaces): within ±1 of the o200k
# count for 99% of the corpus's words and strings, without loading a tokenizer into the codec.
_PIECES: Final = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]{1,3}|[^A-Za-z0-9\s]+|\s+")


@lru_cache(maxsize=65536)
def _lexeme_cost(spelled: str) -> int:
    """Estimated tokens of a lexeme (decides which words the dictionary aliases; never affects correctness)."""
    if len(spelled) > 64:
        return len(spelled) // 4
    return len(_PIECES.findall(spelled))


def _alias(toks: list[CTok]) -> list[CTok]:
    """The per-document dictionary: a word or string written ``n`` times that costs ``t`` o200k tokens is defined
    at its first use (``\\word``) and repeated as the N-th alias word (``q``, ``k``, …; ``\\N`` past the list) when
    that saves tokens: (n − 1)·(t − 1) > 1. A name spelled like an alias word already defined is escaped
    (`` `q ``); where that would change its reading (a label ``q:``) the document gets no dictionary.

    Never after ``@`` or ``#``` (their name is glued to the sigil), and only a lexeme that reads back whole after
    the ``\\`` (``_one_lexeme``)."""
    counts: dict[str, dict[str, int]] = {kind: {} for kind in ALIAS_KINDS}  # kind → text → uses
    prev_kind = ""
    eligible = [False] * len(toks)
    for k, tok in enumerate(toks):
        kind = tok.kind
        if kind in counts and prev_kind != "at" and prev_kind != "hash":
            eligible[k] = True
            seen = counts[kind]
            seen[tok.text] = seen.get(tok.text, 0) + 1
        prev_kind = kind
    chosen: dict[str, set[str]] = {}  # kind → the texts aliased (looked up per token without a pair)
    for kind, seen in counts.items():
        for text, n in seen.items():
            if (
                n > 1
                and (n - 1) * (_lexeme_cost(_spell(_ctok(kind, text))) - ALIAS_REF_COST) > ALIAS_DEF_COST
                and _one_lexeme((kind, text))
            ):
                chosen.setdefault(kind, set()).add(text)
    if not chosen:
        return toks
    out: list[CTok] = []
    number: dict[tuple[str, str], int] = {}
    active: set[str] = set()  # alias words defined so far: a name spelled like one is escaped
    prevs: list[CTok | None] | None = None
    nexts: list[CTok | None] | None = None
    prev_kind = ""
    for k, tok in enumerate(toks):
        kind = tok.kind
        after_sigil = prev_kind == "at" or prev_kind == "hash"
        prev_kind = kind
        aliased = chosen.get(kind) if eligible[k] else None
        if aliased is not None and tok.text in aliased:
            key = (kind, tok.text)
            m = number.get(key)
            if m is not None:
                out.append(_ctok("ident", ALIAS_WORDS[m - 1]) if m <= len(ALIAS_WORDS) else _ctok("ref", str(m)))
                continue
            m = number[key] = len(number) + 1
            if m <= len(ALIAS_WORDS):
                active.add(ALIAS_WORDS[m - 1])
            out.append(_ctok("def", "\\"))
        elif kind == "ident" and tok.text in active and not after_sigil:
            if prevs is None or nexts is None:
                prevs, nexts = significant(toks)
            if reading(tok, prevs[k], nexts[k]) != ("ident", tok.text):
                return toks  # a label spelled like an alias word cannot be escaped: no dictionary here
            tok = _ctok("esc", tok.text)
        out.append(tok)
    return out


@lru_cache(maxsize=65536)
def _one_lexeme(key: tuple[str, str]) -> bool:
    """Whether a lexeme reads back whole after a definition's ``\\``: a string run ``'a' 'b'`` is several
    lexemes, and a keyword such as ``async*`` lexes as ``async`` then ``*`` (so ``\\async*`` would define
    ``async``)."""
    kind, text = key
    if kind == "str" and string_end(text, 0) != len(text):
        return False
    try:
        back = lex(_spell(_ctok(kind, text)))
    except FormatError:
        return False
    return len(back) == 1 and (back[0].kind, back[0].text) == key


def _spell(tok: CTok) -> str:
    if tok.kind == "ident" or tok.kind == "op":
        return tok.text  # most tokens: written as they are
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
    ptext = ""
    for tok in toks:
        text = spelled = _spell(tok)
        if prev is not None:
            if prev.kind == "comment" and ptext.startswith(LINE_ENDED):
                parts.append("\n")
            elif prev.kind == "def":
                pass  # ``\\word``: the definition mark is glued to its lexeme
            elif prev.kind == "ref":
                if text[0].isalnum() or text[0] in "_$`'\"" or (text[0] == "." and text[1:2].isdigit()):
                    parts.append(" ")
            elif prev.kind == "at":
                pass  # @name: the annotation sigil is glued to its name
            elif prev.kind == "ofc" and (text[0].isalnum() or text[0] in "_$`"):
                parts.append(" ")  # ``Theme# as T``: glued, ``#as`` would be a macro
            elif prev.kind == "hash" and tok.kind == "esc":
                text = tok.text  # ``#`name``: the hash's backtick escapes the name
            elif space_between(ptext, text) or (
                prev.kind == "op" and prev.text == "." and tok.kind in ("edge", "cedge")
            ):
                parts.append(" ")
            elif prev.kind in ("edge", "cedge", "macro") and (text[0].isalnum() or text[0] in "_$`'\"."):
                parts.append(" ")
            elif tok.kind in ("esc", "macro", "edge", "cedge", "hash") and (ptext[-1].isalnum() or ptext[-1] in "_$"):
                parts.append(" ")
            elif tok.kind == "comment" and ptext[-1] in "/*":
                parts.append(" ")
            elif tok.spaced:
                parts.append(" ")  # ``@x (int, int) f()``: the decoder keeps the gap (``annotations``)
        parts.append(text)
        prev, ptext = tok, spelled
    if prev is not None and prev.kind == "comment" and prev.text.startswith(LINE_ENDED):
        parts.append("\n")
    return "".join(parts)


def _directive_uris(toks: list[CTok]) -> list[int]:
    """The indices of the directives' URI strings: a string after ``import``/``export``/``part`` (comments
    skipped). Found once for the three rules that rewrite them (``_short_uris``, ``_relative_uris``,
    ``_directive_lists``), which then look at these few tokens only."""
    found: list[int] = []
    prev: CTok | None = None  # the last token that is no comment
    for k, tok in enumerate(toks):
        kind = tok.kind
        if kind == "str" and names_uri(prev):
            found.append(k)
        if kind != "comment":
            prev = tok
    return found


def _short_uris(toks: list[CTok], uris: list[int]) -> list[CTok]:
    """Package and relative URIs of ``import``/``export``/``part`` directives (``uris``: their indices) in their
    short form (``import ':provider'``, ``import '../a/b'``)."""
    out = toks  # copied at the first change only
    for k in uris:
        short = short_uri(toks[k].text)
        if short is not None:
            if out is toks:
                out = list(toks)
            out[k] = _ctok("str", short)
    return out


def _relative_uris(toks: list[CTok], uris: list[int]) -> list[CTok]:
    """Rule 16: a short package URI after another of the same package is written relative to it when that is
    shorter (``':p/a/b'``, ``':p/a/c'`` → ``':p/a/b'``, ``':./c'``); ``relative_package_uris`` reads it back.
    ``uris``: the indices of the directives' URIs."""
    out = toks  # copied at the first change only (most documents have none)
    prev: tuple[str, str] | None = None
    for k in uris:
        text = toks[k].text
        here = package_path(text)
        if here is not None:
            rel = relative_package_uri(text, prev)
            if rel != text:
                if out is toks:
                    out = list(toks)
                out[k] = _ctok("str", rel)
            prev = here
    return out


def _directive_lists(toks: list[CTok], uris: list[int]) -> list[CTok]:
    """``import 'a';import 'b';`` → ``import 'a','b';`` (the decoder's ``directive_list`` splits it again): only
    when the first directive is its keyword and URI alone, and the next has the same keyword. ``uris``: the
    indices of the directives' URIs (the ``;`` joined follows one)."""
    n = len(toks)
    joined = [
        u + 1
        for u in uris
        if u >= 1
        and u + 3 < n
        and toks[u - 1].kind == "ident"
        and toks[u - 1].text in URI_KEYWORDS
        and toks[u + 1].kind == "op"
        and toks[u + 1].text == ";"
        and toks[u + 2].kind == "ident"
        and toks[u + 2].text == toks[u - 1].text
        and toks[u + 3].kind == "str"
    ]
    if not joined:
        return toks
    out: list[CTok] = []
    k = 0
    for semicolon in joined:  # the ``;`` and the keyword after it become one ``,``
        out.extend(toks[k:semicolon])
        out.append(_ctok("op", ","))
        k = semicolon + 2
    out.extend(toks[k:])
    return out


def encode_unit(
    unit: ParsedUnit,
    *,
    keep_comments: bool = False,
    trailing_commas: bool = False,
    dictionary: bool = True,
    short_uris: bool = True,
    relative_uris: bool = True,
    directive_lists: bool = True,
) -> str:
    """A parsed Dart unit → COON body (no header, not verified: ``encode`` verifies).

    Unless ``trailing_commas``, the trailing commas Dart ignores are dropped (``scan.insignificant_commas`` over
    tree-sitter's leaves; where those leaves misread the source, ``encode`` keeps every one). ``dictionary``,
    ``short_uris``, ``relative_uris`` and ``directive_lists`` off give the document without those savings (what
    each is worth: the tests measure it)."""
    toks = _merge_closers(_to_ctoks(_apply_macros(_items(unit, keep_comments, trailing_commas))))
    uris = _directive_uris(toks)  # rewritten in place by the first two: the indices hold for the third
    if short_uris:
        toks = _short_uris(toks, uris)
    if relative_uris:
        toks = _relative_uris(toks, uris)
    if directive_lists:
        toks = _directive_lists(toks, uris)
    return _join(_alias(toks) if dictionary else toks)
