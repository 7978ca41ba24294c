"""Markdown for data: ``markdown-kv`` (key-value blocks under headings) and ``markdown-table`` (GFM tables).

Why: in an independent study of table formats, Markdown key-value blocks were the layout models read most
accurately; users ask to put both Markdown layouts beside JSON, TOON and the rest on the same questions.

Both formats are lossless (decode returns exactly the encoded JSON value, key order included); encode checks
this by decoding its own output and raises ``FormatError`` rather than emit a text that would decode differently.

Scalars (kv values and table cells):
* numbers, ``true``, ``false``, ``null`` as in JSON (non-finite floats are refused);
* a string is written bare when it cannot be read as anything else: non-empty, no leading/trailing whitespace,
  not a JSON number/``true``/``false``/``null``, not starting with ``"``, ``[`` or ``{``, and free of ``|``,
  control characters, line/paragraph separators and surrogates; otherwise it is a JSON string literal in which
  ``|`` and those characters are written as ``\\uXXXX`` escapes (so no cell ever holds a literal ``|``);
* arrays, and empty objects, are written inline as compact JSON (same escapes).

Keys: bare when they are non-empty, have no leading/trailing whitespace, do not start with ``#``, ``"``, ``[``
or ``-`` and hold none of ``.`` ``:`` ``|`` ``"`` or the characters above; otherwise a JSON string literal.

Records are "flattened": a non-empty nested object contributes one ``path: value`` line per leaf, with the path
joined by ``.`` (``customer.name: Ada``); key order is kept.

Document layout (both formats):
* a root list of objects: one heading ``# [i]`` per element (1-based), then its flattened lines;
* a root object: its leading keys whose values are not "sections" as flattened lines, then one ``# key``
  section per remaining key, provided each of them is a section: a non-empty list of objects (records under
  ``## [i]`` headings), a non-empty object whose values are all non-empty objects (a keyed map: one
  ``## entry-key`` heading per entry), or another non-empty object (its flattened lines under the heading).
  When a later key is not a section (a scalar after a section would be read as part of it), the whole root is
  written as flattened lines with no heading;
* the empty object is the empty document; any other root (a scalar, a list of non-objects, an empty list) is
  refused with ``FormatError``.

``markdown-table`` differs in one place: a list of objects is written as one GFM table (``| a | b |``, a
``| --- |`` rule, one row per element) when the elements' flattened paths are each an in-order subsequence of
the header (the union of paths in first-seen order); an empty cell means "key absent" (an empty string is
``""``). A list that does not fit stays as ``## [i]`` records. Keyed maps stay as ``## entry-key`` records.

Decoding is line by line (linear time); any line that fits none of these shapes is a ``FormatError`` with its
line and column. Documents over ``MAX_DOCUMENT_CHARS`` (2 MiB, far beyond a model's context) are refused by both
encode and decode, which keeps decode of hostile text under a second; key paths and nesting are bounded at 200
levels.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from coonbench.formats._compare import first_difference
from coonbench.formats._limits import MAX_DEPTH, check_size
from coonbench.formats.base import Format, FormatError, register

_ESCAPE = re.compile("[|\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?\Z")
_BAD_BARE = re.compile("[|\"\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_BAD_KEY = re.compile("[.:|\"\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_INDEX = re.compile(r"\[([1-9][0-9]{0,8})\]\Z")
MAX_DOCUMENT_CHARS = 2 * 1024 * 1024  # beyond any model context; keeps decode well under a second
_KEY_END = re.compile("[.:]")
_LITERALS: dict[str, Any] = {"true": True, "false": False, "null": None}
_NOT_LITERAL = object()
_PLAIN_QUOTED_BAD = re.compile('["\\\\\x00-\x1f]')


def _escaped_json(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError) as err:
        raise FormatError(f"not a JSON value: {err}") from None
    return _ESCAPE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        bare = (value and value == value.strip() and not _BAD_BARE.search(value) and value[0] not in "[{"
                and value not in ("true", "false", "null") and not _NUMBER.match(value))
        return value if bare else _escaped_json(value)
    return _escaped_json(value)


def _key(key: str) -> str:
    if key and key == key.strip() and key[0] not in '#"[-' and not _BAD_KEY.search(key):
        return key
    return _escaped_json(key)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _read_value(text: str, line: int, col: int) -> Any:
    if text == "":
        raise FormatError("missing value", line, col, expected="a value")
    literal = _LITERALS.get(text, _NOT_LITERAL)
    if literal is not _NOT_LITERAL:
        return literal
    if _NUMBER.match(text):
        try:
            return float(text) if any(c in text for c in ".eE") else int(text)
        except ValueError as err:  # an integer beyond Python's digit limit
            raise FormatError(f"invalid number: {err}", line, col, expected="a JSON number") from None
    if text[0] == '"' and len(text) > 1 and text[-1] == '"' and not _PLAIN_QUOTED_BAD.search(text, 1, len(text) - 1):
        return text[1:-1]  # a quoted string without escapes: what json.loads would return, faster
    if text[0] in '"[{':
        try:
            return json.loads(text, parse_constant=_no_constant)
        except json.JSONDecodeError as err:
            raise FormatError(f"invalid value: {err.msg}", line, col + err.pos, expected="a JSON literal") from None
        except (ValueError, RecursionError) as err:
            raise FormatError(f"invalid value: {err}", line, col, expected="a JSON literal") from None
    if text != text.strip() or _BAD_BARE.search(text):
        raise FormatError("a bare string may not hold whitespace at its ends, '|', '\"' or control characters",
                          line, col, expected="a JSON string literal")
    return text


def _read_key(text: str, pos: int, line: int) -> tuple[str, int]:
    """One path segment starting at ``pos``: (key, position after it)."""
    if pos < len(text) and text[pos] == '"':
        try:
            key, end = json.JSONDecoder().raw_decode(text, pos)
        except json.JSONDecodeError as err:
            raise FormatError(f"invalid quoted key: {err.msg}", line, err.pos + 1, expected="a JSON string") from None
        if not isinstance(key, str):
            raise FormatError("a quoted key must be a string", line, pos + 1)
        return key, end
    stop = _KEY_END.search(text, pos)
    end = stop.start() if stop else len(text)
    key = text[pos:end]
    if not key or key != key.strip() or key[0] in '#"[-' or _BAD_KEY.search(key):
        raise FormatError(f"invalid key {key!r}", line, pos + 1, expected="a key")
    return key, end


def _read_path(text: str, line: int) -> tuple[list[str], int]:
    """A dotted path at the start of ``text``: (segments, position of the ':' after it)."""
    parts, pos = [], 0
    while True:
        key, pos = _read_key(text, pos, line)
        parts.append(key)
        if len(parts) > MAX_DEPTH:
            raise FormatError(f"key path deeper than {MAX_DEPTH} levels", line, pos + 1)
        if pos < len(text) and text[pos] == ".":
            pos += 1
            continue
        return parts, pos


# --- encoding -------------------------------------------------------------------------------------------


def _flatten(obj: dict[str, Any], prefix: str, out: list[tuple[str, str]], depth: int = 0) -> None:
    if depth > MAX_DEPTH:
        raise FormatError(f"nesting deeper than {MAX_DEPTH} levels")
    for k, v in obj.items():
        if not isinstance(k, str):
            raise FormatError(f"object key {k!r} is not a string")
        path = prefix + _key(k)
        if isinstance(v, dict) and v:
            _flatten(v, path + ".", out, depth + 1)
        else:
            out.append((path, _scalar(v)))


def _lines(obj: dict[str, Any]) -> list[str]:
    pairs: list[tuple[str, str]] = []
    _flatten(obj, "", pairs)
    return [f"{p}: {v}" for p, v in pairs]


def _is_records(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)


def _is_keyed(v: Any) -> bool:
    return isinstance(v, dict) and bool(v) and all(isinstance(x, dict) and x for x in v.values())


def _is_section(v: Any) -> bool:
    return _is_records(v) or (isinstance(v, dict) and bool(v))


def _table(rows: list[dict[str, Any]]) -> list[str] | None:
    """A GFM table for the rows, or None when some row's paths are not an in-order subsequence of the header."""
    flat: list[list[tuple[str, str]]] = []
    header: dict[str, None] = {}
    for row in rows:
        pairs: list[tuple[str, str]] = []
        _flatten(row, "", pairs)
        flat.append(pairs)
        header.update(dict.fromkeys(p for p, _ in pairs))
    columns = list(header)
    if not columns:
        return None
    index = {c: i for i, c in enumerate(columns)}
    out = ["| " + " | ".join(columns) + " |", "|" + "|".join(" --- " for _ in columns) + "|"]
    for pairs in flat:
        positions = [index[p] for p, _ in pairs]
        if positions != sorted(positions):
            return None
        cells = [""] * len(columns)
        for p, v in pairs:
            cells[index[p]] = v
        out.append("| " + " | ".join(cells) + " |")
    return out


