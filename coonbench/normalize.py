"""Deterministic, type-aware answer normalisation shared by every exact-answer task.

Why: a model that answers ``**$1,234.50**`` or "The answer is 42." knows the answer; one that answers 43 does
not. We follow TOON's benchmark normaliser (``benchmarks/src/normalize.ts``) where it has a rule — integer,
number (``decimalPlaces``, tolerance, currency, trailing ``%`` divides by 100), boolean (yes/no/true/false/y/n/1/0),
date (ISO ``YYYY-MM-DD``), string (trim, wrapping quotes, code fences, case-insensitive unless ``caseSensitive``),
comma lists ordered/unordered — and add what COON needs: ``widget-name`` (an abbreviation is accepted through a
caller-supplied alias map) and lists whose items are widget names (``item_type``).

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
from dataclasses import dataclass, field, fields
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

ANSWER_TYPES: tuple[str, ...] = (
    "integer",
    "number",
    "boolean",
    "date",
    "string",
    "csv-list-ordered",
    "csv-list-unordered",
    "widget-name",
)
SCALAR_TYPES: tuple[str, ...] = ("integer", "number", "boolean", "date", "string", "widget-name")

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
    aliases: Mapping[str, str] = field(default_factory=dict)  # widget-name: abbreviation → full name
    item_type: str | None = None  # csv lists: normalise each item as this scalar type (e.g. "widget-name")

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
        if kwargs.get("item_type") is not None and kwargs["item_type"] not in SCALAR_TYPES:
            raise ValueError(f"item_type must be one of {', '.join(SCALAR_TYPES)}, not {kwargs['item_type']!r}")
        return cls(**kwargs)


_DEFAULT_OPTIONS = NormalizeOptions()


@dataclass(frozen=True)
class NormalizedAnswer:
    """A normalised answer: ``value`` is what is compared, ``text`` is how explanations show it."""

    value: Any
    text: str


# --- decoration stripping ---------------------------------------------------------------------------------

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_ANSWER_MARKER = re.compile(r"(?:^|\n)\s*(?:\*\*|__)?(?:final\s+answer|answer)(?:\*\*|__)?\s*[:：]", re.IGNORECASE)
_FENCE = re.compile(r"^```[^\n`]*\n?(.*?)\n?```$", re.DOTALL)
_FENCED_BLOCK = re.compile(r"```[^\n`]*\n.*?(?:```|$)", re.DOTALL)
_LEAD_IN = re.compile(
    r"^(?:the\s+)?(?:final\s+)?(?:correct\s+)?answer\s+(?:is|would\s+be)\s*[:：]?\s*"
    r"|^(?:it\s+is|it's|that\s+is)\s+",
    re.IGNORECASE,
)
_WRAPPERS = (("**", "**"), ("__", "__"), ("`", "`"), ('"', '"'), ("'", "'"), ("“", "”"), ("‘", "’"), ("*", "*"))
_WS = re.compile(r"\s+")


def _unwrap(text: str) -> str:
    """Strip the decorations models put around a bare answer (bounded loop: each pass must shorten the text)."""
    text = _THINK.sub("", text)
    markers = list(_ANSWER_MARKER.finditer(text))
    if markers:
        text = text[markers[-1].end() :]
    text = text.strip()
    for _ in range(8):
        before = text
        match = _FENCE.match(text)
        if match:
            text = match.group(1).strip()
        text = _LEAD_IN.sub("", text).strip()
        for left, right in _WRAPPERS:
            if len(text) >= len(left) + len(right) and text.startswith(left) and text.endswith(right):
                text = text[len(left) : len(text) - len(right)].strip()
        text = text.rstrip(".").rstrip()  # "42." / "Marketing." (both sides are read alike: "Jr." = "Jr")
        if text == before:
            break
    return text


# --- scalar readers ---------------------------------------------------------------------------------------

_CURRENCY = "$€£¥"
# A broad number-like token; its comma grouping is checked afterwards, so "12,15" is rejected, not 1215 or 15.
_NUMBER = re.compile(
    r"(?<![\w.])(?P<sign>[-−])?\s*(?P<cur>[$€£¥])?\s*(?P<sign2>[-−])?"
    r"(?P<int>\d[\d,]*)(?P<frac>\.\d+)?(?P<exp>[eE][+-]?\d+)?(?P<pct>\s?%)?"
)
_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+|\d+")


def _first_number(text: str, options: NormalizeOptions) -> tuple[Decimal, bool, str] | None:
    """First number token in ``text``: (value, had a percent sign, token text); None if malformed."""
    match = _NUMBER.search(text)
    if match is None:
        return None
    if match.group("cur") and not options.allow_currency:
        return None
    int_part = match.group("int")
    if not match.group("frac") and not match.group("exp") and not match.group("pct"):
        int_part = int_part.rstrip(",")  # "42, which is…"
    if not _GROUPED.fullmatch(int_part):
        return None
    digits = int_part.replace(",", "") + (match.group("frac") or "") + (match.group("exp") or "")
    try:
        value = Decimal(digits)
    except InvalidOperation:  # pragma: no cover - the regex only admits valid literals
        return None
    if not value.is_finite() or abs(value.adjusted()) > 400:
        return None
    if match.group("sign") or match.group("sign2"):
        value = -value
    return value, bool(match.group("pct")), match.group(0).strip()


def _read_integer(text: str, options: NormalizeOptions) -> NormalizedAnswer | None:
    found = _first_number(text, options)
    if found is None:
        return None
    value, pct, _ = found
    if pct or value != value.to_integral_value():
        return None
    try:
        as_int = int(value)
    except (OverflowError, ValueError):
        return None
    return NormalizedAnswer(as_int, str(as_int))


def _read_number(text: str, options: NormalizeOptions) -> NormalizedAnswer | None:
    found = _first_number(text, options)
    if found is None:
        return None
    value, pct, _ = found
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
    """ISO first (TOON's rule: the ISO prefix wins), then 'January 1, 2025', '1 Jan 2025', 2025/1/1, 1/15/2025."""
    if m := _ISO_DATE.search(text):
        return _make_date(*m.groups())
    if m := _MDY_WORDS.search(text):
        return _make_date(m.group(3), _MONTHS[m.group(1).lower()], m.group(2))
    if m := _DMY_WORDS.search(text):
        return _make_date(m.group(3), _MONTHS[m.group(2).lower()], m.group(1))
    if m := _SLASH_YMD.search(text):
        return _make_date(*m.groups())
    if m := _SLASH_MDY.search(text):  # US order, as JavaScript's Date parses it
        return _make_date(m.group(3), m.group(1), m.group(2))
    return None


def _read_string(text: str, options: NormalizeOptions) -> NormalizedAnswer | None:
    shown = _WS.sub(" ", text).strip()
    return NormalizedAnswer(shown if options.case_sensitive else shown.casefold(), shown)


_CALL = re.compile(r"^([A-Za-z_$][\w$.]*)\s*(?:<[^<>]*>)?\s*\(.*\)$", re.DOTALL)
_WIDGET_SUFFIX = re.compile(r"\s+widget$", re.IGNORECASE)


def _read_widget_name(text: str, options: NormalizeOptions) -> NormalizedAnswer | None:
    """A class name; ``Text('Hi')`` → Text, "the Scaffold widget" → Scaffold, aliases map abbreviations."""
    name = _WIDGET_SUFFIX.sub("", text.strip())
    name = re.sub(r"^(?:the|a|an)\s+", "", name, flags=re.IGNORECASE)
    if m := _CALL.match(name):
        name = m.group(1)
    name = name.strip("`*\"' ")
    if not name or any(ch.isspace() for ch in name):
        return None
    name = options.aliases.get(name, name)
    return NormalizedAnswer(name if options.case_sensitive else name.casefold(), name)


_SCALAR_READERS = {
    "integer": _read_integer,
    "number": _read_number,
    "boolean": _read_boolean,
    "date": _read_date,
    "string": _read_string,
    "widget-name": _read_widget_name,
}

# --- lists ------------------------------------------------------------------------------------------------

_BULLET = re.compile(r"^(?:[-*•+]|\d+[.)])\s+")
_LIST_SPLIT = re.compile(r"[,\n;]")


def _read_list(text: str, options: NormalizeOptions, ordered: bool) -> NormalizedAnswer | None:
    items: list[Any] = []
    shown: list[str] = []
    parts = _LIST_SPLIT.split(text)
    for index, raw in enumerate(parts):
        item = _BULLET.sub("", raw.strip())
        if index == len(parts) - 1 and index > 0:
            item = re.sub(r"^and\s+", "", item, flags=re.IGNORECASE)
        item = _unwrap(item) if item else item
        if not item:
            continue
        if options.item_type is not None and options.item_type != "string":
            read = _SCALAR_READERS[options.item_type](item, options)
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
    if answer_type not in ANSWER_TYPES:
        raise ValueError(f"unknown answer type '{answer_type}' (expected one of {', '.join(ANSWER_TYPES)})")
    if not isinstance(answer, str):
        answer = stringify_expected(answer)
    # Code a model echoes beside its answer ("```…@@16…```\nThe output is 1.") is not the answer: the prose
    # outside fenced blocks is read first, the whole reply only when the prose holds no answer.
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
    return _SCALAR_READERS[answer_type](text, opts)


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


def answers_match(
    actual: str,
    expected: Any,
    answer_type: str,
    options: NormalizeOptions | Mapping[str, Any] | None = None,
) -> tuple[bool, str]:
    """Whether ``actual`` matches ``expected`` after normalising both as ``answer_type``, and why."""
    opts = NormalizeOptions.coerce(options)
    expected_text = stringify_expected(expected)
    want = normalize(expected_text, answer_type, opts)
    if want is None:
        return False, f"reference answer {expected_text!r} cannot be read as {answer_type}"
    got = normalize(actual if isinstance(actual, str) else stringify_expected(actual), answer_type, opts)
    if got is None:
        shown = actual if len(str(actual)) <= 80 else str(actual)[:77] + "..."
        return False, f"answer {shown!r} cannot be read as {answer_type} (expected {want.text!r})"
    if _values_equal(got.value, want.value, answer_type, opts):
        return True, f"{answer_type}: {got.text!r} matches {want.text!r}"
    return False, f"{answer_type}: {got.text!r} does not match expected {want.text!r}"
