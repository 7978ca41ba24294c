"""TeaLeaf text: how strings and keys are quoted, and the ``@struct`` schemas inferred from uniform arrays of objects.

Shared by the encoder (which writes the schemas) and the parser (which binds rows to them). The rules are the
``tealeaf from-json`` CLI's, described in ``coonbench.formats.tealeaf``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_BARE_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")
_RESERVED_WORDS = frozenset({"true", "false", "null", "~", "NaN", "inf", "Infinity"})
# Primitive type keywords of the grammar: a struct may not be named after one of them.
_TYPE_KEYWORDS = frozenset(
    "bool int int8 int16 int32 int64 uint uint8 uint16 uint32 uint64 float float32 float64 string bytes "
    "timestamp any object".split()
)

_ESCAPES = {ord("\\"): "\\\\", ord('"'): '\\"', ord("\n"): "\\n", ord("\t"): "\\t", ord("\r"): "\\r",
            0x08: "\\b", 0x0C: "\\f"}
for _cp in [*range(0x20), *range(0x7F, 0xA0)]:
    _ESCAPES.setdefault(_cp, f"\\u{_cp:04x}")
_NEEDS_ESCAPE_RE = re.compile('[\\\\"\x00-\x1f\x7f-\x9f]')

_quote_cache: dict[str, str] = {}


def needs_quoting(s: str) -> bool:
    """Whether a string (or key) must be double-quoted to read back as the same string."""
    return s in _RESERVED_WORDS or _BARE_RE.match(s) is None


def quote(s: str) -> str:
    """A string value or key as TeaLeaf text (memoised: data repeats the same strings a lot)."""
    out = _quote_cache.get(s)
    if out is None:
        if needs_quoting(s):
            body = s.translate(_ESCAPES) if _NEEDS_ESCAPE_RE.search(s) else s
            out = f'"{body}"'
        else:
            out = s
        if len(_quote_cache) < 200_000:
            _quote_cache[s] = out
    return out



def singularize(name: str) -> str:
    """The CLI's schema-name heuristic: lowercase; -ies→-y; -sses/-xes/-ches/-shes drop -es; -s drops -s."""
    name = name.lower()
    if name.endswith("ies"):
        return name[:-3] + "y"
    if name.endswith(("sses", "xes", "ches", "shes")):
        return name[:-2]
    if len(name.encode("utf-8", "surrogatepass")) > 1 and name.endswith("s") and not name.endswith("ss"):
        return name[:-1]
    return name


# Inferred types: ("null",) ("bool",) ("int",) ("float",) ("string",) ("mixed",)
# ("array", inner) ("object", ((key, type), ...))
_NULL, _BOOL, _INT, _FLOAT, _STRING, _MIXED = ("null",), ("bool",), ("int",), ("float",), ("string",), ("mixed",)


def _merge(a: tuple, b: tuple) -> tuple:
    if a == b:
        return a
    if a is _NULL or a == _NULL:
        return b
    if b == _NULL:
        return a
    if {a[0], b[0]} == {"int", "float"}:
        return _FLOAT
    if a[0] == "array" and b[0] == "array":
        return ("array", _merge(a[1], b[1]))
    if a[0] == "object" and b[0] == "object":
        bmap = dict(b[1])
        merged = tuple((k, _merge(t, bmap[k])) for k, t in a[1] if k in bmap)
        return ("object", merged) if merged else _MIXED
    return _MIXED


_SCALAR_TYPES: dict[type, tuple] = {type(None): _NULL, bool: _BOOL, int: _INT, float: _FLOAT, str: _STRING}