def _records(items: list[dict[str, Any]], level: int, tables: bool) -> list[str]:
    if tables:
        table = _table(items)
        if table is not None:
            return table
    out: list[str] = []
    for i, item in enumerate(items, start=1):
        out += [f"{'#' * level} [{i}]", *_lines(item), ""]
    return out[:-1]


def _encode(source: Any, tables: bool) -> str:
    if _is_records(source):
        if tables:
            table = _table(source)
            if table is not None:
                return "\n".join(table) + "\n"
        return "\n".join(_records(source, 1, False)) + "\n"
    if not isinstance(source, dict):
        raise FormatError(f"markdown needs an object or a list of objects at the root, not {type(source).__name__}",
                          expected="an object or a list of objects")
    keys = list(source)
    first = next((i for i, k in enumerate(keys) if _is_section(source[k])), len(keys))
    if not all(_is_section(source[k]) for k in keys[first:]):
        return "\n".join(_lines(source)) + "\n"
    out = _lines({k: source[k] for k in keys[:first]})
    for k in keys[first:]:
        v = source[k]
        if out:
            out.append("")
        out.append(f"# {_key(k)}")
        if _is_records(v):
            out += _records(v, 2, tables)
        elif _is_keyed(v):
            for j, (ek, ev) in enumerate(v.items()):
                if j:
                    out.append("")
                out += [f"## {_key(ek)}", *_lines(ev)]
        else:
            out += _lines(v)
    return "\n".join(out) + "\n"


