"""TeaLeaf (krishjag/tealeaf) text format: a pure-Python JSON→TeaLeaf encoder and a TeaLeaf→JSON decoder.

Why this exists: TeaLeaf has no Python implementation, and its accuracy benchmark sends data to models as
the output of ``tealeaf from-json`` (``--compact --compact-floats`` for prompts). The encoder reproduces that
CLI byte for byte (checked against the 44 CLI-generated fixtures in ``../shared/reference/tealeaf``); the
decoder reads everything the encoder emits plus the plain-data part of the TeaLeaf text grammar, so that
round trips and validity can be checked.

The package: ``schema`` (quoting and the ``@struct`` schemas inferred from uniform arrays of objects), ``encode``
(JSON → TeaLeaf), ``lex`` (tokens) and ``parse`` (TeaLeaf → JSON); this module registers the two formats.

Encoder rules (the CLI's code, which differs from the stale spec §6.3):

* No header. A root array becomes ``@root-array`` + key ``root``; a scalar root becomes ``root: v`` (which
  reads back as ``{"root": v}``, so the format plug-ins refuse a scalar root with FormatError).
* Strings are bare when they match ``[A-Za-z_][A-Za-z0-9_.-]*`` and are not ``true false null ~ NaN inf
  Infinity``; otherwise double-quoted with ``\\\\ \\" \\n \\t \\r \\b \\f`` and ``\\uXXXX`` for other control
  characters. Keys follow the same rule.
* Integers are written as-is (any size). Floats: Rust ``Display`` (shortest round-trip digits, positional);
  integral values with more than 15 digits switch to Rust ``{:e}`` (``1e21``, ``1.234567890123456e15``);
  other integral values get ``.0`` unless compact floats are on.
* Arrays whose elements are all objects sharing at least one key get ``@struct singular(key) (...)``
  (field order: keys of the element with most keys, then first-seen; types merge Int+Float→float,
  Null+T→T?, otherwise ``any``; ``?`` when null or missing anywhere; nested arrays/objects of objects are
  analysed depth first, so children are defined before parents) and are written
  ``key: @table name [ (...), ... ]``. In a row, a missing key is ``~`` and a JSON null is ``null``;
  elsewhere null is ``~``. Everything else is inline ``{k: v}`` / ``[a, b]``.

One deliberate deviation, which no CLI fixture exercises: the CLI checks only the *first* element of an
array (or a nested object) against the struct it picked by name, and silently drops keys of later rows that
the struct lacks (or turns a missing non-nullable nested struct into ``null``). This encoder writes such a
value inline (``[{...}]`` / ``{...}``) instead, so that ``decode(encode(x)) == x`` always holds.

Decoder semantics: ``~`` in a ``@table`` row drops a nullable field (absent in the source) and is null for a
non-nullable one; ``null`` is always kept; outside rows both are null. Numbers keep their lexical type
(``2`` → int, ``2.0``/``1e21`` → float), so the pretty form round-trips exactly, type included. The compact
form (compact floats) writes whole-number floats without ``.0``, so they come back as equal ints
(``100.0`` → ``100``, ``-0.0`` → ``0``). Not supported (FormatError "unsupported TeaLeaf feature"):
references, tagged values, unions, maps, includes, timestamps, bytes, binary ``.tlbx``.
"""

from __future__ import annotations

from typing import Any, Literal

from coonbench.formats.base import Format, FormatError, register
from coonbench.formats._limits import check_size, check_value
from coonbench.formats.tealeaf.encode import encode_tealeaf, format_float
from coonbench.formats.tealeaf.parse import decode_tealeaf, parse_tealeaf
from coonbench.formats.tealeaf.schema import Schema, needs_quoting, singularize

__all__ = [
    "Schema",
    "TeaLeafCompactFormat",
    "TeaLeafFormat",
    "decode_tealeaf",
    "encode_tealeaf",
    "format_float",
    "needs_quoting",
    "parse_tealeaf",
    "singularize",
]

_PRIMER_SHORT = (
    "TeaLeaf: `@struct name (field: type, …)` declares a schema; `key: @table name [ (v1, v2, …), … ]` lists "
    "rows positionally in field order; `~` = field absent, `null` = null; `{k: v}` objects, `[a, b]` arrays; "
    "unquoted words are strings."
)
_PRIMER_FULL = """TeaLeaf is a schema-aware text format for JSON data.
- `@struct order (id: int, items: []item, note: string?)` declares a schema: field names in order, with types \
(`[]T` = array of T, `T?` = may be null or absent, a struct name = a nested struct, `any` = any value).
- `orders: @table order [ (1, [...], ~), … ]` is an array of objects: each `( … )` row lists the values in the \
struct's field order; a nested struct field is itself a `( … )` tuple.
- In rows, `~` means the field is absent and `null` means it is null; elsewhere `~` is null.
- `{k: v, …}` is an object, `[a, b]` an array, `key: value` a top-level entry.
- Strings are unquoted when they are simple words (letters, digits, `_ - .`), otherwise double-quoted with \
JSON-style escapes; `true`/`false` are booleans; numbers are written as numbers.
- `@root-array` marks a document whose top level is an array (stored under `root`)."""


class TeaLeafFormat(Format):
    """TeaLeaf text, pretty (``tealeaf from-json``)."""

    name = "tealeaf"
    label = "TeaLeaf"
    description = "TeaLeaf text (schema-aware: @struct + @table rows), as `tealeaf from-json` writes it"
    kind = "data"
    fence = "tealeaf"
    lossless = True
    _compact = False
    max_chars = 512 * 1024
    """Longest text decode/validate read (the pure-Python parser reads about 1.3 MB/s)."""

    def encode(self, source: Any) -> str:
        if type(source) not in (dict, list):
            # The CLI writes a scalar as `root: v`, which reads back as {"root": v}: refuse rather than change it.
            raise FormatError(f"a TeaLeaf document is an object or an array, not a {type(source).__name__}",
                              expected="an object or an array")
        check_value(source, "TeaLeaf")
        return encode_tealeaf(source, compact=self._compact, compact_floats=self._compact)

    def decode(self, text: str) -> Any:
        check_size(text, self.max_chars, self.name)
        return decode_tealeaf(text)

    def validate(self, text: str) -> list[FormatError]:
        try:
            check_size(text, self.max_chars, self.name)
            _, errors = parse_tealeaf(text)
        except FormatError as err:
            return [err]
        return errors

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        return _PRIMER_SHORT if variant == "short" else _PRIMER_FULL


class TeaLeafCompactFormat(TeaLeafFormat):
    """TeaLeaf text, compact with compact floats (``--compact --compact-floats``, as its benchmark sends it)."""

    name = "tealeaf-compact"
    label = "TeaLeaf"
    description = "TeaLeaf text, compact with compact floats (the form TeaLeaf's accuracy benchmark sends)"
    # Lossless in value: whole-number floats come back as equal ints (100.0 → 100, -0.0 → 0).
    lossless = True
    _compact = True


register(TeaLeafFormat())
register(TeaLeafCompactFormat())
