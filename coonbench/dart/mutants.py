"""Dart mutants and equivalents for the validity check of the code scorers (``coonbench validate``).

Why: a scorer that calls a program correct must tell it from a program one edit away, and must accept the same
program written another way. Every mutant changes the program in one named way, by byte ranges of its tree, and
returns the mutated source or None when the program offers no place for that edit (e.g. no list with two different
children); every equivalent returns the program with the same tree, differently spelled.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import tree_sitter

from coonbench.dart.parse import parse_dart
from coonbench.dart.query import calls, iter_nodes, node_text

Mutant = Callable[[str], "str | None"]


def _root(source: str) -> tree_sitter.Node | None:
    try:
        return parse_dart(source).root_node
    except Exception:  # noqa: BLE001 - a source that does not parse has no mutants
        return None


def _splice(source: str, start: int, end: int, new: str) -> str:
    data = source.encode("utf-8")
    return (data[:start] + new.encode("utf-8") + data[end:]).decode("utf-8")


def _body_nodes(root: tree_sitter.Node, types: str | set[str]) -> list[tree_sitter.Node]:
    """Nodes of ``types`` outside imports (mutating an import URI tests nothing)."""
    return [n for n in iter_nodes(root, types) if not any(p.type == "import_or_export" for p in _ancestors(n))]


def _ancestors(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    out = []
    while node.parent is not None:
        node = node.parent
        out.append(node)
    return out


def changed_string(source: str) -> str | None:
    """The first plain string literal's text gets one more character."""
    root = _root(source)
    for node in _body_nodes(root, "string_literal") if root else []:
        text = node_text(node)
        if len(text) >= 2 and text[0] in "'\"" and text[-1] == text[0] and "$" not in text:
            return _splice(source, node.end_byte - 1, node.end_byte - 1, "x")
    return None


def changed_number(source: str) -> str | None:
    """The first integer or decimal literal plus one."""
    root = _root(source)
    for node in _body_nodes(root, {"decimal_integer_literal", "decimal_floating_point_literal"}) if root else []:
        text = node_text(node)
        try:
            new = str(int(text) + 1) if node.type == "decimal_integer_literal" else repr(float(text) + 1)
        except ValueError:
            continue
        return _splice(source, node.start_byte, node.end_byte, new)
    return None


def dropped_argument(source: str) -> str | None:
    """The first named argument of a widget call removed (with its comma)."""
    root = _root(source)
    for call in calls(root) if root else []:
        args = call.arguments
        if args is None:
            continue
        children = args.children
        for i, child in enumerate(children):
            if child.type == "named_argument" and node_text(child.child(0)).rstrip(":").strip() != "key":
                comma = i + 1 < len(children) and children[i + 1].type == ","
                end = children[i + 1].end_byte if comma else child.end_byte
                return _splice(source, child.start_byte, end, "")
    return None


def swapped_children(source: str) -> str | None:
    """The first two different elements of a list literal swapped (children order is layout)."""
    root = _root(source)
    for lst in _body_nodes(root, "list_literal") if root else []:
        groups: list[list[tree_sitter.Node]] = [[]]
        for child in lst.children:
            if child.type == ",":
                groups.append([])
            elif child.type not in ("[", "]") and child.type not in ("comment", "documentation_comment"):
                groups[-1].append(child)
        groups = [g for g in groups if g]
        if len(groups) < 2:
            continue
        a, b = groups[0], groups[1]
        ta = source.encode()[a[0].start_byte : a[-1].end_byte].decode()
        tb = source.encode()[b[0].start_byte : b[-1].end_byte].decode()
        if ta == tb:
            continue
        out = _splice(source, b[0].start_byte, b[-1].end_byte, ta)
        return _splice(out, a[0].start_byte, a[-1].end_byte, tb)
    return None


def renamed_widget(source: str) -> str | None:
    """The first widget constructor renamed to another widget of the document (else Container/SizedBox)."""
    root = _root(source)
    found = list(calls(root)) if root else []
    names = [c.name for c in found]
    for call in found:
        others = [n for n in names if n != call.name and "." not in n] + ["Container", "SizedBox"]
        other = next(n for n in others if n != call.name)
        node = call.name_node
        return _splice(source, node.start_byte, node.end_byte, other)
    return None


