"""XML with a documented, deterministic and invertible mapping of JSON values (standard library only).

Mapping (``decode(encode(x)) == x`` for every JSON value, types included):

* The document element is ``<root>``; it holds the top-level value like any other element.
* Object: one child element per key, in order. A key that is a valid XML name (letters, digits, ``_ - .``,
  not starting with a digit, ``-``, ``.`` or ``xml``) is the element name; any other key is written
  ``<_ key="the key">`` (the ``key`` attribute escaped by the serializer). An empty object is
  ``<k type="object"/>``.
* Array: ``<k type="array">`` holding one ``<item>`` element per entry (empty array: no children).
* String: the element's text, no attribute (empty string: ``<k></k>``). A string holding a character that
  XML 1.0 cannot carry or would normalise (control characters, ``\\r``, lone surrogates) is written
  JSON-escaped with ``enc="json"`` (each surrogate as its own ``\\uXXXX``, never paired, and other characters
  as they are); a key attribute likewise gets ``keyenc="json"``.
* Number: ``type="int"`` (decimal text) or ``type="float"`` (Python ``repr``), so ``1`` and ``1.0`` differ.
* Boolean: ``type="bool"`` with text ``true``/``false``; null: ``<k type="null"/>``.

The text is pretty-printed with two-space indentation; indentation only goes between elements, never into
a string's text.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any, Literal

from coonbench.formats._limits import MAX_DEPTH, check_value, position, too_deep, too_long_int
from coonbench.formats.base import Format, FormatError, register

_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")
# Characters XML 1.0 cannot carry literally (or that parsers normalise, like \r).
_BAD_XML_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\r\ud800-\udfff\ufffe\uffff]")


def _valid_name(key: str) -> bool:
    return bool(_NAME_RE.match(key)) and not key.lower().startswith("xml") and key not in ("_", "item")


def _safe(s: str) -> tuple[str, bool]:
    """JSON-style escapes for a string XML cannot carry; every surrogate on its own, never as a pair, so that
    a raw pair of lone surrogates and the character they would pair into stay distinct."""
    if _BAD_XML_CHARS.search(s):
        escaped = json.dumps(s, ensure_ascii=False)[1:-1]  # control characters and \r escaped
        return _BAD_XML_CHARS.sub(lambda m: f"\\u{ord(m.group()):04x}", escaped), True
    return s, False


def _element(tag_key: str | None, value: Any, parent: ET.Element | None) -> ET.Element:
    if tag_key is None:
        tag, attrs = "item", {}
    elif _valid_name(tag_key):
        tag, attrs = tag_key, {}
    else:
        text, escaped = _safe(tag_key)
        tag, attrs = "_", {"key": text}
        if escaped:
            attrs["keyenc"] = "json"
    el = ET.Element(tag, attrs) if parent is None else ET.SubElement(parent, tag, attrs)
    _fill(el, value)
    return el


def _fill(el: ET.Element, value: Any) -> None:
    if value is None:
        el.set("type", "null")
    elif value is True or value is False:
        el.set("type", "bool")
        el.text = "true" if value else "false"
    elif isinstance(value, int):
        el.set("type", "int")
        el.text = str(value)
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise FormatError(f"{value} is not a JSON number")
        el.set("type", "float")
        el.text = repr(value)
    elif isinstance(value, str):
        text, escaped = _safe(value)
        if escaped:
            el.set("enc", "json")
        el.text = text
    elif isinstance(value, list):
        el.set("type", "array")
        for item in value:
            _element(None, item, el)
    elif isinstance(value, dict):
        if not value:
            el.set("type", "object")
        for k, v in value.items():
            if not isinstance(k, str):
                raise FormatError(f"object key {k!r} is not a string")
            _element(k, v, el)
    else:
        raise FormatError(f"cannot encode a {type(value).__name__} value as XML")


_UNESCAPE_RE = re.compile(r"\\(u[0-9A-Fa-f]{4}|.)", re.DOTALL)
_SIMPLE_UNESCAPE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _unjson(s: str) -> str:
    """Undo ``_safe``: each ``\\uXXXX`` is one code point (surrogates are not paired)."""

    def repl(m: re.Match[str]) -> str:
        e = m.group(1)
        if len(e) == 5:
            return chr(int(e[1:], 16))
        if e in _SIMPLE_UNESCAPE:
            return _SIMPLE_UNESCAPE[e]
        raise FormatError(f"bad escape \\{e} in a JSON-escaped (enc=\"json\") text",
                          expected='\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX')

    return _UNESCAPE_RE.sub(repl, s)


def _value(el: ET.Element, depth: int = 0) -> Any:
    if depth > MAX_DEPTH:
        raise too_deep(None, None)
    t = el.get("type")
    children = list(el)
    if t is None:
        if children:
            out: dict[str, Any] = {}
            for child in children:
                out[_key(child)] = _value(child, depth + 1)
            return out
        text = el.text or ""
        return _unjson(text) if el.get("enc") == "json" else text
    if t == "object":
        return {_key(c): _value(c, depth + 1) for c in children}
    if t == "array":
        return [_value(c, depth + 1) for c in children]
    text = (el.text or "").strip()
    try:
        if t == "null":
            return None
        if t == "bool":
            if text not in ("true", "false"):
                raise ValueError(text)
            return text == "true"
        if t == "int":
            try:
                return int(text)
            except ValueError:
                if text.lstrip("+-").isdigit():
                    raise too_long_int(text) from None
                raise
        if t == "float":
            return float(text)
    except FormatError:
        raise
    except ValueError:
        raise FormatError(f"<{el.tag}> has type=\"{t}\" but text {text[:80]!r}", expected=f"a {t} value") from None
    raise FormatError(f"<{el.tag}> has unknown type=\"{t}\"", expected="object, array, int, float, bool or null")


def _key(el: ET.Element) -> str:
    if el.tag == "_":
        key = el.get("key")
        if key is None:
            raise FormatError("<_> element without a key attribute", expected='<_ key="…">')
        return _unjson(key) if el.get("keyenc") == "json" else key
    return el.tag


class XmlFormat(Format):
    """XML (see module docstring for the mapping)."""

    name = "xml"
    label = "XML"
    description = "XML: one element per key, <item> per array entry, type attributes for non-strings"
    kind = "data"
    fence = "xml"
    lossless = True

    def encode(self, source: Any) -> str:
        check_value(source, "XML")
        root = _element("root", source, None)
        ET.indent(root, space="  ")
        return ET.tostring(root, encoding="unicode") + "\n"

    def decode(self, text: str) -> Any:
        try:
            root = ET.fromstring(text)
        except ET.ParseError as err:
            line, col = err.position
            msg = str(err).split(":")[0]
            raise FormatError(msg, line, col + 1, expected="well-formed XML") from None
        except UnicodeEncodeError as err:  # expat reads UTF-8: a lone surrogate cannot be handed to it
            line, col = position(text, err.start)
            raise FormatError(f"character {text[err.start]!r} (a lone surrogate) cannot be XML text", line, col,
                              expected="well-formed XML") from None
        if root.tag != "root":
            raise FormatError(f"document element is <{root.tag}>, not <root>", 1, expected="<root>")
        return _value(root)

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        if variant == "short":
            return "XML: Tag-based tree structure with nested elements."
        return ("XML: the document is one <root> element holding the value; each object key is an element "
                "holding its value; arrays are elements with type=\"array\" holding one <item> per entry; integers "
                "carry type=\"int\", other numbers type=\"float\", booleans type=\"bool\" (text true or false) and "
                "null type=\"null\"; an empty object is type=\"object\"; plain text is a string; keys that are "
                "not XML names appear as <_ key=\"…\">.")


register(XmlFormat())
