"""The Dart/Flutter corpus (``data/dart/``): its manifest of metrics and a loader that checks file integrity.

The corpus holds 100 original Flutter samples in the five bands of the COON comprehension design: ``simple`` (20),
``composed`` (30), ``stateful`` (20), ``complex`` (15) and ``edge`` (15). Each file is ``<band>/NNN_name.dart`` and
its id is ``<band>-NNN``. ``python -m coonbench.datasets.corpus --write-manifest`` regenerates
``data/dart/manifest.json`` from the files (deterministic: sorted keys, corpus order, trailing newline); a test
checks that the committed manifest is current.

Every metric is read from the tree-sitter-dart syntax tree, never from regexes over the raw text:

``loc``
    Lines holding code: non-blank once comments (``//``, ``///``, ``/* */``) are removed. Every line of a
    multi-line string counts.
``cyclomatic``
    McCabe's number for the whole file: ``1 +`` decision points, where a decision point is each ``if`` statement
    (``else if`` is a nested ``if``), ``?:``, ``for``/``for-in``, ``while``, ``do``, ``case`` of a switch statement
    (not ``default``), arm of a switch expression (not a bare ``_`` arm), ``catch`` clause, ``&&``, ``||``,
    ``??`` and collection ``if``/``for`` element.
``widgets`` / ``widget_types``
    The distinct Flutter widget types constructed in the file (``ListView.builder`` counts as ``ListView``):
    names in ``coonbench.dart.widgets.FLUTTER_WIDGETS`` plus the file's own ``StatelessWidget``/``StatefulWidget``
    subclasses. ``X.m(...)`` is a widget construction unless ``m`` is a static helper (``Navigator.push``,
    ``Theme.of``, ``ElevatedButton.styleFrom``…).
``max_depth``
    The deepest lexical nesting of widget constructions (a lone ``Text(...)`` is 1, ``Center(child: Text(...))``
    is 2); widgets built inside builder closures nest under the widget whose argument holds the closure.
``classes``
    ``class`` declarations (enums, mixins and extensions are not counted; they show up in ``features``).
``gci``
    A General Complexity Index in the spirit of EPAM AI/RUN's GCI (a composite of individual metrics scaled into
    (0, 1]). Each component is squashed with a fixed saturating map ``x / (x + k)`` so a sample's GCI depends on
    that sample alone (adding files never changes the others), then the components are averaged with weights::

        gci = 0.25·L/(L+100) + 0.20·(CC−1)/(CC−1+10) + 0.10·ρ/(ρ+0.1)
            + 0.20·D/(D+6)   + 0.15·W/(W+12)        + 0.10·K/(K+3)

    with L = loc, CC = cyclomatic, ρ = (CC−1)/L (decision density, the measure AI/RUN's published GCI values
    track), D = max_depth, W = widgets, K = classes. Rounded to 4 decimals. 0.2 is a small widget, ~0.6 a
    multi-screen app.
``features``
    Language features found in the file (``cascade``, ``collection-if``, ``record``, ``switch-expression``,
    ``coon-syntax-in-string``…; see ``FEATURES``); the edge band is built to cover them all.
``sha256``
    Of the file's bytes. ``load_corpus`` refuses a file whose hash differs from the manifest.

The round-trip corpus the COON dialect is measured and tested on (``iter_corpus``) is these files plus the
upstream COON benchmark samples (``shared/reference/coon/extracted/code_samples_{ui,logic,large}.json``, field
``dartCode``) and the upstream "observation testing" Flutter app (one text file of ``FILE: <path>`` sections
between ``=====`` rules). ``corpus_files`` is the one place that lists ``data/dart/``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tree_sitter

from coonbench.dart.parse import parse_dart
from coonbench.dart.query import iter_nodes, node_text
from coonbench.dart.widgets import FLUTTER_WIDGETS
from coonbench.paths import DATA_DIR, SHARED_DIR

CORPUS_DIR = DATA_DIR / "dart"
MANIFEST_NAME = "manifest.json"
MANIFEST_VERSION = 1
MANIFEST_COMMAND = "python -m coonbench.datasets.corpus --write-manifest"

BANDS: tuple[str, ...] = ("simple", "composed", "stateful", "complex", "edge")
BAND_SIZES: dict[str, int] = {"simple": 20, "composed": 30, "stateful": 20, "complex": 15, "edge": 15}

# ``Widget.method(...)`` calls that are static helpers, not widget constructors.
STATIC_HELPERS: frozenset[str] = frozenset(
    """
    of maybeOf push pushNamed pushReplacement pushReplacementNamed pushNamedAndRemoveUntil pushAndRemoveUntil
    pop popUntil maybePop canPop restorablePush styleFrom lerp defaultStyleOf debugCheckHasMaterial
    textScalerOf sizeOf paddingOf viewInsetsOf withData showSnackBar
    """.split()
)
WIDGET_BASES: frozenset[str] = frozenset({"StatelessWidget", "StatefulWidget"})

# Identifiers that read like COON abbreviations (widget letters, property and keyword short forms).
COON_LOOKALIKES: frozenset[str] = frozenset(
    "S C R T K N P B E F L Z A X W Ic Cd a b c h t p o f m ret".split()
)
_COON_IN_STRING = re.compile(r"(?<![\w$])(?:[A-Z][a-z]?\{|@\d|~[A-Z]|#[a-z]|[a-z]:(?=[\w{\[@~'\"]|\s|$)|m:b)")

FEATURES: tuple[str, ...] = (
    "adjacent-strings",
    "async-generator",
    "await-for",
    "cascade",
    "collection-for",
    "collection-if",
    "coon-lookalike-identifier",
    "coon-syntax-in-string",
    "dollar-escape",
    "enhanced-enum",
    "escape-sequence",
    "extension",
    "factory-constructor",
    "generics",
    "interpolation-expression",
    "mixin",
    "null-aware-cascade",
    "null-aware-spread",
    "operator-overload",
    "pattern",
    "pattern-guard",
    "raw-string",
    "record",
    "sealed-class",
    "spread",
    "string-interpolation",
    "switch-expression",
    "triple-quoted-string",
    "typedef",
    "unicode-escape",
)

GCI_WEIGHTS: dict[str, float] = {
    "loc": 0.25,
    "branches": 0.20,
    "density": 0.10,
    "depth": 0.20,
    "widgets": 0.15,
    "classes": 0.10,
}
GCI_SCALES: dict[str, float] = {
    "loc": 100.0,
    "branches": 10.0,
    "density": 0.1,
    "depth": 6.0,
    "widgets": 12.0,
    "classes": 3.0,
}

_METRIC_KEYS = ("loc", "cyclomatic", "gci", "widgets", "widget_types", "max_depth", "classes", "features")
_ENTRY_KEYS = ("id", "band", "path", "sha256", *_METRIC_KEYS)


class CorpusError(ValueError):
    """The corpus or its manifest is missing, malformed or out of date."""


@dataclass(frozen=True)
class CorpusSample:
    """One corpus file with its manifest metrics."""

    id: str
    band: str
    path: Path
    source: str
    sha256: str
    loc: int
    cyclomatic: int
    gci: float
    widgets: int
    widget_types: tuple[str, ...]
    max_depth: int
    classes: int
    features: tuple[str, ...]


# --------------------------------------------------------------------------------------------------- metrics


def count_loc(source: str, tree: tree_sitter.Tree | None = None) -> int:
    """Non-blank lines once the tree's comment nodes are blanked out."""
    tree = tree or parse_dart(source)
    data = bytearray(source.encode("utf-8"))
    for node in iter_nodes(tree.root_node):
        if "comment" in node.type:
            for i in range(node.start_byte, node.end_byte):
                if data[i] not in (0x0A, 0x0D):
                    data[i] = 0x20
    return sum(1 for line in data.decode("utf-8").splitlines() if line.strip())


