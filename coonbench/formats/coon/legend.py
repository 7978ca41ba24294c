"""The legend: a primer for ONE COON document that explains only the table entries and rules the document uses.

The short and full primers (``format.primer``) describe the whole dialect: 607 and 1,899 o200k tokens, more than
a typical file saves. A legend lists what one document relies on, read from the decoder's own record of what it
expanded (``decode_texts``: every Dart token with the COON token it came from), in order of first use; every
entry comes from ``tables``, and only the one-line wording of each rule is written here.

An entry that saves fewer tokens in the document than its line costs in the legend is not worth using there:
``economise`` writes those uses out in Dart (still COON: the decoder reads them the same) and keeps the result only
when it decodes to the very same Dart tokens. ``document_and_legend(source)`` is what a task shows.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from coonbench.dart.minify import join_tokens
from coonbench.formats.coon.decoder import decode_texts, resolve_aliases, strip_header
from coonbench.formats.coon.encoder import _join as join_coon
from coonbench.formats.coon.lexer import CTok, lex
from coonbench.formats.coon.tables import ALIAS_WORDS, CALL_ENUMS, ENUM_LABELS, IMPLIED
from coonbench.formats.coon.verifier import encode
from coonbench.formats.base import FormatError
from coonbench.formats.coon.words import (
    CLASS_MACROS,
    IMPLIED_TOKENS,
    REQUIRED_THIS,
    URI_KEYWORDS,
    is_relative_package_uri,
    macro_text,
    significant,
)
from coonbench.tokens import DEFAULT_ENCODING, count_tokens

HEAD: Final = "COON key:"
# The wording of each rule a document may rely on (the entries themselves come from the tables).
RULES: Final = {
    "colonless": "labels drop ':' before a word or number",
    "bare_label": "`f(size 20)` = `f(size: 20)`",
    "edge": "@N = EdgeInsets.all(N)",
    "cedge": "@@N = const EdgeInsets.all(N)",
    "required": "^x = required this.x",
    "escape": "`x = the name x as written",
    "symbol": "#`x = Dart symbol #x",
    "alias": "\\x defines alias N (1, 2, … in order) as the word or string x; \\N repeats it",
    "uri": "import ':a/b' = import 'package:a/b.dart'; ':a' = 'package:a/a.dart'; '../c' = '../c.dart'",
    "reluri": "after ':p/d/x', ':./c' = ':p/d/c', ':../c' = ':p/c', ':/e/c' = ':p/e/c' (relative to the last package URI)",
    "list": "import 'a','b'; = import 'a';import 'b'; (also export, part)",
    "of": "x# = x.of(context)",
    "class": "{Class} = the last declared class",
}
ALIAS_INDEX: Final = {word: k for k, word in enumerate(ALIAS_WORDS)}
# Rules no rewriting can do without (a name that must not be expanded, a Dart symbol).
KEPT_RULES: Final = frozenset(("escape", "symbol", "class"))
Entry = tuple[str, str]  # (kind, key): ("name", "T"), ("label", "c"), ("enum", "A"), ("macro", "SL"), ("rule", "edge")


@dataclass
class Usage:
    """What one COON document uses, each kind of entry in order of first use."""

    names: dict[str, str] = field(default_factory=dict)  # widget/type word → Dart name
    labels: dict[str, str] = field(default_factory=dict)  # label word → label (abbreviated ones only)
    enums: dict[str, str] = field(default_factory=dict)  # label word → enum type its ``.member`` implies
    implied: dict[str, str] = field(default_factory=dict)  # label word → constructor its ``(`` implies
    call_enums: dict[str, str] = field(default_factory=dict)  # call → enum type of its first ``.member``
    macros: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)  # keys of RULES
    alias_words: int = 0  # how many of ALIAS_WORDS the legend lists: up to the last one the document uses

    def entries(self) -> list[Entry]:
        """Every entry used, as ``(kind, key)``."""
        return (
            [("name", k) for k in self.names] + [("label", k) for k in self.labels]
            + [("enum", k) for k in self.enums] + [("implied", k) for k in self.implied]
            + [("call", k) for k in self.call_enums] + [("macro", k) for k in self.macros]
            + [("rule", k) for k in self.rules]
        )


@dataclass(frozen=True)
class Reading:
    """One COON token as written, the lexeme it stands for (itself but for ``\\N``) and what the decoder made of it."""

    tok: CTok  # as written (``def`` and ``ref`` tokens included)
    lexeme: CTok  # the token the rules read (an alias resolved)
    parts: tuple[str, ...]  # the Dart tokens it became (a label's own: word, ':', enum type or constructor)
    colon: bool  # a label followed in the COON by its own ':'


def readings(text: str, *, aliases: bool = True) -> list[Reading]:
    """Every COON token of ``text`` (aliases as written, or resolved when ``aliases`` is False) with the Dart tokens
    the decoder wrote for it. FormatError where ``decode`` would raise one."""
    texts, origins = decode_texts(text)
    made: dict[tuple[int, int], list[str]] = {}
    for part, origin in zip(texts, origins):
        made.setdefault((origin.line, origin.column), []).append(part)
    body, offset = strip_header(text)
    toks = [CTok(t.kind, t.text, t.line + offset, t.column, t.spaced) for t in lex(body)]
    resolved = resolve_aliases(toks)
    nexts = significant(resolved)[1]
    at = {(t.line, t.column): (t, n is not None and n.is_op(":")) for t, n in zip(resolved, nexts)}
    out = []
    for tok in toks if aliases else resolved:
        pos = (tok.line, tok.column)
        lexeme, colon = at.get(pos, (tok, False))
        out.append(Reading(tok, lexeme, tuple(made.get(pos, ())), colon))
    return out


def _label_entries(r: Reading) -> list[Entry]:
    """The entries a label token relies on (its word, its enum type or constructor, the colon rule)."""
    label, word = r.parts[0], r.lexeme.text
    out: list[Entry] = []
    if label != word:
        out.append(("label", word))
    if not r.colon:
        out.append(("rule", "colonless" if label != word else "bare_label"))
    rest = [p for p in r.parts[2:] if not p.startswith(("//", "/*"))]
    if rest and rest[-1] == ENUM_LABELS.get(label):
        out.append(("enum", word))
    elif label in IMPLIED and tuple(rest[-len(IMPLIED_TOKENS[label]):]) == IMPLIED_TOKENS[label]:
        out.append(("implied", word))
    return out


def _alias_word(r: Reading) -> bool:
    """Whether the token is an alias word standing for its alias's lexeme (``q`` after ``\\_items``)."""
    return r.tok.kind == "ident" and r.tok.text in ALIAS_INDEX and r.lexeme.text != r.tok.text