def _infer(v: Any, memo: dict[int, tuple] | None = None) -> tuple:
    """Inferred type of a JSON value; ``memo`` (by id, valid while the values live) avoids re-walking subtrees."""
    t = type(v)
    st = _SCALAR_TYPES.get(t)
    if st is not None:
        return st
    if memo is not None:
        hit = memo.get(id(v))
        if hit is not None:
            return hit
    if t is list:
        if not v:
            out: tuple = ("array", _MIXED)
        else:
            et = _infer(v[0], memo)
            for item in v[1:]:
                it = _infer(item, memo)
                if it is not et:
                    et = _merge(et, it)
            out = ("array", et)
    elif t is dict:
        out = ("object", tuple((k, _infer(x, memo)) for k, x in v.items()))
    else:
        out = _MIXED
    if memo is not None:
        memo[id(v)] = out
    return out


@dataclass
class Field:
    name: str
    base: str
    is_array: bool = False
    nullable: bool = False

    def type_text(self) -> str:
        return ("[]" if self.is_array else "") + self.base + ("?" if self.nullable else "")


@dataclass
class Schema:
    """A ``@struct``: name and ordered fields."""

    name: str
    fields: list[Field] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.by_name = {f.name: f for f in self.fields}
        self.required = [f.name for f in self.fields if not f.nullable]

    def add(self, f: Field) -> None:
        self.fields.append(f)
        self.by_name[f.name] = f
        if not f.nullable:
            self.required.append(f.name)


def object_matches(keys: Any, schema: Schema) -> bool:
    """Every non-nullable field present and every key a field (the CLI's structural match)."""
    if type(keys) is dict:
        keys = keys.keys()
    elif type(keys) is not set:
        keys = set(keys)
    return keys <= schema.by_name.keys() and all(r in keys for r in schema.required)


def _to_field_type(t: tuple, schemas: dict[str, Schema]) -> Field:
    kind = t[0]
    if kind == "null":
        return Field("", "string", nullable=True)
    if kind in ("bool", "int", "float", "string"):
        return Field("", kind)
    if kind == "array":
        inner = _to_field_type(t[1], schemas)
        return Field("", inner.base, True, inner.nullable)
    if kind == "object":
        names = {k for k, _ in t[1]}
        for name, schema in schemas.items():
            if object_matches(names, schema):
                return Field("", name)
        return Field("", "any")
    return Field("", "any")