def _is_wildcard_arm(case: tree_sitter.Node) -> bool:
    patterns = [c for c in case.named_children if c.type.endswith("pattern")]
    return len(patterns) == 1 and patterns[0].type == "constant_pattern" and node_text(patterns[0]) == "_" and not any(
        c.type == "guard" or node_text(c) == "when" for c in case.children
    )


_DECISION_NODES = frozenset(
    {
        "if_statement",
        "conditional_expression",
        "for_statement",
        "while_statement",
        "do_statement",
        "switch_statement_case",
        "catch_clause",
        "if_element",
        "for_element",
        "logical_and_operator",
        "logical_or_operator",
    }
)


def cyclomatic_complexity(source: str, tree: tree_sitter.Tree | None = None) -> int:
    """1 + decision points of the whole file (see the module docstring)."""
    tree = tree or parse_dart(source)
    points = 0
    for node in iter_nodes(tree.root_node):
        if node.type in _DECISION_NODES:
            points += 1
        elif node.type == "switch_expression_case" and not _is_wildcard_arm(node):
            points += 1
        elif node.type == "??" and not node.is_named:
            points += 1
    return 1 + points


def _superclass(cls: tree_sitter.Node) -> str | None:
    for child in cls.named_children:
        if child.type == "superclass":
            names = [c for c in child.named_children if c.type == "type_identifier"]
            return node_text(names[0]) if names else None
    return None


