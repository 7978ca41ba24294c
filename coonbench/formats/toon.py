"""TOON through the official ``toon_format`` package (byte-identical to the TypeScript reference encoder)."""

from __future__ import annotations

import re
from typing import Any, Literal

import toon_format

from coonbench.formats._compare import first_difference
from coonbench.formats._limits import check_size, check_value
from coonbench.formats.base import Format, FormatError, register

_LINE_RE = re.compile(r"\bline (\d+)")


class ToonFormat(Format):
    """TOON, default options (2-space indent, comma delimiter), as TOON's benchmark encodes it."""

    name = "toon"
    label = "TOON"
    description = "TOON (Token-Oriented Object Notation), official encoder, comma delimiter"
    kind = "data"
    fence = "toon"
    # Lossless in value: TOON canonicalises numbers (1.0 → 1, 1e20 → 100000000000000000000), so whole-number
    # floats come back as equal ints.
    lossless = True
    max_chars = 1024 * 1024
    """Longest text decode/validate read (the pure-Python decoder reads about 3.5 MB/s)."""

    def encode(self, source: Any) -> str:
        check_value(source, "TOON")
        try:
            text = toon_format.encode(source)
        except Exception as err:  # the package raises plain exceptions for unsupported values
            raise FormatError(f"cannot encode as TOON: {err}") from None
        # Self-check: the package writes an object of objects as one table, reordering rows whose keys come in
        # another order; refuse rather than show a model a document that reads back differently.
        difference = first_difference(source, self.decode(text))
        if difference is not None:
            raise FormatError(f"TOON cannot represent this value exactly: {difference}", expected="lossless TOON")
        return text

    def decode(self, text: str) -> Any:
        check_size(text, self.max_chars, self.name)
        try:
            return toon_format.decode(text)
        except toon_format.ToonDecodeError as err:
            line = getattr(err, "line", None)
            msg = getattr(err, "msg", None) or str(err)
            if line is None:
                m = _LINE_RE.search(str(err))
                line = int(m.group(1)) if m else None
            raise FormatError(str(msg), line, None, expected="valid TOON") from None
        except (ValueError, IndexError, KeyError) as err:
            m = _LINE_RE.search(str(err))
            raise FormatError(f"invalid TOON: {err}", int(m.group(1)) if m else None,
                              expected="valid TOON") from None

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        if variant == "short":
            return ("TOON: Indentation-based. Arrays declare length and fields (e.g., items[N]{f1,f2}:). "
                    "Rows use single delimiter. Values may be quoted.")
        return ("TOON: indentation-based like YAML. `key: value` pairs; `key[N]: a,b,c` is an array of N "
                "primitives; `key[N]{f1,f2}:` starts a table of N rows, one per line, values in field order "
                "separated by commas; `key[N]:` followed by `- ` items is a list of mixed items. Strings are "
                "quoted only when needed; N is the exact number of items.")


register(ToonFormat())