# --- decoding -------------------------------------------------------------------------------------------


def _assign(target: dict[str, Any], path: list[str], value: Any, line: int) -> None:
    cur = target
    for part in path[:-1]:
        nxt = cur.setdefault(part, {})
        if not isinstance(nxt, dict):
            raise FormatError(f"path {'.'.join(path)!r} conflicts with an earlier value", line, 1)
        cur = nxt
    if path[-1] in cur:
        raise FormatError(f"duplicate key {'.'.join(path)!r}", line, 1)
    cur[path[-1]] = value


def _kv_line(text: str, line: int, into: dict[str, Any]) -> None:
    path, pos = _read_path(text, line)
    if not text.startswith(": ", pos):
        raise FormatError("expected ': ' after the key", line, pos + 1, expected="key: value")
    _assign(into, path, _read_value(text[pos + 2 :], line, pos + 3), line)


def _split_row(text: str, line: int) -> list[str]:
    if not (text.startswith("|") and text.endswith("|")) or len(text) < 2:
        raise FormatError("a table row starts and ends with '|'", line, 1, expected="| cell | … |")
    return [c.strip() for c in text[1:-1].split("|")]


def _read_table(rows: list[tuple[int, str]]) -> list[dict[str, Any]]:
    hl, head = rows[0]
    rl, rule = rows[1] if len(rows) > 1 else (hl + 1, "")
    names = _split_row(head, hl)
    columns = [_read_path(c, hl) for c in names]
    for col, (_, end) in zip(names, columns):
        if end != len(col):
            raise FormatError(f"invalid column name {col!r}", hl, 1)
    rule_cells = _split_row(rule, rl) if rule.startswith("|") else []
    if len(rule_cells) != len(columns) or any(c.strip("-: ") or "-" not in c for c in rule_cells):
        raise FormatError("expected the header rule '| --- | … |'", rl, 1, expected="| --- |")
    paths = [path for path, _ in columns]
    if len(set(map(tuple, paths))) != len(paths):
        raise FormatError("duplicate column name", hl, 1)
    out = []
    for ln, text in rows[2:]:
        cells = _split_row(text, ln)
        if len(cells) != len(columns):
            raise FormatError(f"row has {len(cells)} cells but the header has {len(columns)}", ln, 1,
                              expected=f"{len(columns)} cells")
        row: dict[str, Any] = {}
        for path, cell in zip(paths, cells):
            if cell == "":
                continue
            if len(path) == 1:  # the common case: a flat column (distinct, so no duplicate is possible)
                if path[0] in row:
                    raise FormatError(f"path {path[0]!r} conflicts with an earlier value", ln, 1)
                row[path[0]] = _read_value(cell, ln, 1)
            else:
                _assign(row, path, _read_value(cell, ln, 1), ln)
        out.append(row)
    return out


