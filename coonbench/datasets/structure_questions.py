"""The structure-awareness questions' generator: does a model know COON's own conventions (issue 4, item 3)?

Every question is generated from the dialect's tables as ``coonbench.formats.coon`` exports them (``TABLES``,
``macro_table()``, ``prefix_meanings()``) and from its codec and validator — nothing is typed by hand:

- ``abbrev_to_full`` / ``full_to_abbrev``: every entry of the widget, type and label tables, both ways (label
  entries whose word IS the label, e.g. ``icon``, are left out: asking for them tests nothing), and every macro
  (``#b`` → its Dart, as multiple choice among all macros' Dart, since free-form code cannot be compared exactly).
- ``prefix_meaning``: each prefix form of the table (multiple choice among the table's own meanings), and concrete
  readings decoded by the codec: ``@N`` → ``EdgeInsets.all(N)``, ``label:.x`` → the label's enum type, an escaped
  abbreviation (`` `S(…)``) → the identifier itself, ``#`name`` → a Dart symbol literal.
- ``syntax_validity`` (YES/NO): COON encodings of small corpus samples (whole ``simple`` samples, and the widget
  expression a ``build`` method returns in the other bands) as valid examples, and one deliberately corrupted
  copy of each. The label is decided by OUR validator: a valid example is kept only if it validates, and a
  corruption only if the validator rejects it with the error its kind names (``CORRUPTIONS``); otherwise the
  next candidate position, then the next kind, is tried. So YES and NO are balanced one to one.

Ids are stable (``structure-<question_type>-<key>``, plus ``-<condition>`` on the Sample); the order and every
random choice are seeded, so generation is deterministic. The task does not run this: it reads what
``python -m coonbench.datasets.structure --write`` wrote with it (``data/structure/``; a test regenerates the file
and compares bytes), so a build costs only the questions it renders, and the validator's CPU-budgeted repair search
cannot make the questions one machine asks differ from another's.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from coonbench.formats import FormatError, get_format, language_of
from coonbench.formats.coon.lexer import CTok, lex
from coonbench.formats.coon import HEADER_PREFIX, TABLES, VERSION, macro_table, prefix_meanings
from coonbench.tasks.samples import choose

SEED = 20261122
QUESTION_TYPES: tuple[str, ...] = ("abbrev_to_full", "full_to_abbrev", "prefix_meaning", "syntax_validity")

# --- question texts --------------------------------------------------------------------------------------------

RULE_NAME = "Answer with the Dart name exactly (names are case-sensitive)."
RULE_ABBREV = "Answer with the COON abbreviation exactly as written in COON (letters are case-sensitive)."
RULE_MACRO = "Answer with the COON macro exactly as written in COON, including its leading #."
RULE_CHOICE = "Answer with the letter of the correct option only."
RULE_DART = "Answer with the Dart code exactly, with no spaces."
RULE_BOOLEAN = "Answer YES or NO."

Q_WIDGET_TO_FULL = (
    "In COON, the abbreviation {abbr} is written in call position, directly before `(` or `.` (as in {example})."
    " Which Flutter/Dart class does it stand for?"
)
Q_TYPE_TO_FULL = "In COON, the type abbreviation {abbr} (used anywhere a type name stands) stands for which Dart type?"
Q_LABEL_TO_FULL = (
    "In COON, the named-argument label word {abbr} (as in {example} inside an argument list) stands for which Dart"
    " named-argument label?"
)
Q_WIDGET_TO_ABBREV = "How does COON abbreviate the Flutter class {full} in call position (as in {example})?"
Q_TYPE_TO_ABBREV = "How does COON abbreviate the Dart type name {full}?"
Q_LABEL_TO_ABBREV = "In COON, which label word stands for the Dart named argument {full} (as in {example})?"
Q_MACRO_TO_FULL = "In COON, what does the macro {macro} stand for?\n\n{options}"
Q_MACRO_TO_ABBREV = "Which COON macro stands for this Dart code?\n\n```dart\n{dart}\n```"
Q_PREFIX_CHOICE = "In COON, what does the form {form} mean?\n\n{options}"
Q_EDGE = "In COON, what Dart expression does {coon} stand for?"
Q_ENUM = (
    "In COON, inside an argument list, {coon} is written, where `.x` stands for a member name. Which Dart type does"
    " the leading `.` imply for this label?"
)
Q_ESCAPE = "In COON, {plain} calls {full}. Which Dart class or function does {escaped} call?"
Q_HASH = "In COON, {macro} is a macro. What Dart code does {literal} stand for?"
Q_VALIDITY = (
    "Is the following text valid COON (it follows COON's rules and decodes to syntactically valid Dart)?"
    "\n\n```coon\n{code}\n```"
)


def code(text: str) -> str:
    """A Markdown code span that survives backticks inside ``text``."""
    ticks = max((len(m) for m in re.findall(r"`+", text)), default=0) + 1
    fence = "`" * ticks
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def choices(options: Sequence[str]) -> str:
    """Lettered options, one a line."""
    return "\n".join(f"{chr(ord('A') + i)}) {text}" for i, text in enumerate(options))


# --- questions -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StructureQuestion:
    """One generated question (format-independent: the primer condition is added when it becomes a Sample)."""

    id: str
    question_type: str
    complexity: str
    question: str
    rules: str
    answer: str
    answer_type: str
    normalize_options: dict[str, Any] = field(default_factory=dict)
    source: str = ""  # what it was derived from: a table entry, or a corpus sample id


CASE = {"case_sensitive": True}


def _rng(seed: int, key: str) -> random.Random:
    """A generator per question key, so one question's choices never depend on another's."""
    return random.Random(f"{seed}:{key}")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")


_SIGILS = {"@": "at", "#": "hash", "`": "tick", ".": "dot", "\\": "backslash"}


def _form_key(form: str) -> str:
    """An id key for a COON form such as ``#B`` or ``@N``: sigils named, and an upper-case name marked, so that
    keys stay distinct even where ids are compared case-blind (``#b`` vs ``#B``)."""
    words = [_SIGILS.get(ch, ch) for ch in form if ch in _SIGILS]
    name = _slug(form)
    if name and not name.islower():
        name += "-upper"
    return "-".join(words + ([name] if name else []))


def _label_example(word: str) -> str:
    """How a label word is used: colon-free before a word (``c T('a')``)."""
    return code(f"{word} x")


def _non_identity_labels() -> dict[str, str]:
    return {full: word for full, word in TABLES["labels"].items() if full != word}


def abbreviation_questions(seed: int = SEED) -> list[StructureQuestion]:
    """Both directions for every widget, type and (non-identity) label entry, and every macro."""
    out: list[StructureQuestion] = []
    tables: list[tuple[str, dict[str, str]]] = [
        ("widgets", dict(TABLES["widgets"])),
        ("types", dict(TABLES["types"])),
        ("labels", _non_identity_labels()),
    ]
    for table, entries in tables:
        for full, abbr in entries.items():
            if table == "widgets":
                to_full = Q_WIDGET_TO_FULL.format(abbr=code(abbr), example=code(f"{abbr}(…)"))
                to_abbrev = Q_WIDGET_TO_ABBREV.format(full=code(full), example=code(f"{full}(…)"))
                full_type = "widget-name"
            elif table == "types":
                to_full = Q_TYPE_TO_FULL.format(abbr=code(abbr))
                to_abbrev = Q_TYPE_TO_ABBREV.format(full=code(full))
                full_type = "string"
            else:
                to_full = Q_LABEL_TO_FULL.format(abbr=code(abbr), example=_label_example(abbr))
                to_abbrev = Q_LABEL_TO_ABBREV.format(full=code(full), example=code(f"{full}: x"))
                full_type = "string"
            key = f"{table}-{_slug(full)}"
            out.append(
                StructureQuestion(
                    f"structure-abbrev_to_full-{key}", "abbrev_to_full", table, to_full, RULE_NAME, full,
                    full_type, dict(CASE), f"{table}:{full}",
                )
            )
            out.append(
                StructureQuestion(
                    f"structure-full_to_abbrev-{key}", "full_to_abbrev", table, to_abbrev, RULE_ABBREV, abbr,
                    "string", dict(CASE), f"{table}:{full}",
                )
            )
    macros = macro_table()
    for macro, dart in macros.items():
        key = f"macros-{_form_key(macro)}"
        options = sorted(macros.values())
        _rng(seed, key).shuffle(options)
        letter = chr(ord("A") + options.index(dart))
        out.append(
            StructureQuestion(
                f"structure-abbrev_to_full-{key}", "abbrev_to_full", "macros",
                Q_MACRO_TO_FULL.format(macro=code(macro), options=choices([code(o) for o in options])),
                RULE_CHOICE, letter, "string", {}, f"macros:{macro}",
            )
        )
        out.append(
            StructureQuestion(
                f"structure-full_to_abbrev-{key}", "full_to_abbrev", "macros", Q_MACRO_TO_ABBREV.format(dart=dart),
                RULE_MACRO, macro, "string", dict(CASE), f"macros:{macro}",
            )
        )
    return out


def _decode(text: str) -> str:
    return get_format("coon").decode(text).strip()


def prefix_questions(seed: int = SEED) -> list[StructureQuestion]:
    """Prefix forms (multiple choice over the table's meanings) and concrete readings decoded by the codec."""
    out: list[StructureQuestion] = []
    meanings = prefix_meanings()
    for form, meaning in meanings.items():
        key = f"table-{_form_key(form)}"
        options = sorted(meanings.values())
        _rng(seed, key).shuffle(options)
        out.append(
            StructureQuestion(
                f"structure-prefix_meaning-{key}", "prefix_meaning", "prefix_table",
                Q_PREFIX_CHOICE.format(form=code(form), options=choices(options)), RULE_CHOICE,
                chr(ord("A") + options.index(meaning)), "string", {}, f"prefixes:{form}",
            )
        )
    rng = _rng(seed, "edge_insets")
    for n in sorted(rng.sample(range(1, 49), 6)):
        coon = f"@{n}"
        out.append(
            StructureQuestion(
                f"structure-prefix_meaning-edge_insets-{n}", "prefix_meaning", "edge_insets",
                Q_EDGE.format(coon=code(coon)), RULE_DART, _decode(coon), "string", dict(CASE), f"prefixes:@N:{n}",
            )
        )
    labels = TABLES["labels"]
    for label, enum in TABLES["enum_labels"].items():
        word = labels.get(label, label)
        out.append(
            StructureQuestion(
                f"structure-prefix_meaning-enum_shorthand-{_slug(label)}", "prefix_meaning", "enum_shorthand",
                Q_ENUM.format(coon=code(f"{word}:.x")), RULE_NAME, enum, "string", dict(CASE),
                f"enum_labels:{label}",
            )
        )
    widgets = sorted(TABLES["widgets"].items())
    for full, abbr in sorted(_rng(seed, "escape").sample(widgets, 8)):
        escaped = f"`{abbr}()"
        called = _decode(escaped).split("(", 1)[0]
        out.append(
            StructureQuestion(
                f"structure-prefix_meaning-escape-{_slug(full)}", "prefix_meaning", "escape",
                Q_ESCAPE.format(plain=code(f"{abbr}()"), full=code(full), escaped=code(escaped)), RULE_NAME,
                called, "string", dict(CASE), f"prefixes:`name:{abbr}",
            )
        )
    for macro in sorted(_rng(seed, "hash_literal").sample(sorted(TABLES["macros"]), 4)):
        literal = f"#`{macro}"
        out.append(
            StructureQuestion(
                f"structure-prefix_meaning-hash_literal-{_form_key(macro)}", "prefix_meaning", "hash_literal",
                Q_HASH.format(macro=code(f"#{macro}"), literal=code(literal)), RULE_DART, _decode(literal),
                "string", dict(CASE), f"prefixes:#`:{macro}",
            )
        )
    return out


# --- syntax validity -------------------------------------------------------------------------------------------

MIN_SNIPPET_CHARS = 40
MAX_SNIPPET_CHARS = 400
MAX_FRAGMENT_SNIPPETS = 24


@dataclass(frozen=True)
class Snippet:
    """A valid COON text to show (whole simple sample, or the widget expression a build method returns)."""

    key: str
    source: str  # corpus sample id (and which return statement)
    coon: str


def _corpus() -> list[tuple[str, str, str]]:
    """(id, band, Dart source) of every corpus sample, in corpus order."""
    from coonbench.datasets.corpus import load_corpus

    return [(s.id, s.band, s.source) for s in load_corpus()]


@lru_cache(maxsize=4)
def snippets(seed: int = SEED) -> tuple[Snippet, ...]:
    """Valid COON examples: every ``simple`` sample whole, plus a seeded pick of short build-return fragments."""
    fmt = get_format("coon")
    language = language_of(fmt)
    whole: list[Snippet] = []
    fragments: list[Snippet] = []
    for sample_id, band, source in _corpus():
        stem = _slug(sample_id)
        if band == "simple":
            whole.append(Snippet(stem, sample_id, fmt.encode(source)))
            continue
        seen: set[str] = set()
        for k, expr in enumerate(language.fragments(source)):
            try:
                coon = fmt.encode(expr)
            except FormatError:
                continue
            if coon in seen or not MIN_SNIPPET_CHARS <= len(coon) <= MAX_SNIPPET_CHARS:
                continue
            seen.add(coon)
            fragments.append(Snippet(f"{stem}-r{k}", f"{sample_id}#return{k}", coon))
    picked = _rng(seed, "fragments").sample(fragments, min(MAX_FRAGMENT_SNIPPETS, len(fragments)))
    chosen = whole + sorted(picked, key=lambda s: s.key)
    return tuple(s for s in chosen if fmt.validate(s.coon) == [])


def _offsets(text: str) -> list[int]:
    """Offset of the start of each line (1-based line n starts at offsets[n-1])."""
    return [0] + [m.end() for m in re.finditer("\n", text)]


def _tokens(text: str) -> list[tuple[int, CTok]]:
    """(offset, token) for every COON token of a valid text (no header)."""
    starts = _offsets(text)
    return [(starts[t.line - 1] + t.column - 1, t) for t in lex(text)]


def _sigil_len(tok: CTok) -> int:
    return 1 if tok.kind in ("esc", "macro", "edge", "ref") else 0


Candidates = Callable[[str, random.Random], Iterable[str]]


def _drop_closer(text: str, rng: random.Random) -> Iterable[str]:
    spots = [o for o, t in _tokens(text) if t.kind == "op" and t.text in ")]}"]
    rng.shuffle(spots)
    return (text[:o] + text[o + 1 :] for o in spots)


def _swap_closer(text: str, rng: random.Random) -> Iterable[str]:
    spots = [(o, t.text) for o, t in _tokens(text) if t.kind == "op" and t.text in ")]}"]
    rng.shuffle(spots)
    return (text[:o] + rng.choice([c for c in ")]}" if c != ch]) + text[o + 1 :] for o, ch in spots)


def _unterminate_string(text: str, rng: random.Random) -> Iterable[str]:
    spots = [o + len(t.text) - 1 for o, t in _tokens(text) if t.kind == "str"]
    rng.shuffle(spots)
    return (text[:o] + text[o + 1 :] for o in spots)


def _unknown_macro(text: str, rng: random.Random) -> Iterable[str]:
    macros = TABLES["macros"]
    spots = [(o, t) for o, t in _tokens(text) if t.kind in ("ident", "macro") and t.text not in macros]
    rng.shuffle(spots)
    for o, t in spots:  # `#name` with a name that is no macro (an identifier of the text, or a renamed macro)
        start = o + _sigil_len(t)
        yield text[:o] + "#" + text[start:]


def _bad_prefix(text: str, rng: random.Random) -> Iterable[str]:
    spots = [(o, t) for o, t in _tokens(text) if t.kind in ("op", "str") and t.text[0] in "([{'\""]
    rng.shuffle(spots)
    for o, _ in spots:  # a sigil followed by something it cannot prefix
        yield text[:o] + rng.choice("@`") + text[o:]


def _bad_enum_shorthand(text: str, rng: random.Random) -> Iterable[str]:
    toks = _tokens(text)
    label_words = TABLES["labels"]
    plain = sorted(word for full, word in label_words.items() if full not in TABLES["enum_labels"])
    spots = [
        toks[i][0]
        for i in range(len(toks) - 2)
        if toks[i][1].kind == "ident" and toks[i + 1][1].is_op(":") and toks[i + 2][1].is_op(".")
    ]
    rng.shuffle(spots)
    for o in spots:  # the label of ``label:.member`` replaced by one that has no enum type
        end = o + len(next(t for off, t in toks if off == o).text)
        yield text[:o] + rng.choice(plain) + text[end:]


def _drop_comma(text: str, rng: random.Random) -> Iterable[str]:
    spots = [o for o, t in _tokens(text) if t.is_op(",")]
    rng.shuffle(spots)
    return (text[:o] + " " + text[o + 1 :] for o in spots)


def _bad_header(text: str, rng: random.Random) -> Iterable[str]:
    yield f"{HEADER_PREFIX} {VERSION + 1 + rng.randrange(3)}\n{text}"


def _truncate(text: str, rng: random.Random) -> Iterable[str]:
    cuts = [o for o, _ in _tokens(text) if len(text) * 0.3 <= o <= len(text) * 0.8]
    rng.shuffle(cuts)
    return (text[:o].rstrip() for o in cuts)


# kind → (how to corrupt, what the validator's error message must say for the label to be honest)
CORRUPTIONS: dict[str, tuple[Candidates, re.Pattern[str]]] = {
    "unclosed_bracket": (_drop_closer, re.compile(r"unclosed|unbalanced|closes")),
    "mismatched_bracket": (_swap_closer, re.compile(r"closes")),
    "unterminated_string": (_unterminate_string, re.compile(r"unterminated string")),
    "unknown_macro": (_unknown_macro, re.compile(r"unknown abbreviation '#")),
    "bad_prefix": (_bad_prefix, re.compile(r"bad prefix")),
    "bad_enum_shorthand": (_bad_enum_shorthand, re.compile(r"implies an enum type")),
    "missing_separator": (_drop_comma, re.compile(r"missing separator")),
    "bad_header": (_bad_header, re.compile(r"unsupported COON header")),
    "truncated": (_truncate, re.compile(r".")),
}
MAX_TRIES = 40  # candidate positions tried per kind


def corrupt(text: str, kind: str, rng: random.Random) -> str | None:
    """A copy of ``text`` corrupted by ``kind`` that the validator rejects with that kind's error, or None."""
    make, expected = CORRUPTIONS[kind]
    fmt = get_format("coon")
    for n, candidate in enumerate(make(text, rng)):
        if n >= MAX_TRIES:
            break
        errors = fmt.validate(candidate)
        if errors and expected.search(errors[0].message):
            return candidate
    return None


def validity_questions(seed: int = SEED) -> list[StructureQuestion]:
    """One valid and one corrupted copy of each snippet; corruption kinds assigned round-robin."""
    kinds = list(CORRUPTIONS)
    out: list[StructureQuestion] = []
    for i, snip in enumerate(snippets(seed)):
        body = Q_VALIDITY.format(code=snip.coon)
        out.append(
            StructureQuestion(
                f"structure-syntax_validity-{snip.key}-valid", "syntax_validity", "valid", body, RULE_BOOLEAN, "YES",
                "boolean", {}, snip.source,
            )
        )
        for kind in kinds[i % len(kinds) :] + kinds[: i % len(kinds)]:
            bad = corrupt(snip.coon, kind, _rng(seed, f"{snip.key}:{kind}"))
            if bad is not None:
                out.append(
                    StructureQuestion(
                        f"structure-syntax_validity-{snip.key}-{kind}", "syntax_validity", kind,
                        Q_VALIDITY.format(code=bad), RULE_BOOLEAN, "NO", "boolean", {}, snip.source,
                    )
                )
                break
    return out


def question_types(kinds: str | Sequence[str] | None = None) -> list[str]:
    """The question types the task argument ``kinds`` selects (default all); TaskArgumentError for an unknown one."""
    return choose("kinds", kinds, QUESTION_TYPES, "structure question type") or list(QUESTION_TYPES)


def build_questions(kinds: str | Sequence[str] | None = None, seed: int = SEED) -> list[StructureQuestion]:
    """Every question of the selected question types (default all), in a fixed order: abbreviations (both
    directions, table by table), then prefixes, then syntax validity."""
    wanted = question_types(kinds)
    questions: list[StructureQuestion] = []
    if "abbrev_to_full" in wanted or "full_to_abbrev" in wanted:
        questions += [q for q in abbreviation_questions(seed) if q.question_type in wanted]
    if "prefix_meaning" in wanted:
        questions += prefix_questions(seed)
    if "syntax_validity" in wanted:
        questions += validity_questions(seed)
    return questions
