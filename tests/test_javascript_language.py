"""The example JavaScript language package (``examples/coonbench-language-javascript``) read in this process:
its lossless check, its minifier's refusal, its questions' ground truth cross-checked from the text, its corpus
and licences. Its modules are imported from the example folder with both registries copied for the test, so
nothing of it stays registered here (``tests/test_language_package.py`` installs and runs it for real)."""

from __future__ import annotations

import importlib
import json
import re
import shutil
import subprocess
import time
from pathlib import Path
from types import ModuleType

import pytest

from coonbench.formats import FormatError
from coonbench.formats import base as formats_base
from coonbench.languages import LanguageSyntaxError
from coonbench.languages import base as languages_base
from coonbench.resources import REPO_ROOT

PACKAGE = REPO_ROOT / "examples" / "coonbench-language-javascript"
pytest.importorskip("tree_sitter_javascript", reason="the JavaScript example needs tree-sitter-javascript "
                    "(pip install tree-sitter-javascript, part of the dev extra)")


@pytest.fixture
def js(monkeypatch: pytest.MonkeyPatch) -> dict[str, ModuleType]:
    """The package's modules, its language and formats registered in copies of the registries for one test."""
    formats_base.list_formats()  # load every built-in plug-in into the real registries before copying them
    languages_base.list_languages()
    monkeypatch.syspath_prepend(str(PACKAGE))
    monkeypatch.setattr(languages_base, "_REGISTRY", dict(languages_base._REGISTRY))
    monkeypatch.setattr(formats_base, "_REGISTRY", dict(formats_base._REGISTRY))
    mods = {n: importlib.import_module(f"coonbench_javascript.{n}") for n in ("syntax", "questions", "language",
                                                                             "formats")}
    languages_base.register_language(mods["language"].JAVASCRIPT)
    formats_base.register(mods["formats"].JavaScriptFormat())
    formats_base.register(mods["formats"].MinifiedJavaScriptFormat())
    return mods


def _corpus_files() -> list[Path]:
    return sorted((PACKAGE / "coonbench_javascript" / "corpus").glob("*/*.js"))


