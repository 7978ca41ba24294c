"""YAML via PyYAML: key order kept, Unicode written as is, and every string another YAML reader could take
for a number, boolean or null quoted (YAML 1.1 *and* 1.2 core schema: ``yes``, ``null``, ``1e3``, ``0o17``…).
"""

from __future__ import annotations

import re
from typing import Any, Literal

import yaml

from coonbench.formats._limits import MAX_DEPTH, check_size, check_value, long_int_error, too_deep, \
    yaml_flow_depth_index
from coonbench.formats.base import Format, FormatError, register

# YAML 1.2 core-schema scalars that PyYAML (YAML 1.1) does not itself treat as special.
_YAML12_NON_STRING = re.compile(
    r"""^(?:
        [-+]?[0-9]+
      | 0o[0-7]+ | 0x[0-9a-fA-F]+
      | [-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?
      | [-+]?\.(?:inf|Inf|INF) | \.(?:nan|NaN|NAN)
      | null|Null|NULL|~
      | true|True|TRUE|false|False|FALSE
      | yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|y|Y|n|N
    )$""",
    re.VERBOSE,
)


class _Dumper(yaml.SafeDumper):
    """SafeDumper that quotes ambiguous strings and never emits aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        # Indent list items under their key (`key:\n  - item`), as the TOON benchmark's YAML does.
        super().increase_indent(flow, False)


# Line breaks other than \n and non-printables: PyYAML mangles some of them in plain/single-quoted style
# (e.g. NEL \x85), so such strings are always double-quoted, where they are escaped.
_FORCE_DOUBLE = re.compile("[\x85\u2028\u2029\r\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufeff\ud800-\udfff]")


def _represent_str(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    if _FORCE_DOUBLE.search(data):
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style='"')
    if _YAML12_NON_STRING.match(data):
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style="'")
    return dumper.represent_str(data)


_Dumper.add_representer(str, _represent_str)


class _Loader(yaml.SafeLoader):
    """SafeLoader that refuses nesting past ``MAX_DEPTH`` (its composer recurses once per level)."""

    _depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise yaml.composer.ComposerError(None, None, f"nesting deeper than {MAX_DEPTH} levels", mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class YamlFormat(Format):
    """Block-style YAML, as TOON's benchmark shows it."""

    name = "yaml"
    label = "YAML"
    description = "YAML, block style, key order kept (PyYAML, ambiguous strings quoted)"
    kind = "data"
    fence = "yaml"
    lossless = True
    max_chars = 256 * 1024
    """Longest text decode/validate read (PyYAML is pure Python: about 0.3 MB/s)."""

    def encode(self, source: Any) -> str:
        check_value(source, "YAML")
        try:
            return yaml.dump(source, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                             default_flow_style=False, width=2**31 - 1)
        except yaml.YAMLError as err:
            raise FormatError(f"cannot encode as YAML: {err}") from None

    def decode(self, text: str) -> Any:
        check_size(text, self.max_chars, self.name)
        # PyYAML's scanner is quadratic in the depth of flow collections ([[[…): refuse them before it runs.
        deep = yaml_flow_depth_index(text)
        if deep is not None:
            raise too_deep(text, deep)
        try:
            return yaml.load(text, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
        except RecursionError:
            raise too_deep(None, None) from None
        except yaml.MarkedYAMLError as err:
            mark = err.problem_mark or err.context_mark
            line = mark.line + 1 if mark is not None else None
            col = mark.column + 1 if mark is not None else None
            raise FormatError(str(err.problem or err.context or "invalid YAML"), line, col,
                              expected="valid YAML") from None
        except yaml.YAMLError as err:
            raise FormatError(f"invalid YAML: {err}") from None
        except FormatError:
            raise
        except ValueError as err:  # a scalar its type cannot hold: a 5,000-digit int, a 13th month
            long_int = long_int_error(text)
            if long_int.line is None:
                raise FormatError(f"invalid YAML value: {err}", expected="valid YAML") from None
            raise long_int from None

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        if variant == "short":
            return "YAML: Indentation-based key/value and lists (- items)."
        return ("YAML: `key: value` pairs; nesting by indentation; list items start with `- `; strings that "
                "could be read as numbers, booleans or null are quoted; `null` is null.")


register(YamlFormat())
