"""``coonbench validate``'s Python variants on real code (the corpus, files nobody here wrote): every equivalent
that applies is the same tree and every mutant that applies is not, each applies somewhere, and a deep program
neither recurses nor crashes."""

from __future__ import annotations

from pathlib import Path

from coonbench.languages import get_language
from coonbench.languages.python.corpus import CORPUS_DIR
from coonbench.languages.python.equivalence import ast_diff

FILES = sorted(Path(CORPUS_DIR).rglob("*.py"))[::6]


def test_equivalents_keep_the_tree_and_mutants_change_it() -> None:
    python = get_language("python")
    applied: dict[str, int] = {}
    for path in FILES:
        source = path.read_text(encoding="utf-8")
        for name, rewrite in {**python.equivalents(normalised=False), **python.mutants()}.items():
            out = rewrite(source)
            if out is None:
                continue
            applied[name] = applied.get(name, 0) + 1
            same = ast_diff(source, out) is None
            assert same == (name in python.equivalents(normalised=False)), f"{path.name}: {name}"
    assert set(applied) == set(python.equivalents(normalised=False)) | set(python.mutants()), applied
    assert len(FILES) >= 15


def test_a_deep_or_broken_program_gives_none_not_a_crash() -> None:
    """Text the parser refuses (nesting past its limit, not Python at all) has no variant: None, never a raise."""
    python = get_language("python")
    for text in ("x = " + "(" * 5000 + "1" + ")" * 5000 + "\n", "def f(:\n"):
        for rewrite in (*python.equivalents(normalised=False).values(), *python.mutants().values()):
            assert rewrite(text) is None
