"""TeaLeaf encoder: JSON value → TeaLeaf text, byte for byte as ``tealeaf from-json`` writes it.

The rules (and this encoder's one deliberate deviation) are in ``coonbench.formats.tealeaf``'s docstring.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from coonbench.formats.base import FormatError
from coonbench.formats.tealeaf.schema import (
    Schema,
    fits,
    Inferrer,
    object_matches,
    quote,
    singularize,
)

def format_float(f: float, compact_floats: bool) -> str:
    """Rust's float text as the TeaLeaf writer produces it (see module docstring)."""
    if f != f:
        return "NaN"
    if f in (float("inf"), float("-inf")):
        return "inf" if f > 0 else "-inf"
    r = repr(f)
    if "e" in r:
        d = Decimal(r).normalize()
        s = format(d, "f")
    elif r.endswith(".0"):
        s = r[:-2]
    else:
        return r
    if "." in s:
        return s
    if len(s.lstrip("-")) > 15:
        d = Decimal(r).normalize()
        sign, digits, exp = d.as_tuple()
        mant = str(digits[0]) + ("." + "".join(map(str, digits[1:])) if len(digits) > 1 else "")
        return f"{'-' if sign else ''}{mant}e{len(digits) - 1 + exp}"
    return s if compact_floats else s + ".0"


class _Writer:
    def __init__(self, schemas: dict[str, Schema], compact: bool, compact_floats: bool) -> None:
        self.schemas = schemas
        self.compact = compact
        self.cf = compact_floats
        self.sep = "," if compact else ", "
        self.kv = ":" if compact else ": "
        self.out: list[str] = []
        self._lower = {name.lower(): s for name, s in reversed(list(schemas.items()))}

    def resolve(self, declared: str | None, hint: str | None) -> Schema | None:
        schemas = self.schemas
        if declared is not None and declared in schemas:
            return schemas[declared]
        if hint is not None:
            singular = singularize(hint)
            if singular in schemas:
                return schemas[singular]
            return self._lower.get(singular.lower())
        return None

    def scalar(self, v: Any) -> str | None:
        t = type(v)
        if t is str:
            return quote(v)
        if t is int:
            return str(v)
        if t is float:
            return format_float(v, self.cf)
        if v is None:
            return "~"
        if t is bool:
            return "true" if v else "false"
        return None

    def value(self, v: Any, hint: str | None, indent: int, declared: str | None) -> None:
        out = self.out
        s = self.scalar(v)
        if s is not None:
            out.append(s)
            return
        if type(v) is list:
            schema = self.resolve(declared, hint)
            if schema is None and (hint is not None or declared is not None) and v and type(v[0]) is dict:
                for cand in self.schemas.values():
                    if object_matches(v[0], cand):
                        schema = cand
                        break
            if (schema is not None and v and type(v[0]) is dict and object_matches(v[0], schema)
                    and all(type(x) is not dict or fits(x, schema, self.schemas) for x in v)):
                out.append(f"@table {schema.name}" + ("[\n" if self.compact else " [\n"))
                self.rows(v, schema, indent)
                return
            out.append("[")
            for i, x in enumerate(v):
                if i:
                    out.append(self.sep)
                self.value(x, None, indent, None)
            out.append("]")
            return
        if type(v) is dict:
            obj_schema = self.resolve(declared, hint)
            if obj_schema is None:
                for cand in self.schemas.values():
                    if object_matches(v, cand):
                        obj_schema = cand
                        break
            out.append("{")
            for i, (k, x) in enumerate(v.items()):
                if i:
                    out.append(self.sep)
                out.append(quote(k))
                out.append(self.kv)
                f = obj_schema.by_name.get(k) if obj_schema is not None else None
                self.value(x, k, indent, f.base if f is not None else None)
            out.append("}")
            return
        raise FormatError(f"cannot encode a {type(v).__name__} value in TeaLeaf")

    def rows(self, arr: list, schema: Schema, indent: int) -> None:
        """Rows of a table/struct array: the opening bracket is already written."""
        out = self.out
        inner = 0 if self.compact else indent + 2
        pad = " " * inner
        last = len(arr) - 1
        for i, item in enumerate(arr):
            if pad:
                out.append(pad)
            self.tuple(item, schema, inner)
            out.append(",\n" if i < last else "\n")
        if not self.compact and indent:
            out.append(" " * indent)
        out.append("]")

    def tuple(self, obj: Any, schema: Schema, indent: int) -> None:
        out = self.out
        if type(obj) is not dict:
            self.value(obj, None, indent, None)
            return
        out.append("(")
        schemas = self.schemas
        for i, f in enumerate(schema.fields):
            if i:
                out.append(self.sep)
            if f.name not in obj:
                out.append("~")
                continue
            v = obj[f.name]
            s = self.scalar(v)
            if s is not None:
                out.append("null" if v is None else s)
                continue
            # The row passed fits (recursively), so nested struct values fit their structs.
            sub = schemas.get(f.base)
            if f.is_array and sub is not None and type(v) is list:
                if not v:
                    out.append("[]")
                else:
                    out.append("[\n")
                    self.rows(v, sub, indent)
            elif not f.is_array and sub is not None and type(v) is dict:
                self.tuple(v, sub, indent)
            else:
                self.value(v, None, indent, None)
        out.append(")")


def encode_tealeaf(data: Any, compact: bool = False, compact_floats: bool = False) -> str:
    """JSON value → TeaLeaf text, as ``tealeaf from-json`` (with ``--compact --compact-floats`` options)."""
    is_root_array = type(data) is list
    doc = data if type(data) is dict else {"root": data}
    inferrer = Inferrer()
    for k, v in doc.items():
        inferrer.analyze_value(k, v)
    schemas = inferrer.schemas
    w = _Writer(schemas, compact, compact_floats)
    out = w.out
    if is_root_array:
        out.append("@root-array\n" if compact else "@root-array\n\n")
    for schema in schemas.values():
        fields = w.sep.join(f"{quote(f.name)}{w.kv}{f.type_text()}" for f in schema.fields)
        out.append(f"@struct {schema.name}{'' if compact else ' '}({fields})\n")
    if schemas and not compact:
        out.append("\n")
    for k, v in doc.items():
        out.append(quote(k))
        out.append(w.kv)
        w.value(v, k, 0, None)
        out.append("\n")
    return "".join(out)