def _class_name(cls: tree_sitter.Node) -> str:
    name = cls.child_by_field_name("name")
    if name is None:
        name = next((c for c in cls.named_children if c.type in ("identifier", "type_identifier")), None)
    return node_text(name) if name is not None else ""


def _widget_call(siblings: list[tree_sitter.Node], i: int, widgets: frozenset[str]) -> tuple[str, int] | None:
    """A widget construction starting at ``siblings[i]``: (type name, index of its argument selector)."""
    node = siblings[i]
    if node.type != "identifier":
        return None
    name = node_text(node)
    if name not in widgets:
        return None
    j = i + 1
    if j < len(siblings) and siblings[j].type == "type_arguments":
        j += 1
    if j < len(siblings) and siblings[j].type == "selector":
        sel = siblings[j].named_children
        if sel and sel[0].type == "unconditional_assignable_selector":
            method = node_text(sel[0].named_children[0]) if sel[0].named_children else ""
            if method in STATIC_HELPERS:
                return None
            j += 1
    if j < len(siblings) and siblings[j].type == "selector":
        sel = siblings[j].named_children
        if sel and sel[0].type == "argument_part":
            return name, j
    return None


def _object_call(node: tree_sitter.Node, widgets: frozenset[str]) -> str | None:
    """The widget type of a ``const``/``new`` construction, or None."""
    names = [node_text(k) for k in node.named_children if k.type in ("type_identifier", "identifier")]
    if not names or names[0] not in widgets:
        return None
    if len(names) > 1 and names[1] in STATIC_HELPERS:
        return None
    return names[0]


def widget_metrics(source: str, tree: tree_sitter.Tree | None = None) -> tuple[list[str], int]:
    """(sorted distinct widget types, deepest widget nesting) of the file."""
    tree = tree or parse_dart(source)
    classes = [n for n in iter_nodes(tree.root_node) if n.type == "class_definition"]
    local = frozenset(_class_name(c) for c in classes if _superclass(c) in WIDGET_BASES)
    widgets = FLUTTER_WIDGETS | local
    found: set[str] = set()
    deepest = 0
    # iterative walk: (node, depth of enclosing widget constructions)
    stack: list[tuple[tree_sitter.Node, int]] = [(tree.root_node, 0)]
    while stack:
        node, depth = stack.pop()
        if node.type in ("const_object_expression", "new_expression"):
            name = _object_call(node, widgets)
            if name is not None:
                found.add(name)
                deepest = max(deepest, depth + 1)
                stack.extend((c, depth + 1) for c in node.children)
                continue
        children = node.children
        inner: set[int] = set()
        for i in range(len(children)):
            call = _widget_call(children, i, widgets)
            if call is not None:
                found.add(call[0])
                deepest = max(deepest, depth + 1)
                inner.add(call[1])
        stack.extend((c, depth + 1 if k in inner else depth) for k, c in enumerate(children))
    return sorted(found), deepest


def _declared_names(root: tree_sitter.Node) -> Iterator[str]:
    for node in iter_nodes(root):
        if node.type in ("class_definition", "mixin_declaration", "enum_declaration"):
            yield _class_name(node)
        elif node.type in ("initialized_variable_definition", "initialized_identifier"):
            ident = next((c for c in node.named_children if c.type == "identifier"), None)
            if ident is not None:
                yield node_text(ident)
        elif node.type == "formal_parameter":
            idents = [c for c in node.named_children if c.type == "identifier"]
            if idents:
                yield node_text(idents[-1])


