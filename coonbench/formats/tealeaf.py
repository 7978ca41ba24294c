"""TeaLeaf (krishjag/tealeaf) text format: a pure-Python JSON→TeaLeaf encoder and a TeaLeaf→JSON decoder.

Why this exists: TeaLeaf has no Python implementation, and its accuracy benchmark sends data to models as
the output of ``tealeaf from-json`` (``--compact --compact-floats`` for prompts). The encoder reproduces that
CLI byte for byte (checked against the 44 CLI-generated fixtures in ``../shared/reference/tealeaf``); the
decoder reads everything the encoder emits plus the plain-data part of the TeaLeaf text grammar, so that
round trips and validity can be checked.

Encoder rules (the CLI's code, which differs from the stale spec §6.3):

* No header. A root array becomes ``@root-array`` + key ``root``; a scalar root becomes ``root: v``.
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

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from coonbench.formats.base import Format, FormatError, register

# ---------------------------------------------------------------------------------------------------------
# Encoder
# ---------------------------------------------------------------------------------------------------------

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


def _str(s: str) -> str:
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


def singularize(name: str) -> str:
    """The CLI's schema-name heuristic: lowercase; -ies→-y; -sses/-xes/-ches/-shes drop -es; -s drops -s."""
    name = name.lower()
    if name.endswith("ies"):
        return name[:-3] + "y"
    if name.endswith(("sses", "xes", "ches", "shes")):
        return name[:-2]
    if len(name.encode()) > 1 and name.endswith("s") and not name.endswith("ss"):
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
class _Field:
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
    fields: list[_Field] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.by_name = {f.name: f for f in self.fields}
        self.required = [f.name for f in self.fields if not f.nullable]

    def add(self, f: _Field) -> None:
        self.fields.append(f)
        self.by_name[f.name] = f
        if not f.nullable:
            self.required.append(f.name)


def _object_matches(keys: Any, schema: Schema) -> bool:
    """Every non-nullable field present and every key a field (the CLI's structural match)."""
    if type(keys) is dict:
        keys = keys.keys()
    elif type(keys) is not set:
        keys = set(keys)
    return keys <= schema.by_name.keys() and all(r in keys for r in schema.required)


def _to_field_type(t: tuple, schemas: dict[str, Schema]) -> _Field:
    kind = t[0]
    if kind == "null":
        return _Field("", "string", nullable=True)
    if kind in ("bool", "int", "float", "string"):
        return _Field("", kind)
    if kind == "array":
        inner = _to_field_type(t[1], schemas)
        return _Field("", inner.base, True, inner.nullable)
    if kind == "object":
        names = {k for k, _ in t[1]}
        for name, schema in schemas.items():
            if _object_matches(names, schema):
                return _Field("", name)
        return _Field("", "any")
    return _Field("", "any")


class _Inferrer:
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
            ft = _to_field_type(t, self.schemas)
            ft.name = fname
            if has_null.get(fname):
                ft.nullable = True
            nested_name = singularize(fname)
            rep_arr = next((o[fname] for o in arr if type(o.get(fname)) is list), None)
            if rep_arr is not None and nested_name in self.schemas:
                if _array_matches(rep_arr, self.schemas[nested_name]):
                    ft.base, ft.is_array = nested_name, True
            if nested_name != schema_name and nested_name in self.schemas and t[0] == "object":
                ft.base, ft.is_array = nested_name, False
            schema.add(ft)
        self.schemas[schema_name] = schema

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
            ft = _to_field_type(t, self.schemas)
            ft.name = nf
            if has_null.get(nf):
                ft.nullable = True
            nested_name = singularize(nf)
            if t[0] == "array":
                rep_arr = next((o[nf] for o in objs if type(o.get(nf)) is list), None)
                if rep_arr is not None and nested_name in self.schemas:
                    if _array_matches(rep_arr, self.schemas[nested_name]):
                        ft.base, ft.is_array = nested_name, True
            if nested_name in self.schemas and t[0] == "object":
                # The CLI drops `?` here (a nested struct field of a nested object).
                ft = _Field(nf, nested_name)
            schema.add(ft)
        self.schemas[schema_name] = schema


def _array_matches(arr: list, schema: Schema) -> bool:
    if not arr or type(arr[0]) is not dict:
        return False
    names = schema.by_name
    overlap = sum(1 for k in arr[0] if k in names)
    return overlap > len(schema.fields) // 2 or overlap == len(schema.fields)