def _read_block(lines: list[tuple[int, str]]) -> dict[str, Any] | list[dict[str, Any]]:
    """kv lines → an object, or a table → a list of rows."""
    if lines and lines[0][1].startswith("|"):
        return _read_table(lines)
    obj: dict[str, Any] = {}
    for ln, text in lines:
        _kv_line(text, ln, obj)
    return obj


def _heading(text: str, line: int) -> tuple[int, str]:
    level = len(text) - len(text.lstrip("#"))
    if level > 2 or not text.startswith("#" * level + " "):
        raise FormatError("a heading is '# key' or '## key'", line, 1, expected="# key")
    return level, text[level + 1 :]


def _decode(text: str) -> Any:
    # (level, title, line, body lines); level 0 = the lines before any heading
    sections: list[tuple[int, str, int, list[tuple[int, str]]]] = [(0, "", 0, [])]
    for ln, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip():
            continue
        if raw.startswith("#"):
            level, title = _heading(raw, ln)
            sections.append((level, title, ln, []))
        else:
            sections[-1][3].append((ln, raw))
    _, _, _, pre = sections[0]
    rest = sections[1:]
    if not rest:
        return _read_block(pre)  # an empty document is the empty object
    if pre and pre[0][1].startswith("|"):
        raise FormatError("a table before the first heading", pre[0][0], 1)
    root = _read_block(pre)
    assert isinstance(root, dict)
    if _INDEX.match(rest[0][1]) and rest[0][0] == 1:
        if pre:
            raise FormatError("lines before a root list", pre[0][0], 1)
        return _read_items(rest, 1, rest[0][2])
    i = 0
    while i < len(rest):
        level, title, ln, body = rest[i]
        if level != 1:
            raise FormatError("a '##' heading outside a '#' section", ln, 1, expected="# key")
        key, end = _read_key(title, 0, ln)
        if end != len(title):
            raise FormatError(f"invalid heading key {title!r}", ln, 3)
        j = i + 1
        while j < len(rest) and rest[j][0] == 2:
            j += 1
        subs = rest[i + 1 : j]
        if key in root:
            raise FormatError(f"duplicate key {key!r}", ln, 3)
        if subs:
            if body:
                raise FormatError("lines between a section heading and its '##' records", body[0][0], 1)
            if _INDEX.match(subs[0][1]):
                root[key] = _read_items(subs, 2, ln)
            else:
                keyed: dict[str, Any] = {}
                for _, stitle, sln, sbody in subs:
                    ek, eend = _read_key(stitle, 0, sln)
                    if eend != len(stitle) or ek in keyed or not sbody:
                        raise FormatError(f"invalid or duplicate entry heading {stitle!r}", sln, 4)
                    keyed[ek] = _read_block(sbody)
                root[key] = keyed
        elif not body:
            raise FormatError(f"section {key!r} is empty", ln, 1, expected="lines or a table under it")
        else:
            root[key] = _read_block(body)
        i = j
    return root


