"""JSON, pretty (2-space indent) and compact: the baseline every saving is measured against."""

from __future__ import annotations

import json
from typing import Any, Literal

from coonbench.formats._limits import check_value, json_depth_index, long_int_error, too_deep
from coonbench.formats.base import Format, FormatError, register


def _loads(text: str) -> Any:
    """json.loads whose every failure is a positioned FormatError (deep nesting and huge integers included)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise FormatError(err.msg, err.lineno, err.colno, expected="valid JSON") from None
    except RecursionError:
        raise too_deep(text, json_depth_index(text)) from None
    except ValueError:  # an integer literal with more digits than Python converts
        raise long_int_error(text) from None


def _dumps(source: Any, **options: Any) -> str:
    check_value(source, "JSON")
    try:
        return json.dumps(source, ensure_ascii=False, allow_nan=False, **options)
    except (TypeError, ValueError) as err:
        raise FormatError(f"not a JSON value: {err}") from None


class JsonFormat(Format):
    """Pretty JSON, as TOON's benchmark shows it (``JSON.stringify(data, null, 2)``)."""

    name = "json"
    label = "JSON"
    description = "JSON, pretty-printed with 2-space indentation"
    kind = "data"
    fence = "json"
    lossless = True

    def encode(self, source: Any) -> str:
        return _dumps(source, indent=2)

    def decode(self, text: str) -> Any:
        return _loads(text)

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        if variant == "short":
            return "JSON: Strict JSON objects/arrays with repeated keys per row."
        return ("JSON: objects are {\"key\": value, …}, arrays are [v1, v2, …]; strings are double-quoted, "
                "numbers, true/false and null are bare. Every object repeats its keys.")


class JsonCompactFormat(JsonFormat):
    """JSON without insignificant whitespace."""

    name = "json-compact"
    label = "JSON compact"
    description = "JSON without whitespace (separators ',' and ':')"

    def encode(self, source: Any) -> str:
        return _dumps(source, separators=(",", ":"))

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        if variant == "short":
            return "JSON (compact): Strict JSON without extra whitespace."
        return ("JSON (compact): strict JSON with no whitespace between tokens; objects {\"k\":v,…}, "
                "arrays [a,b,…], strings double-quoted, true/false/null bare.")


register(JsonFormat())
register(JsonCompactFormat())