def _fits(value: Any, schema: Schema, schemas: dict[str, Schema]) -> bool:
    """Whether writing ``value`` as a tuple of ``schema`` loses nothing (this encoder's safety check)."""
    if type(value) is not dict or not _object_matches(value, schema):
        return False
    for f in schema.fields:
        if f.name not in value:
            continue
        v = value[f.name]
        sub = schemas.get(f.base)
        if sub is None or v is None:
            continue
        if f.is_array:
            if type(v) is list and not all(type(x) is not dict or _fits(x, sub, schemas) for x in v):
                return False
        elif type(v) is dict and not _fits(v, sub, schemas):
            return False
    return True


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
            return _str(v)
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
                    if _object_matches(v[0], cand):
                        schema = cand
                        break
            if (schema is not None and v and type(v[0]) is dict and _object_matches(v[0], schema)
                    and all(type(x) is not dict or _fits(x, schema, self.schemas) for x in v)):
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
                    if _object_matches(v, cand):
                        obj_schema = cand
                        break
            out.append("{")
            for i, (k, x) in enumerate(v.items()):
                if i:
                    out.append(self.sep)
                out.append(_str(k))
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
            # The row passed _fits (recursively), so nested struct values fit their structs.
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
    inferrer = _Inferrer()
    for k, v in doc.items():
        inferrer.analyze_value(k, v)
    schemas = inferrer.schemas
    w = _Writer(schemas, compact, compact_floats)
    out = w.out
    if is_root_array:
        out.append("@root-array\n" if compact else "@root-array\n\n")
    for schema in schemas.values():
        fields = w.sep.join(f"{_str(f.name)}{w.kv}{f.type_text()}" for f in schema.fields)
        out.append(f"@struct {schema.name}{'' if compact else ' '}({fields})\n")
    if schemas and not compact:
        out.append("\n")
    for k, v in doc.items():
        out.append(_str(k))
        out.append(w.kv)
        w.value(v, k, 0, None)
        out.append("\n")
    return "".join(out)


# ---------------------------------------------------------------------------------------------------------
# Decoder
# ---------------------------------------------------------------------------------------------------------


