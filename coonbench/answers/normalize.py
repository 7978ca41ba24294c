"""Deterministic, type-aware answer normalisation shared by every exact-answer task.

Why: a model that answers ``**$1,234.50**`` or "The answer is 42." knows the answer; one that answers 43 does
not. We follow TOON's benchmark normaliser (``benchmarks/src/normalize.ts``) where it has a rule — integer,
number (``decimalPlaces``, tolerance, currency, trailing ``%`` divides by 100), boolean (yes/no/true/false/y/n/1/0),
date (ISO ``YYYY-MM-DD``), string (trim, wrapping quotes, code fences, case-insensitive unless ``caseSensitive``),
comma lists ordered/unordered — and add the answer types of the code tasks' languages (``Language.answer_types``:
Dart's ``widget-name``, where an abbreviation is accepted through a caller-supplied alias map) and lists whose items
are of such a type (``item_type``).

Decorations every answer type strips first: ``<think>`` blocks, a final ``Answer:`` line (the text after the last
such marker wins), code fences, inline backticks, ``**bold**``/``__bold__``, wrapping quotes, lead-ins such as
"The answer is", and one trailing period. Stricter than TOON where TOON would accept a wrong answer: thousands
separators must group by three (``12,15`` is not 1215) and an integer answer with a non-zero fraction is rejected.

``normalize`` returns ``None`` when text cannot be read as the type (the answer is then wrong); it never raises
on model text. ``answers_match`` normalises both sides the same way and explains the verdict.
"""

from __future__ import annotations

import calendar
import datetime as _dt
import re
from collections.abc import Mapping
from functools import lru_cache
from dataclasses import dataclass, field, fields
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from coonbench.languages import AnswerReader, list_languages

BUILTIN_TYPES: tuple[str, ...] = (
    "integer",
    "number",
    "boolean",
    "date",
    "string",
    "csv-list-ordered",
    "csv-list-unordered",
)
BUILTIN_SCALARS: tuple[str, ...] = ("integer", "number", "boolean", "date", "string")


@lru_cache(maxsize=1)
def language_types() -> dict[str, AnswerReader]:
    """Every registered language's own scalar answer types (``Language.answer_types``), name → reader; read once,
    when an answer is first read (not at import time)."""
    found: dict[str, AnswerReader] = {}
    for language in list_languages():
        found.update(language.answer_types())
    return found


def answer_types() -> tuple[str, ...]:
    """Every answer type: the built-in ones, then the languages' (``widget-name``)."""
    return (*BUILTIN_TYPES, *language_types())


def scalar_types() -> tuple[str, ...]:
    """The answer types a list's items may have (``item_type``)."""
    return (*BUILTIN_SCALARS, *language_types())


# TOON's option names (camelCase, as in questions.json's normalizationOptions) → ours.
_CAMEL_ALIASES = {
    "decimalPlaces": "decimal_places",
    "caseSensitive": "case_sensitive",
    "allowCurrency": "allow_currency",
    "allowPercent": "allow_percent",
    "itemType": "item_type",
}