def detect_features(source: str, tree: tree_sitter.Tree | None = None) -> list[str]:
    """Sorted names (from ``FEATURES``) of the language features used in the file."""
    tree = tree or parse_dart(source)
    found: set[str] = set()
    for node in iter_nodes(tree.root_node):
        kind = node.type
        if kind == "string_literal":
            delimiters = [c for c in node.children if not c.is_named]
            text = node_text(node)
            if any(node_text(d).startswith("r") for d in delimiters):
                found.add("raw-string")
            if any(node_text(d).lstrip("r") in ("'''", '"""') for d in delimiters):
                found.add("triple-quoted-string")
            closing = node_text(delimiters[0]).lstrip("r") if delimiters else ""
            ends = [i for i, d in enumerate(delimiters) if i > 0 and node_text(d) == closing]
            if ends and ends[0] != len(delimiters) - 1:
                found.add("adjacent-strings")
            if _COON_IN_STRING.search(text):
                found.add("coon-syntax-in-string")
        elif kind == "template_substitution":
            found.add("string-interpolation")
            if any(node_text(c) == "{" for c in node.children):
                found.add("interpolation-expression")
        elif kind == "escape_sequence":
            found.add("escape-sequence")
            esc = node_text(node)
            if esc == "\\$":
                found.add("dollar-escape")
            elif esc[:2] in ("\\u", "\\x"):
                found.add("unicode-escape")
        elif kind == "cascade_section":
            found.add("cascade")
            if any(node_text(c) == "?.." for c in node.children):
                found.add("null-aware-cascade")
        elif kind == "if_element":
            found.add("collection-if")
        elif kind == "for_element":
            found.add("collection-for")
        elif kind == "spread_element":
            found.add("spread")
            if any(node_text(c) == "?" for c in node.children):
                found.add("null-aware-spread")
        elif kind in ("record_literal", "record_type"):
            found.add("record")
        elif kind in (
            "record_pattern",
            "list_pattern",
            "map_pattern",
            "object_pattern",
            "variable_pattern",
            "pattern_variable_declaration",
        ):
            found.add("pattern")
        elif kind == "switch_expression":
            found.add("switch-expression")
        elif kind == "when" or kind == "guard":
            found.add("pattern-guard")
        elif kind == "sealed":
            found.add("sealed-class")
        elif kind == "type_parameters":
            found.add("generics")
        elif kind in ("mixin_declaration", "mixins"):
            found.add("mixin")
        elif kind == "extension_declaration":
            found.add("extension")
        elif kind == "enum_declaration" and any(
            c.type in ("declaration", "method_signature", "constant_constructor_signature")
            for c in iter_nodes(node)
        ):
            found.add("enhanced-enum")
        elif kind == "type_alias":
            found.add("typedef")
        elif kind == "async*":
            found.add("async-generator")
        elif kind == "for_statement" and any(node_text(c) == "await" for c in node.children):
            found.add("await-for")
        elif kind == "operator_signature":
            found.add("operator-overload")
        elif kind == "factory_constructor_signature":
            found.add("factory-constructor")
    if any(name in COON_LOOKALIKES for name in _declared_names(tree.root_node)):
        found.add("coon-lookalike-identifier")
    return sorted(found)


def general_complexity_index(
    loc: int, cyclomatic: int, max_depth: int, widgets: int, classes: int
) -> float:
    """The documented GCI (module docstring), in (0, 1)."""
    branches = max(cyclomatic - 1, 0)
    values = {
        "loc": float(loc),
        "branches": float(branches),
        "density": branches / loc if loc else 0.0,
        "depth": float(max_depth),
        "widgets": float(widgets),
        "classes": float(classes),
    }
    score = sum(GCI_WEIGHTS[k] * v / (v + GCI_SCALES[k]) for k, v in values.items())
    return round(score, 4)


def measure(source: str) -> dict[str, Any]:
    """Every manifest metric of one Dart source (raises DartParseError when it does not parse)."""
    tree = parse_dart(source)
    loc = count_loc(source, tree)
    cyclomatic = cyclomatic_complexity(source, tree)
    widget_types, max_depth = widget_metrics(source, tree)
    classes = sum(1 for n in iter_nodes(tree.root_node) if n.type == "class_definition")
    return {
        "loc": loc,
        "cyclomatic": cyclomatic,
        "gci": general_complexity_index(loc, cyclomatic, max_depth, len(widget_types), classes),
        "widgets": len(widget_types),
        "widget_types": widget_types,
        "max_depth": max_depth,
        "classes": classes,
        "features": detect_features(source, tree),
    }


