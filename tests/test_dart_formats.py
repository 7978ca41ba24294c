"""Formats ``dart`` and ``dart-minified``; minification keeps the AST and string literals; the corpus loader."""

from __future__ import annotations

from pathlib import Path

import pytest

from coonbench.dart import ast_diff
from coonbench.dart.minify import minify, needs_space
from coonbench.dart.query import calls, iter_nodes, iter_tokens
from coonbench.dart.parse import parse_dart, parse_unit
from coonbench.datasets.corpus import iter_corpus, split_file_markers
from coonbench.formats import FormatError, get_format
from coonbench.resources import REPO_ROOT
from tests.coon_oracle import token_difference

SRC = """// header comment
class A extends StatelessWidget {
  /// doc
  final String s = 'a  //  b /* c */';
  int f(int x) => x - -1 + x--;
  Widget build(BuildContext context) => Padding(padding: const EdgeInsets.all(8), child: Text(s, ), );
}
"""


def test_minified_is_equivalent_and_keeps_strings() -> None:
    out = get_format("dart-minified").encode(SRC)
    assert ast_diff(SRC, out) is None
    assert "'a  //  b /* c */'" in out and "header comment" not in out and "\n" not in out
    assert "- -1" in out and get_format("dart-minified").decode(out) == out
    assert "// header comment" in minify(SRC, keep_comments=True)


def test_needs_space_rules() -> None:
    assert needs_space("a", "b") and needs_space("-", "-") and needs_space("r", "'x'") and needs_space("1", ".a")
    assert not needs_space(")", ";") and not needs_space("a", "(") and not needs_space("!", ".")


def test_needs_space_shortcut_agrees_with_the_rules() -> None:
    """``needs_space`` answers next to ``( ) [ ] { } , ;`` without its rules: every rule must agree that no space is
    needed there, for every pair of real tokens (and a few awkward ones)."""
    from coonbench.dart import minify as module

    vocab = {t.text for path in sorted(Path(REPO_ROOT, "data", "dart").rglob("*.dart"))[:60]
             for t in iter_tokens(parse_unit(path.read_text(encoding="utf-8")).root, comments=True)}
    vocab |= set(module.DART_OPERATORS) | set(module.OPERATOR_CHARS) | set("()[]{},;") | {"1", ".5", "r", "'x'", "//c"}
    inert = 0
    for prev in vocab:
        for nxt in vocab:
            full = prev.startswith("//") or module._needs_space(prev, nxt)
            assert needs_space(prev, nxt) == full, (prev, nxt)
            inert += prev in module._INERT or nxt[0] in module._INERT
    assert inert > 1000  # the shortcut was exercised


def test_corpus_minifies_equivalently() -> None:
    samples = list(iter_corpus())
    if not samples:
        pytest.skip("no corpus")
    for _, _, src in samples:
        out = minify(src)
        assert ast_diff(src, out) is None and token_difference(src, out) is None


def test_dart_format_validate_reports_position() -> None:
    fmt = get_format("dart")
    assert fmt.decode(SRC) == SRC and fmt.encode(SRC) == SRC and fmt.validate(SRC) == []
    errors = fmt.validate("class A {\n  int x = ;\n}")
    assert len(errors) == 1 and errors[0].line == 2 and errors[0].column in (9, 11)
    with pytest.raises(FormatError):
        get_format("dart-minified").encode("class {")


def test_query_helpers() -> None:
    tree = parse_dart(SRC)
    assert [c.name for c in calls(tree.root_node)] == ["Padding", "EdgeInsets", "Text"]
    pad = next(c for c in calls(tree.root_node) if c.name == "Padding")
    assert sorted(pad.named()) == ["child", "padding"]
    assert next(c for c in calls(tree.root_node) if c.name == "EdgeInsets").constructor == "all"
    assert len(list(iter_nodes(tree.root_node, "class_definition"))) == 1
    assert "'a  //  b /* c */'" in [t.text for t in iter_tokens(tree.root_node)]
    assert parse_unit("Text('a')").kind == "expression" and parse_unit("x = 1;").kind == "statements"


def test_split_file_markers() -> None:
    text = "=====\nFILE: a.dart\n=====\nvar a = 1;\n=====\nFILE: b.dart\n=====\nvar b = 2;\n"
    assert split_file_markers(text) == [("a.dart", "var a = 1;\n"), ("b.dart", "var b = 2;\n")]


@pytest.mark.parametrize(
    "src",
    ["Map<String, List<List<int>>> a = {};", "List<List<List<List<int>>>> q = [];", "var b = x >> 2; var c = x >>> 3;"],
)
def test_minify_joins_type_argument_closers(src: str) -> None:
    """Closing ``>`` of nested type arguments are written as Dart does (``>>``), not kept apart by a space, so the
    minified baseline is as short as honest; shifts stay shifts (same tree)."""
    out = minify(src)
    assert "> >" not in out and ">>" in out
    assert ast_diff(src, out) is None