def test_every_corpus_file_minifies_to_the_same_tree(js: dict[str, ModuleType]) -> None:
    syntax = js["syntax"]
    files = _corpus_files()
    assert len(files) >= 10
    for path in files:
        source = path.read_text(encoding="utf-8")
        small = syntax.minify(source)
        assert syntax.ast_diff(source, small) is None, path
        assert len(small) < 0.9 * len(source), path
        assert syntax.minify(small) == small, f"{path}: minifying twice changes it"
        assert not any(i.kind in syntax.COMMENTS for i in syntax.items(syntax.parse(small))), path


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed: no second JavaScript parser")
def test_node_parses_every_minified_file(js: dict[str, ModuleType], tmp_path: Path) -> None:
    """A second, independent parser (Node's) accepts the minifier's output."""
    for path in _corpus_files():
        target = tmp_path / path.name
        target.write_text(js["syntax"].minify(path.read_text(encoding="utf-8")), encoding="utf-8")
        done = subprocess.run(["node", "--check", str(target)], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, f"{path.name}: {done.stderr[-500:]}"


def test_the_minified_encoder_refuses_a_changed_program(js: dict[str, ModuleType],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A minifier that drops every line break turns ``a\\nb`` (two statements by automatic semicolon) into
    ``ab``: the encoder's own tree check refuses it loudly instead of returning it."""
    syntax = js["syntax"]
    monkeypatch.setattr(syntax, "_separator", lambda prev, nxt, source, ends: " " if prev.text[-1:].isalnum() and
                        nxt.text[:1].isalnum() else "")
    with pytest.raises(syntax.MinifyError, match="differs|does not parse"):
        syntax.minify("const x = {}\nfunction f() { return\n1 }\n")
    with pytest.raises(FormatError, match="refusing the file"):
        js["formats"].MinifiedJavaScriptFormat().encode("var a = 1\nvar b = 2\n[a, b]\n")


def test_the_lossless_check_ignores_layout_and_comments_only(js: dict[str, ModuleType]) -> None:
    lang = js["language"].JAVASCRIPT
    assert lang.ast_diff("function f(a, b) { return a + b }", "// sum\nfunction f(a,b){\n  return a+b /* ! */\n}") is None
    diff = lang.ast_diff("function f() {\n  return 1\n}", "function f() {\n  return 2\n}")
    assert diff is not None and (diff.left, diff.right, diff.line) == ("1", "2", 2) and "return_statement" in diff.path
    assert lang.ast_diff("function f() { return\nx }", "function f() { return x }") is not None
    assert lang.ast_diff("s = 'a b'", "s = 'a  b'") is not None
    assert lang.ast_diff("t = `x ${ y }`", "t = `x ${y}`") is not None  # a template string is a value: kept as written
    with pytest.raises(LanguageSyntaxError):
        lang.ast_diff("f(", "f()")
    error = lang.parse_error("let x = 1\nfunction f( {\n")
    assert isinstance(error, LanguageSyntaxError) and error.line == 2


def test_hostile_input_is_an_error_in_bounded_time(js: dict[str, ModuleType]) -> None:
    syntax = js["syntax"]
    start = time.monotonic()
    assert syntax.syntax_error("[" * 200_000) is not None
    deep = "x = " + "(" * 20_000 + "1" + ")" * 20_000
    assert syntax.ast_diff(deep, deep.replace(" ", "")) is None
    assert syntax.syntax_error("x" * (syntax.MAX_CHARS + 1)) is not None
    assert syntax.syntax_error(b"not text") is not None  # type: ignore[arg-type]
    syntax.syntax_error("x = '\ud800'")  # a lone surrogate does not crash
    with pytest.raises(FormatError):
        js["formats"].JavaScriptFormat().decode("function (")
    assert time.monotonic() - start < 30


_DECLARED = re.compile(r"\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(([^)]*)\)")
_STATEMENT = re.compile(r"(?:^|[;{}\n])function\*? ?[A-Za-z_$]")
"""In minified text a declaration starts a statement: after a ``;``, a brace or a line break (an expression
``function name(`` follows ``=``, ``(``, ``,`` or ``return``)."""


def test_questions_match_the_source_text(js: dict[str, ModuleType]) -> None:
    """Ground truth cross-checked without the tree: a declaration's parameters as the text lists them, and the
    number of ``function NAME(`` statements counted in the minified text (no comments left to mislead)."""
    syntax, questions = js["syntax"], js["questions"]
    seen: dict[str, int] = {}
    for path in _corpus_files():
        source = path.read_text(encoding="utf-8")
        declared = {m.group(1): [p.strip() for p in m.group(2).split(",") if p.strip()]
                    for m in _DECLARED.finditer(syntax.minify(source))}
        for q in questions.generate_questions(path.stem, source):
            seen[q.subtype] = seen.get(q.subtype, 0) + 1
            if q.subtype == "declaration-count":
                assert q.answer == str(len(_STATEMENT.findall(syntax.minify(source)))), (path, q)
            name = re.search(r"`([^`]+)`", q.question)
            if q.subtype in ("parameter-count", "parameter-names") and name and name.group(1) in declared:
                params = declared[name.group(1)]
                expected = str(len(params)) if q.subtype == "parameter-count" else ", ".join(params)
                assert q.answer == expected, (path, q)
    assert set(seen) >= {"declaration-count", "widest-function", "parameter-count", "parameter-names", "callers"}


def test_questions_are_stable_and_seeded(js: dict[str, ModuleType]) -> None:
    questions = js["questions"]
    source = _corpus_files()[0].read_text(encoding="utf-8")
    first = questions.generate_questions("s", source, seed=0)
    assert first == questions.generate_questions("s", source, seed=0)
    assert len({q.id for q in first}) == len(first)


def test_the_manifest_is_up_to_date(js: dict[str, ModuleType]) -> None:
    from coonbench.datasets.corpus.manifest import build_manifest, load_corpus

    language = js["language"].JAVASCRIPT
    manifest = PACKAGE / "coonbench_javascript" / "corpus" / "manifest.json"
    expected = {**json.loads(build_manifest(language=language)), "command": "python -m coonbench_javascript.manifest"}
    assert json.loads(manifest.read_text(encoding="utf-8")) == expected
    samples = load_corpus(language=language)
    assert {s.band for s in samples} == set(language.corpus().bands)
    assert all(s.band == js["questions"].band_of(s.loc) for s in samples)


def test_every_corpus_file_has_its_licence() -> None:
    root = PACKAGE / "coonbench_javascript" / "corpus"
    sources = json.loads((root / "sources.json").read_text(encoding="utf-8"))
    assert sorted(s["path"] for s in sources) == sorted(p.relative_to(root).as_posix() for p in _corpus_files())
    for entry in sources:
        assert entry["license"] in {"MIT", "ISC"}, entry
        text = (root / entry["license_file"]).read_text(encoding="utf-8")
        assert ("Permission" in text or "permission" in text), entry


def test_a_directory_of_js_files_is_a_corpus(js: dict[str, ModuleType], tmp_path: Path) -> None:
    """``-T corpus=DIR``: the language's extensions pick the files, questions are asked in both formats, and a
    file that does not parse is skipped with its position."""
    from coonbench.datasets.comprehension import comprehension_samples

    for path in _corpus_files()[:3]:
        shutil.copyfile(path, tmp_path / path.name)
    (tmp_path / "broken.js").write_text("function f( {\n", encoding="utf-8")
    (tmp_path / "ignored.dart").write_text("void main() {}\n", encoding="utf-8")
    samples, skips = comprehension_samples(formats="javascript,javascript-minified", corpus=str(tmp_path))
    assert {s.metadata["format"] for s in samples} == {"javascript", "javascript-minified"}
    assert {s.metadata["sample_id"] for s in samples} == {"user-" + p.stem for p in _corpus_files()[:3]}
    assert all("JavaScript code" in s.input and "Flutter" not in s.input for s in samples)
    assert [(k.item, k.reason.split(":")[0]) for k in skips] == [("broken.js", "does not parse")]


ASI_CASES = (
    "function f() { return\nx }", "a\n++b", "let x = {}\nfoo()", "x = y\n[1].forEach(f)", "var g = function () {}\ng()",
    "class A { x = 1\n  y = 2 }", "do x(); while (y)\nz()", "const re = /a/g\nre.test(s)", "if (a) b()\nelse c()",
    "t = `a\n  b`\nu()", "label: for (;;) { break label\n}", "i\n--\nj", "x = a\n/ b /\nc",
)


@pytest.mark.parametrize("source", ASI_CASES)
def test_line_breaks_that_end_statements_stay(js: dict[str, ModuleType], source: str) -> None:
    """Automatic semicolons and restricted productions: each minifies (the tree check inside would refuse a
    changed program) and loses every line break the grammar does not need."""
    syntax = js["syntax"]
    small = syntax.minify(source)
    assert syntax.ast_diff(source, small) is None and len(small) <= len(source) + 1
    assert small.count("\n") <= source.count("\n") + 1