def _read_items(sections: list[tuple[int, str, int, list[tuple[int, str]]]], level: int, line: int) -> list[Any]:
    items: list[Any] = []
    for n, (lvl, title, ln, body) in enumerate(sections, start=1):
        m = _INDEX.match(title)
        if lvl != level or m is None or int(m.group(1)) != n:
            raise FormatError(f"expected record heading {'#' * level} [{n}]", ln, 1, expected=f"[{n}]")
        block = _read_block(body)
        if not isinstance(block, dict):
            raise FormatError("a table inside a record", ln, 1)
        items.append(block)
    return items


class _MarkdownFormat(Format):
    kind = "data"
    fence = "markdown"
    lossless = True
    tables: bool = False
    max_chars: int = MAX_DOCUMENT_CHARS

    def encode(self, source: Any) -> str:
        text = _encode(source, self.tables)
        check_size(text, self.max_chars, self.name)
        try:
            back = self.decode(text)
        except FormatError as err:
            raise FormatError(f"{self.name} cannot represent this value losslessly ({err.message})") from None
        difference = first_difference(source, back, numbers_by_value=False)
        if difference is not None:
            raise FormatError(f"{self.name} cannot represent this value losslessly ({difference})")
        return text

    def decode(self, text: str) -> Any:
        check_size(text, self.max_chars, self.name)
        try:
            return _decode(text)
        except RecursionError:
            raise FormatError("value nested too deeply") from None


class MarkdownKvFormat(_MarkdownFormat):
    """Key-value blocks: ``# section`` / ``## [i]`` headings, one ``key: value`` line per (dotted) field."""

    name = "markdown-kv"
    label = "Markdown key-value"
    description = "Markdown key-value blocks: headings per section and record, one 'key: value' line per field"

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        if variant == "short":
            return ("Markdown key-value: '# name' heads each collection and '## [N]' each record (numbered from 1); "
                    "one 'key: value' line per field, dotted keys for nested objects, lists inline as JSON.")
        return ("Markdown key-value: '# name' heads each top-level collection; under it '## [N]' heads record N of a "
                "list (from 1) and '## key' an entry of a keyed map. Each field is one 'key: value' line; "
                "nested objects use dotted keys (customer.name); lists and {} are inline JSON; strings that "
                "could be read as numbers, booleans or null are in double quotes.")


class MarkdownTableFormat(_MarkdownFormat):
    """GFM tables for lists of records (dotted column names for nested fields), key-value lines elsewhere."""

    name = "markdown-table"
    label = "Markdown table"
    description = "Markdown (GFM) tables: one table per list of records, 'key: value' lines for other objects"
    tables = True

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        if variant == "short":
            return ("Markdown table: '# name' heads each collection; a table's header names the fields (dotted for "
                    "nested ones), one row per record; an empty cell means the field is absent.")
        return ("Markdown table: '# name' heads each top-level collection; a list of records is one table whose "
                "header row names the fields (nested fields dotted, e.g. customer.name) and whose rows are the "
                "records in order; an empty cell means the record lacks that field; lists are inline JSON; other "
                "objects are 'key: value' lines; '## key' heads an entry of a keyed map.")


register(MarkdownKvFormat())
register(MarkdownTableFormat())
