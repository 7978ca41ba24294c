"""Two formats: a code format (Dart with its lines in reverse order) and a data format (JSON, keys sorted).

Both are lossless, so every task can use them: the code tasks decode a model's reply, retrieval only encodes.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from coonbench.formats import Format, FormatError, register


class ReversedDart(Format):
    """Dart source with its lines in reverse order: trivially reversible, and hard to read for a model."""

    name = "example-reversed-dart"
    description = "Dart/Flutter source with its lines in reverse order"
    kind = "code"
    fence = "reversed-dart"
    lossless = True

    def encode(self, source: Any) -> str:
        if not isinstance(source, str):
            raise FormatError("Dart source must be text", expected="str")
        return "\n".join(reversed(source.split("\n")))

    def decode(self, text: str) -> str:
        if not isinstance(text, str):
            raise FormatError("not text", expected="str")
        return "\n".join(reversed(text.split("\n")))

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        text = "The Dart program is shown with its lines in reverse order: the last line comes first."
        if variant == "full":
            text += " Write your answers the same way: reverse the order of the lines of the program."
        return text


class SortedJson(Format):
    """JSON with every object's keys sorted and 1-space indentation."""

    name = "example-sorted-json"
    description = "JSON with sorted keys and one-space indentation"
    kind = "data"
    fence = "json"
    lossless = True

    def encode(self, source: Any) -> str:
        try:
            return json.dumps(source, sort_keys=True, indent=1, ensure_ascii=False)
        except (TypeError, ValueError) as err:
            raise FormatError(f"not JSON-serialisable: {err}") from None

    def decode(self, text: str) -> Any:
        try:
            return json.loads(text)
        except json.JSONDecodeError as err:
            raise FormatError(err.msg, err.lineno, err.colno, expected="JSON") from None


register(ReversedDart())
register(SortedJson())
