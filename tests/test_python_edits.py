"""Python's modification edits, generation hole, requirements and syntax-validity questions: each edit, undone on
the expected program's tree, gives the original tree back (so it changed exactly what its instruction says);
partial credit runs from 0 (the program unchanged) to 1 (the expected program); every file meets its own
requirements; a validity label is the format validator's; gold scores 100% in modification, generation and
structure with the four Python formats, on the built-in corpus and on ``-T corpus=DIR`` of real Python that is
not in the repository (standard-library modules the corpus does not hold)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from coonbench.datasets.corpus import load_corpus
from coonbench.formats import get_format
from coonbench.languages import get_language
from coonbench.languages.python.edits import NEW_PARAMETER, completion_hole, edit_overlap, make_edits
from coonbench.languages.python.equivalence import strip_docstrings, tree_diff
from coonbench.languages.python.requirements import check_requirements, derive_requirements
from coonbench.resources import REPO_ROOT
from coonbench.tasks.context import BuildContext

PYTHON = get_language("python")
FILES = load_corpus(language=PYTHON)
FORMATS = "python,python-minified,python-minifier,python-json-ast"
USER_FILES = ("colorsys.py", "shlex.py", "textwrap.py")  # stdlib modules the built-in corpus does not hold


def _named(tree: ast.Module, instruction: str) -> ast.FunctionDef | ast.AsyncFunctionDef:
    """The function an instruction names (``method `m` of class `C``` or ``function `f```) in ``tree``."""
    parts = instruction.split("`")
    cls = parts[parts.index(" of class ") + 1] if " of class " in parts else None
    name = next(parts[i + 1] for i, p in enumerate(parts) if p.endswith(("method ", "function ")))
    body = tree.body if cls is None else next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
    return next(n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name)


def _undo(kind: str, instruction: str, before: ast.Module, after: ast.Module) -> None:
    """Take the edit back out of ``after`` (in place), reading what to undo off ``before``."""
    if kind == "remove-method":
        method, cls = instruction.split("`")[1], instruction.split("`")[3]
        old = next(n for n in before.body if isinstance(n, ast.ClassDef) and n.name == cls)
        new = next(n for n in after.body if isinstance(n, ast.ClassDef) and n.name == cls)
        new.body = [s for s in new.body if not isinstance(s, ast.Pass)] if len(old.body) > 1 else new.body
        position = [getattr(s, "name", None) for s in old.body].index(method)
        new.body.insert(position, next(s for s in old.body if getattr(s, "name", None) == method))
        if len(old.body) == 1:
            new.body = old.body
        return
    fn_new, fn_old = _named(after, instruction), _named(before, instruction)
    if kind == "add-parameter":
        assert fn_new.args.args[-1].arg == NEW_PARAMETER and ast.literal_eval(fn_new.args.defaults[-1]) is False
        fn_new.args.args.pop()
        fn_new.args.defaults.pop()
    elif kind == "change-default":
        fn_new.args = fn_old.args
    elif kind == "change-return":
        [ret_new] = [n for n in ast.walk(fn_new) if isinstance(n, ast.Return)]
        [ret_old] = [n for n in ast.walk(fn_old) if isinstance(n, ast.Return)]
        assert ast.unparse(ret_new) != ast.unparse(ret_old)
        ret_new.value = ret_old.value


def test_every_edit_changes_only_what_it_says() -> None:
    kinds = set()
    for sample in FILES:
        for edit in make_edits(sample.id, sample.source, PYTHON.edit_kinds):
            before = strip_docstrings(ast.parse(edit.before))
            after = strip_docstrings(ast.parse(edit.after))
            assert tree_diff(before, after) is not None, edit.suffix
            _undo(edit.kind, edit.instruction, before, after)
            assert tree_diff(before, after) is None, (sample.id, edit.instruction)
            kinds.add(edit.kind)
    assert kinds == set(PYTHON.edit_kinds)


def test_partial_credit_runs_from_unchanged_to_done() -> None:
    for sample in FILES[:20]:
        for edit in make_edits(sample.id, sample.source, PYTHON.edit_kinds):
            assert edit_overlap(edit.before, edit.after, edit.after) == 1.0
            assert edit_overlap(edit.before, edit.after, edit.before) == 0.0


def test_every_file_meets_its_requirements_and_a_renamed_one_does_not() -> None:
    for sample in FILES:
        records = derive_requirements(sample.source)
        assert all(r.met for r in check_requirements(sample.source, records)), sample.id
    src = "class Shape(Base):\n    def area(self):\n        return 0\n\ndef scale(shape, by=2):\n    return shape\n"
    records = derive_requirements(src)
    assert [r["kind"] for r in records] == ["class", "function"]
    results = check_requirements(src.replace("def scale(shape, by=2)", "def scale(shape)"), records)
    assert [r.met for r in results] == [True, False] and "(shape)" in results[1].detail
    with pytest.raises(ValueError):
        check_requirements(src, [{"kind": "widget"}])


def test_the_hole_is_a_returned_expression() -> None:
    found = 0
    for sample in FILES:
        hole = completion_hole(sample.id, sample.source)
        if hole is None:
            continue
        data = sample.source.encode("utf-8")
        ast.parse("(" + data[hole.start:hole.end].decode("utf-8") + ")", mode="eval")  # may span lines
        ast.parse((data[:hole.start] + b"coonbenchHole" + data[hole.end:]).decode("utf-8"))
        found += 1
    assert found >= len(FILES) // 2


@pytest.mark.slow
@pytest.mark.parametrize("source", ["built-in", "corpus"])
@pytest.mark.parametrize("task", ["modification", "generation", "structure"])
def test_gold_scores_everything(task: str, source: str, tmp_path: Path) -> None:
    extra = ["-T", "questions=10"]
    if source == "corpus":
        mine = tmp_path / "mine"
        mine.mkdir()
        stdlib = Path(sysconfig.get_paths()["stdlib"])
        assert not {f.path.name.split("_", 1)[-1] for f in FILES} & {f"stdlib_{n}" for n in USER_FILES}
        for name in USER_FILES:
            (mine / name).write_text((stdlib / name).read_text(encoding="utf-8"), encoding="utf-8")
        extra += ["-T", f"corpus={mine}"]
    logs = tmp_path / "logs"
    cmd = [sys.executable, "-m", "inspect_ai", "eval", f"evals/{task}.py", "-T", f"formats={FORMATS}", *extra,
           "--model", "mockllm/model", "--solver", "coonbench/gold", "--log-dir", str(logs), "--log-format", "json"]
    run = subprocess.run(cmd, cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    [log] = [json.loads(p.read_text()) for p in logs.glob("*.json")]
    assert log["status"] == "success" and len(log["samples"]) >= (20 if source == "built-in" else 8)
    if source == "corpus":  # the user's files were asked about, not the built-in corpus
        assert all("-user-" in s["id"] for s in log["samples"]), [s["id"] for s in log["samples"]]
    assert {s["metadata"]["format"] for s in log["samples"]} == set(FORMATS.split(","))
    key = "answer_match" if task == "structure" else "code_check"
    values = [s["scores"][key]["value"] for s in log["samples"]]
    assert all((v["correct"] if isinstance(v, dict) else v) == 1.0 for v in values), values[:3]


def test_structure_syntax_validity_is_the_validators_label() -> None:
    """``-T formats=`` of the structure task: every YES text validates in its format, every NO text does not, and
    each format has as many of one as of the other."""
    from coonbench.datasets.format_syntax import format_syntax_pending

    pending, _ = format_syntax_pending(FORMATS)
    samples = [p.build(BuildContext()) for p in pending]
    assert samples and len({s.id for s in samples}) == len(samples)
    for name in FORMATS.split(","):
        mine = [s for s in samples if s.metadata["format"] == name]
        assert sum(s.target == "YES" for s in mine) == sum(s.target == "NO" for s in mine) > 10, name
        fmt = get_format(name)
        for s in mine:
            code = str(s.input).split("```")[1].split("\n", 1)[1].rsplit("\n", 1)[0]
            assert (fmt.validate(code) == []) == (s.target == "YES"), s.id


def test_structure_takes_a_corpus_only_with_formats(tmp_path: Path) -> None:
    """COON's structure questions come from its tables: a corpus without ``-T formats=`` is refused in one line,
    not ignored."""
    from coonbench.evals.structure import structure
    from coonbench.tasks.samples import TaskArgumentError

    with pytest.raises(TaskArgumentError, match=r"-T corpus= needs -T formats="):
        structure(corpus=str(tmp_path))