def deleted_statement(source: str) -> str | None:
    """The first statement of a block with more than one statement deleted."""
    root = _root(source)
    statement_types = {"expression_statement", "local_variable_declaration", "if_statement", "return_statement"}
    for block in _body_nodes(root, "block") if root else []:
        statements = [c for c in block.named_children if c.type in statement_types]
        if len(statements) >= 2:
            return _splice(source, statements[0].start_byte, statements[0].end_byte, "")
    return None


MUTANTS: dict[str, Mutant] = {
    "changed-string": changed_string,
    "changed-number": changed_number,
    "dropped-argument": dropped_argument,
    "swapped-children": swapped_children,
    "renamed-widget": renamed_widget,
    "deleted-statement": deleted_statement,
}


# --- equivalents ----------------------------------------------------------------------------------------


def _edits(source: str, edits: list[tuple[int, int, str]]) -> str:
    data = source.encode("utf-8")
    for start, end, new in sorted(edits, reverse=True):
        data = data[:start] + new.encode("utf-8") + data[end:]
    return data.decode("utf-8")


def with_trailing_commas(source: str) -> str:
    """A trailing comma after the last argument of every call with arguments."""
    root = parse_dart(source).root_node
    edits = []
    for args in iter_nodes(root, "arguments"):
        kids = args.children
        inside_string = any(p.type == "string_literal" for p in _ancestors(args))  # interpolation: text, not code
        if len(kids) >= 3 and kids[-1].type == ")" and kids[-2].type != "," and not inside_string:
            edits.append((kids[-2].end_byte, kids[-2].end_byte, ","))
    return _edits(source, edits)


def with_double_quotes(source: str) -> str:
    """Plain single-quoted strings in double quotes (same value)."""
    root = parse_dart(source).root_node
    edits = []
    for lit in iter_nodes(root, "string_literal"):
        text = node_text(lit)
        body = text[1:-1]
        if len(text) >= 2 and text[0] == text[-1] == "'" and not any(c in body for c in "'\"\\$"):
            if not any(p.type == "import_or_export" for p in _ancestors(lit)):
                edits.append((lit.start_byte, lit.end_byte, f'"{body}"'))
    return _edits(source, edits)


def with_comments(source: str) -> str:
    return "// Edited as asked.\n" + source.rstrip("\n") + "\n// End of file.\n"


def reformatted(source: str) -> str | None:
    """Blank lines doubled and every line indented two more spaces (None when a multi-line string forbids it)."""
    if "'''" in source or '"""' in source:
        return None
    return "\n".join(("  " + line) if line.strip() else "" for line in source.split("\n")).replace("\n\n", "\n\n\n")




def equivalents(normalised: bool) -> dict[str, Mutant]:
    """The same program spelled otherwise, by name; with ``normalised`` (the comparison normalises quotes) also
    in the other quote style."""
    out: dict[str, Mutant] = {"comments": with_comments, "trailing-commas": with_trailing_commas, "reformatted": reformatted}
    if normalised:
        out["other-quotes"] = with_double_quotes
    return out


def requirement_mutants(dart: str, requirements: list[Any]) -> dict[str, str | None]:
    """Per requirement kind, a mutant that breaks it: the text a widget must show, the class name and base."""
    out: dict[str, str | None] = {}
    for req in requirements:
        req = dict(req) if not isinstance(req, dict) else req
        kind = req.get("kind")
        if kind == "widget" and req.get("text") and f"break-text:{req['text']}" not in out:
            text = str(req["text"])
            for quote in ("'", '"'):
                lit = f"{quote}{text}{quote}"
                if lit in dart:
                    out[f"break-text:{text[:20]}"] = dart.replace(lit, f"{quote}{text}!{quote}", 1)
                    break
        elif kind == "class" and req.get("name"):
            name = str(req["name"])
            pattern = re.compile(rf"\bclass\s+{re.escape(name)}\s+extends\s+(\w+)")
            if m := pattern.search(dart):
                other = "StatefulWidget" if m.group(1) != "StatefulWidget" else "StatelessWidget"
                out[f"break-superclass:{name}"] = dart[: m.start(1)] + other + dart[m.end(1) :]
    return out