def entries_of(r: Reading) -> list[Entry]:
    """The table entries and rules the decoder applied to one token."""
    out: list[Entry] = [("rule", "alias")] if r.tok.kind in ("def", "ref") or _alias_word(r) else []
    tok, parts, kind = r.lexeme, r.parts, r.lexeme.kind
    if kind in ("ident", "esc") and len(parts) >= 2 and parts[1] == ":":
        return out + _label_entries(r)
    if kind == "esc":
        out.append(("rule", "escape"))
    if kind in ("ident", "esc") and len(parts) == 1 and parts[0] != tok.text:
        out.append(("name", tok.text))
    elif kind == "macro":
        out.append(("macro", tok.text))
        if tok.text in CLASS_MACROS:
            out.append(("rule", "class"))
    elif kind in ("edge", "cedge"):
        out.append(("rule", kind))
    elif kind == "hash":
        out.append(("rule", "symbol"))
    elif kind == "ofc":
        out.append(("rule", "of"))
    elif kind == "op" and parts == REQUIRED_THIS:
        out.append(("rule", "required"))
    elif kind == "op" and len(parts) == 2 and parts[0] == ";" and parts[1] in URI_KEYWORDS:
        out.append(("rule", "list"))
    elif kind == "op" and len(parts) == 2 and parts[0] in CALL_ENUMS.values():
        out.append(("call", next(c for c, e in CALL_ENUMS.items() if e == parts[0])))
    elif kind == "str" and parts and parts[0] != tok.text:
        out.append(("rule", "uri"))
        if is_relative_package_uri(tok.text):
            out.append(("rule", "reluri"))
    return out