# --------------------------------------------------------------------------------------------------- manifest

_FILE_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.dart$")


def corpus_files(root: Path = CORPUS_DIR) -> list[tuple[str, str, Path]]:
    """(id, band, path) of every sample file, in band order then by number."""
    out: list[tuple[str, str, Path]] = []
    for band in BANDS:
        folder = root / band
        if not folder.is_dir():
            raise CorpusError(f"{folder}: band folder missing")
        for path in sorted(folder.glob("*.dart")):
            match = _FILE_NAME.match(path.name)
            if match is None:
                raise CorpusError(f"{path}: file name must look like NNN_short_name.dart")
            out.append((f"{band}-{match.group(1)}", band, path))
    return out


def build_manifest(root: Path = CORPUS_DIR) -> str:
    """The manifest text for the files under ``root`` (what ``--write-manifest`` writes)."""
    entries: list[dict[str, Any]] = []
    for sample_id, band, path in corpus_files(root):
        data = path.read_bytes()
        try:
            metrics = measure(data.decode("utf-8"))
        except ValueError as err:  # DartParseError, UnicodeDecodeError
            raise CorpusError(f"{path}: {err}") from err
        entries.append(
            {
                "id": sample_id,
                "band": band,
                "path": path.relative_to(root).as_posix(),
                "sha256": hashlib.sha256(data).hexdigest(),
                **metrics,
            }
        )
    manifest = {"version": MANIFEST_VERSION, "command": MANIFEST_COMMAND, "samples": entries}
    return json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_manifest(root: Path = CORPUS_DIR) -> Path:
    """Regenerate ``root/manifest.json``."""
    target = root / MANIFEST_NAME
    target.write_text(build_manifest(root), encoding="utf-8", newline="\n")
    return target