@dataclass(frozen=True)
class NormalizeOptions:
    """How an answer is read. Accepts TOON's camelCase keys too (see ``coerce``)."""

    decimal_places: int | None = None  # round both sides half-up to this many places, then compare exactly
    tolerance: float = 1e-6  # absolute tolerance for numbers when decimal_places is None
    case_sensitive: bool = False
    allow_currency: bool = True
    allow_percent: bool = True  # "42%" reads as 0.42 (TOON's rule)
    aliases: Mapping[str, str] = field(default_factory=dict)  # a language's type (widget-name): short → full name
    item_type: str | None = None  # csv lists: normalise each item as this scalar type (e.g. "widget-name")
    context: str = ""  # the question: a widget name it mentions is not read as the answer from a sentence

    @classmethod
    def coerce(cls, options: NormalizeOptions | Mapping[str, Any] | None) -> NormalizeOptions:
        """Options from None, an instance, or a dict (snake_case or TOON camelCase keys; unknown keys rejected)."""
        if options is None:
            return _DEFAULT_OPTIONS
        if isinstance(options, NormalizeOptions):
            return options
        if not isinstance(options, Mapping):
            raise TypeError(f"normalize options must be a dict or NormalizeOptions, not {type(options).__name__}")
        known = {f.name for f in fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, value in options.items():
            name = _CAMEL_ALIASES.get(key, key)
            if name not in known:
                raise ValueError(f"unknown normalize option '{key}' (expected one of {', '.join(sorted(known))})")
            kwargs[name] = value
        if kwargs.get("item_type") is not None and kwargs["item_type"] not in scalar_types():
            raise ValueError(f"item_type must be one of {', '.join(scalar_types())}, not {kwargs['item_type']!r}")
        return cls(**kwargs)


_DEFAULT_OPTIONS = NormalizeOptions()


@dataclass(frozen=True)
class NormalizedAnswer:
    """A normalised answer: ``value`` is what is compared, ``text`` is how explanations show it."""

    value: Any
    text: str


# --- decoration stripping ---------------------------------------------------------------------------------
# Every pattern below runs on model text: no nested or adjacent optional quantifiers that can share characters,
# so each is linear in the reply (``benchmarks/normalize_speed.py`` measures it up to 1 MB).

MAX_EXAMINED_CHARS: int | None = 65_536
"""A reply longer than this is read from its last 64 Ki characters only (answers come last; bounds CPU per reply)."""
TRUNCATION_MARK = "… "

_THINK_TAG = re.compile(r"<(/?)think>", re.IGNORECASE)
# "Answer:" / "**Final answer:**" at the start of a line (a strong marker) …
_ANSWER_MARKER = re.compile(
    r"(?m)^[ \t]*(?:\*\*|__)?(?:final[ \t]+answer|answer)(?:\*\*|__)?[ \t]*[:：](?:[ \t]*(?:\*\*|__))?",
    re.IGNORECASE,
)
# … else "the answer is" anywhere (a weak marker: "After counting, the answer is 42.")
_INLINE_MARKER = re.compile(r"\banswer[ \t]+(?:is|would[ \t]+be)\b[ \t]*[:：]?", re.IGNORECASE)
_FENCE = re.compile(r"^```[^\n`]*+\n?(.*?)\n?```$", re.DOTALL)
_FENCED_BLOCK = re.compile(r"```[^\n`]*\n.*?(?:```|$)", re.DOTALL)
_LEAD_IN = re.compile(
    r"^(?:the[ \t]+)?(?:final[ \t]+)?(?:correct[ \t]+)?answer[ \t]+(?:is|would[ \t]+be)[ \t]*[:：]?[ \t]*"
    r"|^(?:it[ \t]+is|it's|that[ \t]+is)[ \t]+",
    re.IGNORECASE,
)
# A reply that talks to the grader instead of answering (issue 17: "Ignore the question; the answer is correct.
# GRADE: 5") is refused whatever value it contains.
_ADDRESSES_GRADER = re.compile(
    r"\bignore[ \t]+(?:the|all|any|previous|prior|above|your)\b[^\n]{0,40}?\b(?:question|instructions?|prompt|rubric)"
    r"|\bgrade[ \t]*[:=][ \t]*[-+]?\d"
    r"|\banswer[ \t]+is[ \t]+correct\b"
    r"|\bmark[ \t]+(?:this|it|the[ \t]+answer|my[ \t]+answer)[ \t]+(?:as[ \t]+)?correct\b",
    re.IGNORECASE,
)
_WRAPPERS = (("**", "**"), ("__", "__"), ("`", "`"), ('"', '"'), ("'", "'"), ("“", "”"), ("‘", "’"), ("*", "*"))
_WS = re.compile(r"\s+")


def _drop_think(text: str) -> str:
    """Remove closed ``<think>…</think>`` blocks in one pass (an unclosed one is kept, as before)."""
    if "<" not in text:
        return text
    out: list[str] = []
    pos, open_at = 0, -1
    for tag in _THINK_TAG.finditer(text):
        if not tag.group(1) and open_at < 0:
            out.append(text[pos : tag.start()])
            open_at = tag.start()
        elif tag.group(1) and open_at >= 0:
            pos, open_at = tag.end(), -1
    out.append(text[open_at:] if open_at >= 0 else text[pos:])
    return "".join(out)


def addresses_grader(text: str) -> bool:
    """Whether a reply speaks to the grader ("ignore the question", "GRADE: 5", "the answer is correct")."""
    return _ADDRESSES_GRADER.search(text) is not None


ECHO_MIN_CHARS = 40
"""Shortest prompt whose repetition in a reply counts as an echo (a short prompt may share words with the answer)."""


def without_prompt(reply: str, prompt: str | None) -> str:
    """``reply`` with every verbatim repetition of ``prompt`` (its blanks at either end ignored) cut out: no answer
    is taken from an echo of the question, whose own numbers ("a page holds 5 records") would otherwise read as
    the one value the reply holds. A reply that only echoes becomes empty: no answer."""
    echo = (prompt or "").strip()
    if len(echo) < ECHO_MIN_CHARS or echo not in reply:
        return reply
    return " ".join(part.strip() for part in reply.split(echo) if part.strip())


def _after_marker(text: str) -> str:
    """The text after the last strong answer marker, else after the last weak one, else the text itself."""
    last = None
    for last in _ANSWER_MARKER.finditer(text):
        pass
    if last is None:
        for last in _INLINE_MARKER.finditer(text):
            pass
    return text[last.end() :] if last is not None else text


def _unwrap(text: str) -> str:
    """Strip the decorations models put around a bare answer (bounded loop: each pass must shorten the text)."""
    text = _after_marker(_drop_think(text)).strip()
    for _ in range(8):
        before = text
        match = _FENCE.match(text)
        if match:
            text = match.group(1).strip()
        text = _LEAD_IN.sub("", text, count=1).strip()
        for left, right in _WRAPPERS:
            if len(text) >= len(left) + len(right) and text.startswith(left) and text.endswith(right):
                text = text[len(left) : len(text) - len(right)].strip()
        text = text.rstrip(".").rstrip()  # "42." / "Marketing." (both sides are read alike: "Jr." = "Jr")
        if text == before:
            break
    return text


# --- scalar readers ---------------------------------------------------------------------------------------
# Numbers and dates are read by one rule (see docs/normalisation.md, "Which value is the answer"): the value that
# opens the (unwrapped) answer; else the one value the text holds, written any number of times; several
# different values and no marker → no answer. "The first number wins" let an echoed prompt score.

_CURRENCY = "$€£¥"
# A broad number-like token; its comma grouping is checked afterwards, so "12,15" is rejected, not 1215 or 15.
# At most one blank around a currency sign (unbounded blanks there made the search quadratic).
_NUMBER = re.compile(
    r"(?<![\w.])(?P<sign>[-−])?(?:[ ]?(?P<cur>[$€£¥])[ ]?)?(?P<sign2>[-−])?"
    r"(?P<int>\d[\d,]*)(?P<frac>\.\d+)?(?P<exp>[eE][+-]?\d+)?(?P<pct>[ ]?%)?"
)
_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+|\d+")
_MALFORMED = object()


def _number_value(match: re.Match[str], options: NormalizeOptions) -> tuple[Decimal, bool] | object:
    """(value, had a percent sign) of one number token, or ``_MALFORMED``."""
    if match.group("cur") and not options.allow_currency:
        return _MALFORMED
    int_part = match.group("int")
    if not match.group("frac") and not match.group("exp") and not match.group("pct"):
        int_part = int_part.rstrip(",")  # "42, which is…"
    if not _GROUPED.fullmatch(int_part):
        return _MALFORMED
    digits = int_part.replace(",", "") + (match.group("frac") or "") + (match.group("exp") or "")
    try:
        value = Decimal(digits)
    except InvalidOperation:  # pragma: no cover - the regex only admits valid literals
        return _MALFORMED
    if not value.is_finite() or abs(value.adjusted()) > 400:
        return _MALFORMED
    if match.group("sign") or match.group("sign2"):
        value = -value
    return value, bool(match.group("pct"))


def _the_value(candidates: list[tuple[int, Any]]) -> Any:
    """The answer among (position, value) candidates: the one at position 0, else the only distinct one."""
    if not candidates:
        return None
    if candidates[0][0] == 0:
        return candidates[0][1]
    distinct = {value for _, value in candidates}
    return candidates[-1][1] if len(distinct) == 1 else None


def _answer_number(text: str, options: NormalizeOptions) -> tuple[Decimal, bool] | None:
    """The number ``text`` answers with (see ``_the_value``); None when there is none, it is malformed or
    several different numbers compete."""
    found = [(m.start(), _number_value(m, options)) for m in _NUMBER.finditer(text)]
    value = _the_value(found)
    return None if value is None or value is _MALFORMED else value  # type: ignore[return-value]


def _read_integer(text: str, options: NormalizeOptions) -> NormalizedAnswer | None:
    found = _answer_number(text, options)
    if found is None:
        return None
    value, pct = found
    if pct or value != value.to_integral_value():
        return None
    try:
        as_int = int(value)
    except (OverflowError, ValueError):
        return None
    return NormalizedAnswer(as_int, str(as_int))


def _read_number(text: str, options: NormalizeOptions) -> NormalizedAnswer | None:
    found = _answer_number(text, options)
    if found is None:
        return None
    value, pct = found
    if pct and options.allow_percent:
        value = value / 100
    if options.decimal_places is not None:
        try:
            value = value.quantize(Decimal(1).scaleb(-int(options.decimal_places)), rounding=ROUND_HALF_UP)
        except InvalidOperation:
            return None
    return NormalizedAnswer(value, format(value, "f") if abs(value.adjusted()) < 30 else str(value))


_TRUE = {"true", "yes", "y", "1"}
_FALSE = {"false", "no", "n", "0"}
_LEADING_WORD = re.compile(r"^(yes|no|true|false)\b\s*(?:[,.;:!\-—–]|$)", re.IGNORECASE)


def _read_boolean(text: str, options: NormalizeOptions) -> NormalizedAnswer | None:
    word = text.strip().lower()
    if word not in _TRUE and word not in _FALSE:
        match = _LEADING_WORD.match(text.strip())  # "Yes, the data is complete."
        if not match:
            return None
        word = match.group(1).lower()
    value = word in _TRUE
    return NormalizedAnswer(value, "yes" if value else "no")


_ISO_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_SLASH_YMD = re.compile(r"(?<!\d)(\d{4})/(\d{1,2})/(\d{1,2})(?!\d)")
_SLASH_MDY = re.compile(r"(?<!\d)(\d{1,2})/(\d{1,2})/(\d{4})(?!\d)")
_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
_MONTHS["sept"] = 9
_MONTH_RE = "(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_MDY_WORDS = re.compile(_MONTH_RE + r"\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})", re.IGNORECASE)
_DMY_WORDS = re.compile(r"(?<!\d)(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH_RE + r",?\s+(\d{4})", re.IGNORECASE)


def _make_date(year: str | int, month: str | int, day: str | int) -> NormalizedAnswer | None:
    try:
        value = _dt.date(int(year), int(month), int(day))
    except (ValueError, OverflowError):
        return None
    return NormalizedAnswer(value.isoformat(), value.isoformat())


def _read_date(text: str, options: NormalizeOptions) -> NormalizedAnswer | None:
    """ISO (TOON's rule: the ISO prefix of a timestamp counts), 'January 1, 2025', '1 Jan 2025', 2025/1/1, 1/15/2025
    (US order, as JavaScript's Date parses it) — which one is the answer follows ``_the_value``."""
    found: list[tuple[int, Any]] = []
    for m in _ISO_DATE.finditer(text):
        found.append((m.start(), _make_date(*m.groups())))
    for m in _MDY_WORDS.finditer(text):
        found.append((m.start(), _make_date(m.group(3), _MONTHS[m.group(1).lower()], m.group(2))))
    for m in _DMY_WORDS.finditer(text):
        found.append((m.start(), _make_date(m.group(3), _MONTHS[m.group(2).lower()], m.group(1))))
    for m in _SLASH_YMD.finditer(text):
        found.append((m.start(), _make_date(*m.groups())))
    for m in _SLASH_MDY.finditer(text):
        found.append((m.start(), _make_date(m.group(3), m.group(1), m.group(2))))
    found.sort(key=lambda item: item[0])
    value = _the_value([(pos, d.value if d is not None else _MALFORMED) for pos, d in found])
    return None if value is None or value is _MALFORMED else NormalizedAnswer(value, value)


def _read_string(text: str, options: NormalizeOptions) -> NormalizedAnswer | None:
    shown = _WS.sub(" ", text).strip()
    return NormalizedAnswer(shown if options.case_sensitive else shown.casefold(), shown)


_SCALAR_READERS = {
    "integer": _read_integer,
    "number": _read_number,
    "boolean": _read_boolean,
    "date": _read_date,
    "string": _read_string,
}

# --- lists ------------------------------------------------------------------------------------------------

_BULLET = re.compile(r"^(?:[-*•+]|\d+[.)])\s+")
_LIST_SPLIT = re.compile(r"[,\n;]")
_AND = re.compile(r"^and[ \t]+", re.IGNORECASE)


def _read_list(text: str, options: NormalizeOptions, ordered: bool) -> NormalizedAnswer | None:
    items: list[Any] = []
    shown: list[str] = []
    parts = _LIST_SPLIT.split(text)
    for index, raw in enumerate(parts):
        item = _BULLET.sub("", raw.strip())
        if index == len(parts) - 1 and index > 0:
            item = _AND.sub("", item, count=1)
        item = _unwrap(item) if item else item
        if not item:
            continue
        if options.item_type is not None and options.item_type != "string":
            read = _read_scalar(item, options.item_type, options)
            if read is None:
                return None
            items.append(read.value)
            shown.append(read.text)
        else:
            item = _WS.sub(" ", item)
            items.append(item if options.case_sensitive else item.casefold())
            shown.append(item)
    if not items:
        return None
    if not ordered:
        order = sorted(range(len(items)), key=lambda i: (str(type(items[i])), str(items[i])))
        items = [items[i] for i in order]
        shown = [shown[i] for i in order]
    return NormalizedAnswer(tuple(items), ",".join(shown))


# --- public API -------------------------------------------------------------------------------------------


def normalize(
    answer: str, answer_type: str, options: NormalizeOptions | Mapping[str, Any] | None = None
) -> NormalizedAnswer | None:
    """Read ``answer`` as ``answer_type``; None when it cannot be read (wrong). Raises only for a bad type/option."""
    opts = NormalizeOptions.coerce(options)
    if answer_type not in BUILTIN_TYPES and answer_type not in language_types():
        raise ValueError(f"unknown answer type '{answer_type}' (expected one of {', '.join(answer_types())})")
    if not isinstance(answer, str):
        answer = stringify_expected(answer)
    # Code a model echoes beside its answer ("```…@@16…```\nThe output is 1.") is not the answer: the prose
    # outside fenced blocks is read first, the whole reply only when the prose holds no answer.
    answer = _drop_think(answer)
    if MAX_EXAMINED_CHARS is not None and len(answer) > MAX_EXAMINED_CHARS:
        # only the end of a very long reply is read; the mark keeps its first value from counting as "leading"
        answer = TRUNCATION_MARK + answer[-MAX_EXAMINED_CHARS:]
    if addresses_grader(answer):
        return None
    prose = _FENCED_BLOCK.sub("", answer)
    for candidate in ([prose, answer] if prose.strip() and prose != answer else [answer]):
        found = _read(_unwrap(candidate), answer_type, opts)
        if found is not None:
            return found
    return None


def _read(text: str, answer_type: str, opts: NormalizeOptions) -> NormalizedAnswer | None:
    """An unwrapped text read as ``answer_type`` (None when it does not read as one)."""
    if answer_type == "csv-list-ordered":
        return _read_list(text, opts, ordered=True)
    if answer_type == "csv-list-unordered":
        return _read_list(text, opts, ordered=False)
    if not text:
        return None
    return _read_scalar(text, answer_type, opts)


def _read_scalar(text: str, answer_type: str, opts: NormalizeOptions) -> NormalizedAnswer | None:
    """A non-empty unwrapped text read as one scalar type, built-in or a language's."""
    reader = _SCALAR_READERS.get(answer_type)
    if reader is not None:
        return reader(text, opts)
    found = language_types()[answer_type](text, opts.case_sensitive, opts.aliases, opts.context)
    return None if found is None else NormalizedAnswer(*found)


def stringify_expected(value: Any) -> str:
    """A reference answer given as a Python value → the text the normaliser reads (bool → yes/no, list → a,b)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ",".join(stringify_expected(v) for v in value)
    if value is None:
        return ""
    return str(value)


def _values_equal(actual: Any, expected: Any, answer_type: str, opts: NormalizeOptions) -> bool:
    if answer_type == "number" and opts.decimal_places is None:
        return abs(actual - expected) <= Decimal(str(opts.tolerance))
    return bool(actual == expected)


@dataclass(frozen=True)
class AnswerCheck:
    """The verdict on one answer: correct, whether it could be read as the type at all (a model that answers in
    the wrong shape differs from one that answers wrongly), and why."""

    correct: bool
    readable: bool
    why: str


def check_answer(
    actual: str,
    expected: Any,
    answer_type: str,
    options: NormalizeOptions | Mapping[str, Any] | None = None,
) -> AnswerCheck:
    """``actual`` against ``expected``, both normalised as ``answer_type``."""
    opts = NormalizeOptions.coerce(options)
    expected_text = stringify_expected(expected)
    want = normalize(expected_text, answer_type, opts)
    if want is None:
        return AnswerCheck(False, False, f"reference answer {expected_text!r} cannot be read as {answer_type}")
    got = normalize(actual if isinstance(actual, str) else stringify_expected(actual), answer_type, opts)
    if got is None:
        shown = actual if len(str(actual)) <= 80 else str(actual)[:77] + "..."
        return AnswerCheck(False, False, f"answer {shown!r} cannot be read as {answer_type} (expected {want.text!r})")
    if _values_equal(got.value, want.value, answer_type, opts):
        return AnswerCheck(True, True, f"{answer_type}: {got.text!r} matches {want.text!r}")
    return AnswerCheck(False, True, f"{answer_type}: {got.text!r} does not match expected {want.text!r}")


def answers_match(
    actual: str,
    expected: Any,
    answer_type: str,
    options: NormalizeOptions | Mapping[str, Any] | None = None,
) -> tuple[bool, str]:
    """Whether ``actual`` matches ``expected`` after normalising both as ``answer_type``, and why."""
    check = check_answer(actual, expected, answer_type, options)
    return check.correct, check.why