_TOKEN_RE = re.compile(
    r"""
    (?P<ws>[ \t\r\n\ufeff]+)
  | (?P<comment>\#[^\n]*)
  | (?P<mstring>\"\"\")
  | (?P<string>\")
  | (?P<bytes>b\")
  | (?P<timestamp>-?\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?)
  | (?P<hex>-?0[xX][0-9A-Za-z_]*)
  | (?P<bin>-?0[bB][0-9A-Za-z_]*)
  | (?P<number>-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)
  | (?P<neginf>-inf\b)
  | (?P<directive>@[A-Za-z_][A-Za-z0-9_-]*)
  | (?P<word>[^\W\d][\w.-]*)
  | (?P<punct>[:,()\[\]{}~!?])
    """,
    re.VERBOSE,
)
_STRING_BODY_RE = re.compile(r'(?:[^"\\]|\\.)*"', re.DOTALL)
_ESCAPE_RE = re.compile(r'\\(u[0-9A-Fa-f]{4}|.)')
_SIMPLE_UNESCAPE = {"\\": "\\", '"': '"', "n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "/": "/"}


@dataclass
class _Tok:
    kind: str
    text: str
    line: int
    col: int
    value: Any = None


class _Tuple(list):
    """A parenthesised tuple: bound to a struct in a table/struct context, otherwise a plain array."""

    line = 0
    col = 0


class _Tilde:
    """``~`` (absent in a table row; null elsewhere)."""

    def __repr__(self) -> str:
        return "~"


_TILDE = _Tilde()


def _unsupported(feature: str, tok: _Tok) -> FormatError:
    return FormatError(f"unsupported TeaLeaf feature: {feature}", tok.line, tok.col,
                       expected="plain data (values, objects, arrays, @struct/@table)")


def _tokenize(text: str) -> list[_Tok]:
    toks: list[_Tok] = []
    pos, line, line_start, n = 0, 1, 0, len(text)
    match = _TOKEN_RE.match
    while pos < n:
        m = match(text, pos)
        col = pos - line_start + 1
        if m is None:
            raise FormatError(f"unexpected character {text[pos]!r}", line, col, expected="a value, key or punctuation")
        kind = m.lastgroup
        end = m.end()
        assert kind is not None
        if kind == "ws" or kind == "comment":
            nl = text.count("\n", pos, end)
            if nl:
                line += nl
                line_start = text.rindex("\n", pos, end) + 1
            pos = end
            continue
        if kind == "string":
            sm = _STRING_BODY_RE.match(text, end)
            if sm is None:
                raise FormatError("unterminated string", line, col, expected='a closing "')
            raw = text[end:sm.end() - 1]
            toks.append(_Tok("string", raw, line, col, _unescape(raw, line, col)))
            nl = raw.count("\n")
            if nl:
                line += nl
                line_start = text.rindex("\n", pos, sm.end()) + 1
            pos = sm.end()
            continue
        if kind == "mstring":
            close = text.find('"""', end)
            if close < 0:
                raise FormatError("unterminated multiline string", line, col, expected='a closing """')
            raw = text[end:close]
            toks.append(_Tok("string", raw, line, col, _dedent(raw)))
            nl = text.count("\n", pos, close + 3)
            if nl:
                line += nl
                line_start = text.rindex("\n", pos, close + 3) + 1
            pos = close + 3
            continue
        word = m.group()
        if kind in ("hex", "bin"):
            digits = word.lstrip("-")[2:]
            ok = re.fullmatch(r"[0-9A-Fa-f]+" if kind == "hex" else r"[01]+", digits)
            if not ok:
                raise FormatError(f"invalid {'hex' if kind == 'hex' else 'binary'} number: {word}", line, col,
                                  expected="hex digits" if kind == "hex" else "binary digits 0/1")
            toks.append(_Tok("number", word, line, col, int(word, 16 if kind == "hex" else 2)))
        elif kind == "number":
            nxt = text[end:end + 1]
            if nxt and (nxt.isalnum() or nxt in "_."):
                raise FormatError(f"bad number {text[pos:end + 1]!r}", line, col, expected="a number")
            is_float = "." in word or "e" in word or "E" in word
            toks.append(_Tok("number", word, line, col, float(word) if is_float else int(word)))
        elif kind == "neginf":
            toks.append(_Tok("number", word, line, col, float("-inf")))
        else:
            toks.append(_Tok(kind, word, line, col))
        pos = end
    toks.append(_Tok("eof", "", line, pos - line_start + 1))
    return toks


def _unescape(raw: str, line: int, col: int) -> str:
    if "\\" not in raw:
        return raw

    def repl(m: re.Match[str]) -> str:
        e = m.group(1)
        if e[0] == "u" and len(e) == 5:
            return chr(int(e[1:], 16))
        if e in _SIMPLE_UNESCAPE:
            return _SIMPLE_UNESCAPE[e]
        raise FormatError(f"bad escape sequence \\{e}", line, col, expected='one of \\\\ \\" \\n \\t \\r \\b \\f \\uXXXX')

    s = _ESCAPE_RE.sub(repl, raw)
    # Join UTF-16 surrogate pairs written as two \uXXXX escapes.
    return s.encode("utf-16", "surrogatepass").decode("utf-16") if re.search("[\ud800-\udfff]", s) else s


def _dedent(raw: str) -> str:
    lines = raw.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    indents = [len(x) - len(x.lstrip(" \t")) for x in lines if x.strip()]
    cut = min(indents, default=0)
    return "\n".join(x[cut:] for x in lines)


_WORD_VALUES: dict[str, Any] = {"true": True, "false": False, "null": None,
                                "NaN": float("nan"), "inf": float("inf"), "Infinity": float("inf")}


class _Parser:
    def __init__(self, text: str) -> None:
        self.toks = _tokenize(text)
        self.i = 0
        self.schemas: dict[str, Schema] = {}
        self.root_array = False
        self.errors: list[FormatError] = []

    def peek(self) -> _Tok:
        return self.toks[self.i]

    def next(self) -> _Tok:
        tok = self.toks[self.i]
        if tok.kind != "eof":
            self.i += 1
        return tok

    def expect(self, text: str, what: str) -> _Tok:
        tok = self.next()
        if tok.text != text or tok.kind not in ("punct",):
            got = "end of input" if tok.kind == "eof" else repr(tok.text)
            raise FormatError(f"expected {what}, got {got}", tok.line, tok.col, expected=what)
        return tok

    def _comma(self) -> None:
        tok = self.peek()
        if tok.kind == "punct" and tok.text == ",":
            self.next()

    def document(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        while True:
            tok = self.peek()
            if tok.kind == "eof":
                return data
            if tok.kind == "directive":
                self.next()
                if tok.text == "@struct":
                    self.struct_def()
                elif tok.text == "@root-array":
                    self.root_array = True
                elif tok.text in ("@union", "@include", "@map", "@table"):
                    if tok.text == "@table":
                        raise FormatError("@table must follow a key", tok.line, tok.col, expected="key: @table …")
                    raise _unsupported(tok.text, tok)
                else:
                    raise FormatError(f"unknown directive {tok.text}", tok.line, tok.col,
                                      expected="@struct, @table or @root-array")
                continue
            if tok.kind == "punct" and tok.text == "!":
                raise _unsupported("references (!name)", tok)
            key = self.key()
            self.expect(":", "':' after key")
            data[key] = self.value()
            self._comma()

    def key(self) -> str:
        tok = self.next()
        if tok.kind in ("word", "string"):
            return tok.value if tok.kind == "string" else tok.text
        if tok.kind == "number" and isinstance(tok.value, int):
            return tok.text
        got = "end of input" if tok.kind == "eof" else repr(tok.text)
        raise FormatError(f"expected a key, got {got}", tok.line, tok.col, expected="a key (name or quoted string)")

    def struct_def(self) -> None:
        name_tok = self.next()
        if name_tok.kind != "word":
            raise FormatError("expected a struct name after @struct", name_tok.line, name_tok.col, expected="a name")
        self.expect("(", "'(' after the struct name")
        schema = Schema(name_tok.text)
        while not (self.peek().kind == "punct" and self.peek().text == ")"):
            fname = self.key()
            ftype = _Field(fname, "string")
            if self.peek().text == ":" and self.peek().kind == "punct":
                self.next()
                if self.peek().text == "[":
                    self.next()
                    self.expect("]", "']' of an array type")
                    ftype.is_array = True
                t = self.next()
                if t.kind != "word":
                    raise FormatError(f"bad field type {t.text!r}", t.line, t.col, expected="a type name")
                ftype.base = t.text
                if self.peek().kind == "punct" and self.peek().text == "?":
                    self.next()
                    ftype.nullable = True
            schema.add(ftype)
            self._comma()
            if self.peek().kind == "eof":
                t = self.peek()
                raise FormatError("unclosed @struct field list", t.line, t.col, expected="')'")
        self.next()
        self.schemas[schema.name] = schema

    def value(self) -> Any:
        tok = self.next()
        kind = tok.kind
        if kind == "string" or kind == "number":
            return tok.value
        if kind == "word":
            return _WORD_VALUES.get(tok.text, tok.text)
        if kind == "punct":
            t = tok.text
            if t == "~":
                return _TILDE
            if t == "[":
                return self.seq("]", list)
            if t == "(":
                tup = self.seq(")", _Tuple)
                tup.line, tup.col = tok.line, tok.col
                return tup
            if t == "{":
                return self.obj()
            if t == "!":
                raise _unsupported("references (!name)", tok)
            if t == ":":
                raise _unsupported("tagged values (:tag value)", tok)
        if kind == "directive":
            if tok.text == "@table":
                return self.table(tok)
            raise _unsupported(tok.text, tok) if tok.text in ("@map", "@union") else FormatError(
                f"unknown directive {tok.text} as a value", tok.line, tok.col, expected="a value")
        if kind == "timestamp":
            raise _unsupported("timestamps", tok)
        if kind == "bytes":
            raise _unsupported("bytes literals", tok)
        got = "end of input" if kind == "eof" else repr(tok.text)
        raise FormatError(f"expected a value, got {got}", tok.line, tok.col, expected="a value")

    def seq(self, close: str, cls: type) -> Any:
        items = cls()
        while True:
            tok = self.peek()
            if tok.kind == "punct" and tok.text == close:
                self.next()
                return items
            if tok.kind == "eof":
                raise FormatError(f"unclosed bracket: expected '{close}'", tok.line, tok.col, expected=f"'{close}'")
            items.append(self.value())
            tok = self.peek()
            if tok.kind == "punct" and tok.text == ",":
                self.next()
            elif not (tok.kind == "punct" and tok.text == close):
                if tok.kind == "eof":
                    continue
                raise FormatError(f"expected ',' or '{close}', got {tok.text!r}", tok.line, tok.col,
                                  expected=f"',' or '{close}'")

    def obj(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        while True:
            tok = self.peek()
            if tok.kind == "punct" and tok.text == "}":
                self.next()
                return out
            if tok.kind == "eof":
                raise FormatError("unclosed brace: expected '}'", tok.line, tok.col, expected="'}'")
            if tok.kind == "punct" and tok.text == "!":
                raise _unsupported("references (!name)", tok)
            k = self.key()
            self.expect(":", "':' after key")
            out[k] = self.value()
            self._comma()

    def table(self, at: _Tok) -> Any:
        name = self.next()
        if name.kind != "word":
            raise FormatError("expected a struct name after @table", name.line, name.col, expected="a struct name")
        schema = self.schemas.get(name.text)
        if schema is None:
            self.errors.append(FormatError(f"unknown struct '{name.text}' in @table", name.line, name.col,
                                           expected="a name defined by @struct"))
        tok = self.expect("[", "'[' after the @table struct name")
        rows = self.seq("]", list)
        if schema is None:
            return rows
        return [self.bind(r, schema) if isinstance(r, _Tuple) else r for r in rows] if rows else rows

    def bind(self, tup: _Tuple, schema: Schema) -> dict[str, Any]:
        if len(tup) != len(schema.fields):
            self.errors.append(FormatError(
                f"row has {len(tup)} values but struct '{schema.name}' has {len(schema.fields)} fields",
                tup.line, tup.col, expected=f"{len(schema.fields)} values"))
        out: dict[str, Any] = {}
        for f, v in zip(schema.fields, tup):
            if v is _TILDE:
                if not f.nullable:
                    out[f.name] = None
                continue
            sub = self.schemas.get(f.base)
            if sub is not None:
                if f.is_array and type(v) is list:
                    v = [self.bind(x, sub) if isinstance(x, _Tuple) else x for x in v]
                elif not f.is_array and isinstance(v, _Tuple):
                    v = self.bind(v, sub)
            out[f.name] = v
        return out


def _plain(v: Any) -> Any:
    """Parse tree → JSON value: leftover tuples are arrays, ``~`` is null, NaN/inf are null (as TeaLeaf's JSON)."""
    t = type(v)
    if t is dict:
        return {k: _plain(x) for k, x in v.items()}
    if t is list or t is _Tuple:
        return [_plain(x) for x in v]
    if v is _TILDE:
        return None
    if t is float and (v != v or v in (float("inf"), float("-inf"))):
        return None
    return v


def parse_tealeaf(text: str) -> tuple[Any, list[FormatError]]:
    """TeaLeaf text → (JSON value, non-fatal errors such as row-width mismatches). Raises on syntax errors."""
    p = _Parser(text)
    data = p.document()
    value: Any = {k: _plain(v) for k, v in data.items()}
    if p.root_array:
        if list(value) == ["root"]:
            value = value["root"]
        else:
            value = list(value.values())
    return value, p.errors


def decode_tealeaf(text: str) -> Any:
    """TeaLeaf text → JSON value; FormatError (with line/column) for the first problem found."""
    value, errors = parse_tealeaf(text)
    if errors:
        raise errors[0]
    return value


# ---------------------------------------------------------------------------------------------------------
# Format plug-ins
# ---------------------------------------------------------------------------------------------------------

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
    description = "TeaLeaf text (schema-aware: @struct + @table rows), as `tealeaf from-json` writes it"
    kind = "data"
    fence = "tealeaf"
    lossless = True
    _compact = False

    def encode(self, source: Any) -> str:
        return encode_tealeaf(source, compact=self._compact, compact_floats=self._compact)

    def decode(self, text: str) -> Any:
        return decode_tealeaf(text)

    def validate(self, text: str) -> list[FormatError]:
        try:
            _, errors = parse_tealeaf(text)
        except FormatError as err:
            return [err]
        except RecursionError:
            return [FormatError("nesting too deep")]
        return errors

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        return _PRIMER_SHORT if variant == "short" else _PRIMER_FULL


class TeaLeafCompactFormat(TeaLeafFormat):
    """TeaLeaf text, compact with compact floats (``--compact --compact-floats``, as its benchmark sends it)."""

    name = "tealeaf-compact"
    description = "TeaLeaf text, compact with compact floats (the form TeaLeaf's accuracy benchmark sends)"
    # Lossless in value: whole-number floats come back as equal ints (100.0 → 100, -0.0 → 0).
    lossless = True
    _compact = True


register(TeaLeafFormat())
register(TeaLeafCompactFormat())
