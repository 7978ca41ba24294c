"""TeaLeaf parser: tokens → JSON value, binding ``@table`` rows to their ``@struct`` schemas.

Semantics (``~`` versus ``null`` in rows, lexical number types) are described in ``coonbench.formats.tealeaf``.
"""

from __future__ import annotations

from typing import Any

from coonbench.formats.base import FormatError
from coonbench.formats._limits import MAX_DEPTH
from coonbench.formats.tealeaf.lex import TILDE, Token, TupleValue, tokenize, unsupported
from coonbench.formats.tealeaf.schema import Schema, Field

_WORD_VALUES: dict[str, Any] = {"true": True, "false": False, "null": None,
                                "NaN": float("nan"), "inf": float("inf"), "Infinity": float("inf")}


class _Parser:
    def __init__(self, text: str) -> None:
        self.toks = tokenize(text)
        self.i = 0
        self.schemas: dict[str, Schema] = {}
        self.root_array = False
        self.errors: list[FormatError] = []
        self.depth = 0

    def peek(self) -> Token:
        return self.toks[self.i]

    def next(self) -> Token:
        tok = self.toks[self.i]
        if tok.kind != "eof":
            self.i += 1
        return tok

    def expect(self, text: str, what: str) -> Token:
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
                    raise unsupported(tok.text, tok)
                else:
                    raise FormatError(f"unknown directive {tok.text}", tok.line, tok.col,
                                      expected="@struct, @table or @root-array")
                continue
            if tok.kind == "punct" and tok.text == "!":
                raise unsupported("references (!name)", tok)
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
            ftype = Field(fname, "string")
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
                return TILDE
            if t == "[":
                return self.seq("]", list)
            if t == "(":
                tup = self.seq(")", TupleValue)
                tup.line, tup.col = tok.line, tok.col
                return tup
            if t == "{":
                return self.obj()
            if t == "!":
                raise unsupported("references (!name)", tok)
            if t == ":":
                raise unsupported("tagged values (:tag value)", tok)
        if kind == "directive":
            if tok.text == "@table":
                return self.table(tok)
            raise unsupported(tok.text, tok) if tok.text in ("@map", "@union") else FormatError(
                f"unknown directive {tok.text} as a value", tok.line, tok.col, expected="a value")
        if kind == "timestamp":
            raise unsupported("timestamps", tok)
        if kind == "bytes":
            raise unsupported("bytes literals", tok)
        got = "end of input" if kind == "eof" else repr(tok.text)
        raise FormatError(f"expected a value, got {got}", tok.line, tok.col, expected="a value")

    def _nest(self) -> None:
        """Enter one more level of brackets; FormatError at the bracket past ``MAX_DEPTH`` (no deep recursion)."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            tok = self.toks[self.i - 1]
            raise FormatError(f"nesting deeper than {MAX_DEPTH} levels", tok.line, tok.col,
                              expected=f"at most {MAX_DEPTH} levels of arrays/objects")

    def seq(self, close: str, cls: type) -> Any:
        self._nest()
        try:
            return self._seq(close, cls)
        finally:
            self.depth -= 1

    def _seq(self, close: str, cls: type) -> Any:
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
        self._nest()
        try:
            return self._obj()
        finally:
            self.depth -= 1

    def _obj(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        while True:
            tok = self.peek()
            if tok.kind == "punct" and tok.text == "}":
                self.next()
                return out
            if tok.kind == "eof":
                raise FormatError("unclosed brace: expected '}'", tok.line, tok.col, expected="'}'")
            if tok.kind == "punct" and tok.text == "!":
                raise unsupported("references (!name)", tok)
            k = self.key()
            self.expect(":", "':' after key")
            out[k] = self.value()
            self._comma()

    def table(self, at: Token) -> Any:
        name = self.next()
        if name.kind != "word":
            raise FormatError("expected a struct name after @table", name.line, name.col, expected="a struct name")
        schema = self.schemas.get(name.text)
        if schema is None:
            self.errors.append(FormatError(f"unknown struct '{name.text}' in @table", name.line, name.col,
                                           expected="a name defined by @struct"))
        self.expect("[", "'[' after the @table struct name")
        rows = self.seq("]", list)
        if schema is None:
            return rows
        return [self.bind(r, schema) if isinstance(r, TupleValue) else r for r in rows] if rows else rows

    def bind(self, tup: TupleValue, schema: Schema) -> dict[str, Any]:
        if len(tup) != len(schema.fields):
            self.errors.append(FormatError(
                f"row has {len(tup)} values but struct '{schema.name}' has {len(schema.fields)} fields",
                tup.line, tup.col, expected=f"{len(schema.fields)} values"))
        out: dict[str, Any] = {}
        for f, v in zip(schema.fields, tup):
            if v is TILDE:
                if not f.nullable:
                    out[f.name] = None
                continue
            sub = self.schemas.get(f.base)
            if sub is not None:
                if f.is_array and type(v) is list:
                    v = [self.bind(x, sub) if isinstance(x, TupleValue) else x for x in v]
                elif not f.is_array and isinstance(v, TupleValue):
                    v = self.bind(v, sub)
            out[f.name] = v
        return out


def _plain(v: Any) -> Any:
    """Parse tree → JSON value: leftover tuples are arrays, ``~`` is null, NaN/inf are null (as TeaLeaf's JSON)."""
    t = type(v)
    if t is dict:
        return {k: _plain(x) for k, x in v.items()}
    if t is list or t is TupleValue:
        return [_plain(x) for x in v]
    if v is TILDE:
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