class Inferrer:
    """Schema inference over uniform arrays of objects, in the CLI's depth-first order."""

    def __init__(self) -> None:
        self.schemas: dict[str, Schema] = {}
        self.memo: dict[int, tuple] = {}

    def analyze_value(self, hint: str, value: Any) -> None:
        if type(value) is list:
            self.analyze_array(hint, value)
        elif type(value) is dict:
            for k, v in value.items():
                self.analyze_value(k, v)

    def _field_stats(self, objs: list[dict]) -> tuple[list[str], dict[str, int], dict[str, tuple], dict[str, bool]]:
        count: dict[str, int] = {}
        most_idx, most_len = 0, 0
        for i, obj in enumerate(objs):
            for k in obj:
                count[k] = count.get(k, 0) + 1
            if len(obj) > most_len:
                most_len, most_idx = len(obj), i
        names = list(objs[most_idx]) if objs else []
        rep = objs[most_idx] if objs else {}
        names += [k for k in count if k not in rep]
        types: dict[str, tuple] = {}
        has_null: dict[str, bool] = {}
        memo = self.memo
        sget = _SCALAR_TYPES.get
        for obj in objs:
            for k, v in obj.items():
                t = sget(type(v))
                if t is None:
                    t = _infer(v, memo)
                elif t is _NULL:
                    has_null[k] = True
                old = types.get(k)
                if old is not t:
                    types[k] = t if old is None else _merge(old, t)
        total = len(objs)
        for k, c in count.items():
            if c < total:
                has_null[k] = True
        return names, count, types, has_null

    def _recurse_fields(self, names: list[str], objs: list[dict], skip_self: str | None) -> None:
        for fname in names:
            rep = next((o[fname] for o in objs if fname in o), None)
            if type(rep) is list:
                nested = [x for o in objs if type(o.get(fname)) is list for x in o[fname]]
                if nested:
                    self.analyze_array(fname, nested)
            elif type(rep) is dict:
                if skip_self is not None and singularize(fname) == skip_self:
                    continue
                nested_objs = [o[fname] for o in objs if type(o.get(fname)) is dict]
                if nested_objs:
                    self.analyze_nested_objects(fname, nested_objs)

    def analyze_array(self, hint: str, arr: list) -> None:
        if not arr or any(type(x) is not dict for x in arr):
            return
        names, count, types, has_null = self._field_stats(arr)
        if not names or "" in names or needs_quoting(hint):
            return
        if not any(c == len(arr) for c in count.values()):
            return
        schema_name = singularize(hint)
        if schema_name in self.schemas or schema_name in _TYPE_KEYWORDS:
            return
        self._recurse_fields(names, arr, schema_name)
        if schema_name in self.schemas:
            return
        schema = Schema(schema_name)
        for fname in names:
            t = types[fname]
            ft = self._field(fname, t, bool(has_null.get(fname)))
            nested_name = singularize(fname)
            rep_arr = next((o[fname] for o in arr if type(o.get(fname)) is list), None)
            if rep_arr is not None and nested_name in self.schemas:
                if _array_matches(rep_arr, self.schemas[nested_name]):
                    ft.base, ft.is_array = nested_name, True
            if nested_name != schema_name and nested_name in self.schemas and t[0] == "object":
                ft.base, ft.is_array = nested_name, False
            schema.add(ft)
        self.schemas[schema_name] = schema

    def _field(self, name: str, t: tuple, has_null: bool) -> Field:
        """The field ``name`` of type ``t`` (nullable when a row holds null there)."""
        ft = _to_field_type(t, self.schemas)
        ft.name = name
        if has_null:
            ft.nullable = True
        return ft

    def analyze_nested_objects(self, fname: str, objs: list[dict]) -> None:
        if not objs:
            return
        names, count, types, has_null = self._field_stats(objs)
        schema_name = singularize(fname)
        if not names or "" in names or needs_quoting(schema_name):
            return
        if not any(c == len(objs) for c in count.values()):
            return
        if schema_name in self.schemas or schema_name in _TYPE_KEYWORDS:
            return
        self._recurse_fields(names, objs, None)
        schema = Schema(schema_name)
        for nf in names:
            t = types[nf]
            ft = self._field(nf, t, bool(has_null.get(nf)))
            nested_name = singularize(nf)
            if t[0] == "array":
                rep_arr = next((o[nf] for o in objs if type(o.get(nf)) is list), None)
                if rep_arr is not None and nested_name in self.schemas:
                    if _array_matches(rep_arr, self.schemas[nested_name]):
                        ft.base, ft.is_array = nested_name, True
            if nested_name in self.schemas and t[0] == "object":
                # The CLI drops `?` here (a nested struct field of a nested object).
                ft = Field(nf, nested_name)
            schema.add(ft)
        self.schemas[schema_name] = schema


def _array_matches(arr: list, schema: Schema) -> bool:
    if not arr or type(arr[0]) is not dict:
        return False
    names = schema.by_name
    overlap = sum(1 for k in arr[0] if k in names)
    return overlap > len(schema.fields) // 2 or overlap == len(schema.fields)


def fits(value: Any, schema: Schema, schemas: dict[str, Schema]) -> bool:
    """Whether writing ``value`` as a tuple of ``schema`` loses nothing (this encoder's safety check)."""
    if type(value) is not dict or not object_matches(value, schema):
        return False
    for f in schema.fields:
        if f.name not in value:
            continue
        v = value[f.name]
        sub = schemas.get(f.base)
        if sub is None or v is None:
            continue
        if f.is_array:
            if type(v) is list and not all(type(x) is not dict or fits(x, sub, schemas) for x in v):
                return False
        elif type(v) is dict and not fits(v, sub, schemas):
            return False
    return True