def usage(text: str) -> Usage:
    """What the COON document ``text`` uses (FormatError where ``decode`` would raise one)."""
    found = Usage()
    for r in readings(text):
        if _alias_word(r):
            found.alias_words = max(found.alias_words, ALIAS_INDEX[r.tok.text] + 1)
        for kind, key in entries_of(r):
            if kind == "name":
                found.names.setdefault(key, r.parts[0])
            elif kind == "label":
                found.labels.setdefault(key, r.parts[0])
            elif kind == "enum":
                found.enums.setdefault(key, ENUM_LABELS[r.parts[0]])
            elif kind == "implied":
                found.implied.setdefault(key, IMPLIED[r.parts[0]])
            elif kind == "call":
                found.call_enums.setdefault(key, CALL_ENUMS[key])
            elif kind == "macro" and key not in found.macros:
                found.macros.append(key)
            elif kind == "rule" and key not in found.rules:
                found.rules.append(key)
    return found


# --- rendering ----------------------------------------------------------------------------------------------------


def _pairs(pairs: Iterable[tuple[str, str]]) -> str:
    return " ".join(f"{a}={b}" for a, b in pairs)


def render(found: Usage) -> str:
    """The legend text of a ``Usage``: one line per kind of entry, rules last. Empty when nothing is used."""
    lines: list[str] = []
    if found.names:
        lines.append(_pairs(found.names.items()))
    if found.labels:
        lines.append("labels: " + _pairs((w, f"{full}:") for w, full in found.labels.items()))
    if found.enums:
        lines.append(_pairs((f"{w}.x", f"{w}:{e}.x") for w, e in found.enums.items()))
    if found.implied:
        lines.append(_pairs((f"{w}(", f"{w}:{c}(") for w, c in found.implied.items()))
    if found.call_enums:
        lines.append(_pairs((f"{c}(.x", f"{c}({e}.x") for c, e in found.call_enums.items()))
    lines += [f"#{name}={macro_text(name)}" for name in found.macros]
    lines += [_rule_line(key, found) for key in found.rules]
    return "\n".join([HEAD, *lines]) if lines else ""


def _rule_line(key: str, found: Usage) -> str:
    """A rule's line; the alias rule's lists the alias words the document uses (the N-th word is alias N)."""
    if key == "alias" and found.alias_words:
        return f"{RULES[key]}; so does the N-th word of: {' '.join(ALIAS_WORDS[: found.alias_words])}"
    return RULES[key]


def entry_cost(found: Usage, entry: Entry, tokenizer: str = DEFAULT_ENCODING) -> int:
    """Tokens the legend spends on ``entry`` (the legend with it minus the legend without it)."""
    return count_tokens(render(found), tokenizer) - count_tokens(render(_without(found, {entry})), tokenizer)


def _without(found: Usage, drop: set[Entry]) -> Usage:
    def keep(kind: str, key: str) -> bool:
        return (kind, key) not in drop

    return Usage(
        names={k: v for k, v in found.names.items() if keep("name", k)},
        labels={k: v for k, v in found.labels.items() if keep("label", k)},
        enums={k: v for k, v in found.enums.items() if keep("enum", k)},
        implied={k: v for k, v in found.implied.items() if keep("implied", k)},
        call_enums={k: v for k, v in found.call_enums.items() if keep("call", k)},
        macros=[k for k in found.macros if keep("macro", k)],
        rules=[k for k in found.rules if keep("rule", k)],
        alias_words=found.alias_words if keep("rule", "alias") else 0,
    )


# --- economy: write out what does not pay for its line ------------------------------------------------------------


def _written(parts: Iterable[str]) -> list[CTok]:
    """Dart tokens as COON tokens (Dart names, strings and operators read as themselves)."""
    return lex(join_tokens(list(parts)))