def _read_manifest(root: Path) -> list[dict[str, Any]]:
    target = root / MANIFEST_NAME
    if not target.is_file():
        raise CorpusError(f"{target}: manifest missing; run `{MANIFEST_COMMAND}`")
    try:
        data = json.loads(target.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise CorpusError(f"{target}: line {err.lineno}: invalid JSON ({err.msg})") from err
    if not isinstance(data, dict) or data.get("version") != MANIFEST_VERSION or not isinstance(
        data.get("samples"), list
    ):
        raise CorpusError(f"{target}: expected {{'version': {MANIFEST_VERSION}, 'samples': [...]}}")
    for n, entry in enumerate(data["samples"]):
        if not isinstance(entry, dict):
            raise CorpusError(f"{target}: samples[{n}]: not an object")
        for key in _ENTRY_KEYS:
            if key not in entry:
                raise CorpusError(f"{target}: samples[{n}] ({entry.get('id', '?')}): field '{key}' missing")
        if entry["band"] not in BANDS:
            raise CorpusError(f"{target}: samples[{n}] ({entry['id']}): field 'band' unknown: {entry['band']!r}")
    return data["samples"]


def load_corpus(bands: Sequence[str] | None = None, *, root: Path = CORPUS_DIR) -> list[CorpusSample]:
    """The corpus samples of ``bands`` (all by default) in manifest order, each file checked against its sha256."""
    wanted = tuple(BANDS if bands is None else bands)
    unknown = [b for b in wanted if b not in BANDS]
    if unknown:
        raise ValueError(f"unknown band(s) {unknown}; choose from {list(BANDS)}")
    samples: list[CorpusSample] = []
    for entry in _read_manifest(root):
        if entry["band"] not in wanted:
            continue
        path = root / entry["path"]
        if not path.is_file():
            raise CorpusError(f"{path}: listed in the manifest as {entry['id']} but missing")
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        if digest != entry["sha256"]:
            raise CorpusError(
                f"{path}: sha256 {digest[:12]}… does not match the manifest ({entry['sha256'][:12]}…); "
                f"if the change is intended, rerun `{MANIFEST_COMMAND}`"
            )
        samples.append(
            CorpusSample(
                id=entry["id"],
                band=entry["band"],
                path=path,
                source=data.decode("utf-8"),
                sha256=digest,
                loc=int(entry["loc"]),
                cyclomatic=int(entry["cyclomatic"]),
                gci=float(entry["gci"]),
                widgets=int(entry["widgets"]),
                widget_types=tuple(entry["widget_types"]),
                max_depth=int(entry["max_depth"]),
                classes=int(entry["classes"]),
                features=tuple(entry["features"]),
            )
        )
    return samples


def band_summary(samples: Sequence[CorpusSample]) -> dict[str, dict[str, float]]:
    """Count and mean metrics per band (for reports)."""
    out: dict[str, dict[str, float]] = {}
    for band in BANDS:
        group = [s for s in samples if s.band == band]
        if not group:
            continue
        n = len(group)
        out[band] = {
            "samples": n,
            "loc": round(sum(s.loc for s in group) / n, 1),
            "cyclomatic": round(sum(s.cyclomatic for s in group) / n, 2),
            "gci": round(sum(s.gci for s in group) / n, 4),
            "widgets": round(sum(s.widgets for s in group) / n, 2),
            "max_depth": round(sum(s.max_depth for s in group) / n, 2),
            "classes": round(sum(s.classes for s in group) / n, 2),
        }
    return out


# --------------------------------------------------------------------------------------- round-trip corpus

REFERENCE_COON = SHARED_DIR / "reference" / "coon"
_FILE_MARKER = re.compile(r"^=+\nFILE: (?P<path>[^\n]+)\n=+\n", re.MULTILINE)

SourceSample = tuple[str, str, str]  # (category, id, source)


def iter_data_dart(data_dir: Path = DATA_DIR) -> Iterator[SourceSample]:
    """coonbench's samples by path: category ``data/<band>``, id = path relative to ``data/dart``."""
    root = data_dir / "dart"
    if not root.is_dir():
        return
    for _, band, path in sorted(corpus_files(root), key=lambda entry: entry[2]):
        yield f"data/{band}", path.relative_to(root).as_posix(), path.read_text(encoding="utf-8")


def split_file_markers(text: str) -> list[tuple[str, str]]:
    """(path, source) for every ``FILE:`` section of a concatenated-files dump."""
    marks = list(_FILE_MARKER.finditer(text))
    return [
        (m.group("path").strip(), text[m.end() : marks[i + 1].start() if i + 1 < len(marks) else len(text)])
        for i, m in enumerate(marks)
    ]


def iter_reference_dart(reference_dir: Path = REFERENCE_COON) -> Iterator[SourceSample]:
    """Upstream samples: categories ``ui``, ``logic``, ``large`` and ``instagram`` (one sample per file)."""
    extracted = reference_dir / "extracted"
    for kind in ("ui", "logic", "large"):
        path = extracted / f"code_samples_{kind}.json"
        if not path.exists():
            continue
        groups = json.loads(path.read_text(encoding="utf-8"))["groups"]
        for group, entries in groups.items():
            for entry in entries if isinstance(entries, list) else [entries]:
                if "dartCode" not in entry or "id" not in entry:
                    raise ValueError(f"{path}: group {group}: entry without 'id'/'dartCode'")
                yield kind, str(entry["id"]), entry["dartCode"]
    app = reference_dir / "benchmarks" / "observation-testing" / "instagram-clone" / "input" / "flutter-context.txt"
    if app.exists():
        for name, source in split_file_markers(app.read_text(encoding="utf-8")):
            yield "instagram", name, source


def iter_corpus() -> Iterator[SourceSample]:
    """Everything: data/ samples first, then the upstream reference samples (when ``shared/`` is present)."""
    yield from iter_data_dart()
    yield from iter_reference_dart()


def main(argv: Sequence[str] | None = None) -> int:
    """CLI: write or check the manifest, or print per-band averages."""
    parser = argparse.ArgumentParser(prog="python -m coonbench.datasets.corpus", description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write-manifest", action="store_true", help="regenerate data/dart/manifest.json")
    group.add_argument("--check", action="store_true", help="exit 1 when the manifest is not current")
    args = parser.parse_args(argv)
    if args.write_manifest:
        print(f"wrote {write_manifest()}")
        return 0
    if args.check:
        target = CORPUS_DIR / MANIFEST_NAME
        current = target.read_text(encoding="utf-8") if target.is_file() else ""
        if current != build_manifest():
            print(f"manifest out of date; run `{MANIFEST_COMMAND}`", file=sys.stderr)
            return 1
        print("manifest current")
        return 0
    samples = load_corpus()
    print(json.dumps(band_summary(samples), indent=2))
    print(f"total: {len(samples)} samples, {sum(s.loc for s in samples)} lines of code")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