def _label_tokens(r: Reading, drop: set[Entry]) -> tuple[list[CTok], list[CTok]]:
    """A label token rewritten without the dropped entries: (its tokens, the tokens to write before its value's
    ``.`` or ``(``: the enum type or constructor that the dropped entry implied)."""
    label, word = r.parts[0], r.lexeme.text
    used = set(_label_entries(r))
    full = ("label", word) in drop and r.tok.kind != "ref"
    head = CTok("ident", label, 0, 0) if full else r.tok
    rule = ("rule", "colonless" if (label if full else word) != label else "bare_label")
    toks = [head, CTok("op", ":", 0, 0)] if not r.colon and rule in drop else [head]
    if ("enum", word) in used and (full or ("enum", word) in drop):
        return toks, [CTok("ident", ENUM_LABELS[label], 0, 0)]
    if ("implied", word) in used and (full or ("implied", word) in drop):
        return toks, _written(IMPLIED_TOKENS[label])
    return toks, []


def rewrite(text: str, drop: set[Entry]) -> str:
    """``text`` with every use of the ``drop`` entries written out in Dart (not verified: ``economise`` is)."""
    out: list[CTok] = []
    pending: list[CTok] = []
    for r in readings(text, aliases=("rule", "alias") not in drop):
        tok = r.tok
        if pending and tok.kind == "op" and tok.text in (".", "("):
            out += pending
            pending = []
        used = entries_of(r)
        if not drop.intersection(used):
            out.append(tok)
        elif r.parts[1:2] == (":",):
            toks, pending = _label_tokens(r, drop)
            out += toks
        elif tok.kind == "str":
            out.append(CTok("str", r.parts[0], 0, 0))
        else:
            out += _written(r.parts)
    return join_coon(out)


def _saving_worth(found: Usage, text: str, tokens: int, entry: Entry, tokenizer: str) -> bool:
    """Whether using ``entry`` saves more document tokens than its legend line costs."""
    try:
        longer = count_tokens(rewrite(text, {entry}), tokenizer) - tokens
    except FormatError:
        return True
    return longer > entry_cost(found, entry, tokenizer)


def _verified(text: str, drop: set[Entry], want: list[str]) -> str:
    """``rewrite(text, drop)`` when it decodes to ``want``, else the entries one at a time, each verified."""
    try:
        out = rewrite(text, drop)
        if decode_texts(out)[0] == want:
            return out
    except FormatError:
        pass
    kept: set[Entry] = set()
    for entry in sorted(drop):
        try:
            if decode_texts(rewrite(text, kept | {entry}))[0] == want:
                kept.add(entry)
        except FormatError:
            continue
    return rewrite(text, kept) if kept else text


def _droppable(found: Usage) -> list[Entry]:
    return [e for e in found.entries() if not (e[0] == "rule" and e[1] in KEPT_RULES)]


def _cost(text: str, tokenizer: str) -> int:
    """Tokens of a document and its legend."""
    return count_tokens(text, tokenizer) + count_tokens(legend(text), tokenizer)


ROUNDS: Final = 4
"""Rounds of dropping (what pays changes once other entries are written out: ``child`` in full needs the rule for
colon-less plain labels)."""


def economise(text: str, tokenizer: str = DEFAULT_ENCODING) -> str:
    """``text`` without the entries that cost the legend more than they save in ``tokenizer`` (what pays differs
    between tokenizers: docs/coon.md, "COON per tokenizer"), decoding to the very same Dart."""
    want = decode_texts(text)[0]
    best = text
    for _ in range(ROUNDS):
        found = usage(best)
        tokens = count_tokens(best, tokenizer)
        drop = {e for e in _droppable(found) if not _saving_worth(found, best, tokens, e, tokenizer)}
        if not drop:
            break
        best = _verified(best, drop, want)
    bare = _verified(text, set(_droppable(usage(text))), want)  # the legend's head pays only for enough entries
    return min((best, bare, text), key=lambda t: _cost(t, tokenizer))


@lru_cache(maxsize=4096)
def legend(text: str) -> str:
    """The legend of one COON document: only the entries and rules it uses, generated from the tables."""
    return render(usage(text))


@lru_cache(maxsize=4096)
def document_and_legend(
    source: str, keep_comments: bool = False, thrifty: bool = True, tokenizer: str = DEFAULT_ENCODING
) -> tuple[str, str]:
    """Dart ``source`` → (its COON, economised for a legend in ``tokenizer`` unless ``thrifty`` is False; the
    legend). FormatError where ``encode`` refuses."""
    text = encode(source, keep_comments=keep_comments)
    if thrifty:
        text = economise(text, tokenizer)
    return text, legend(text)
