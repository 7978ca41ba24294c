"""The four Python code formats: lossless on real code nobody here wrote, loud when they cannot be.

The real code is the standard library of the running Python (not in the repository): a deterministic draw of its
modules, each encoded in every Python format and decoded back, must give an AST-equal program (the language's
equivalence: docstrings aside) or raise ``FormatError``. Zero silent changes. Each encoder's own tree check is
shown to be what stops a broken transform (the broken transform is patched in, the check must refuse).
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import io
import sysconfig
import tokenize
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import coonbench.execution.harness.python_runner as runner
import coonbench.formats.python as pyformats
import coonbench.languages.python.ast_json as ast_json
import coonbench.languages.python.minify as minify_module
from coonbench.formats import FormatError, get_format, list_formats
from coonbench.formats.base import language_of
from coonbench.languages.base import LanguageSyntaxError
from coonbench.languages.python.equivalence import ast_diff, docstring_statements
from coonbench.languages.python.minify import MinifyError, minify
from coonbench.languages.python.parse import parse_python, syntax_error

PYTHON_FORMATS = ("python", "python-minified", "python-minifier", "python-json-ast")
STDLIB = Path(sysconfig.get_paths()["stdlib"])
DRAW = 60
MAX_BYTES = 25_000


def stdlib_draw(n: int = DRAW) -> list[Path]:
    """``n`` standard-library modules of at most MAX_BYTES, drawn by the SHA-256 of their relative path."""
    if not STDLIB.is_dir():
        pytest.skip(f"the running Python's standard library is not at {STDLIB}")
    paths = [p for p in STDLIB.rglob("*.py") if "site-packages" not in p.parts and p.stat().st_size <= MAX_BYTES]
    key = {p: hashlib.sha256(p.relative_to(STDLIB).as_posix().encode()).hexdigest() for p in paths}
    return sorted(paths, key=key.__getitem__)[:n]


def _source(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None
    return text if syntax_error(text) is None else None


def test_python_formats_are_code_formats_of_python() -> None:
    names = {f.name for f in list_formats() if f.kind == "code" and f.language == "python"}
    assert names == set(PYTHON_FORMATS)
    assert all(language_of(n).name == "python" and get_format(n).lossless for n in PYTHON_FORMATS)


def test_coonbench_formats_lists_them_with_their_language(capsys: pytest.CaptureFixture[str]) -> None:
    from coonbench.cli import main

    assert main(["formats"]) == 0
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert all("code (python)" in rows[n] for n in PYTHON_FORMATS) and "code (dart)" in rows["dart"]


def test_stdlib_round_trips_or_is_refused_loudly() -> None:
    """Every drawn module, in every format: AST-equal after decode, or a FormatError. No third outcome."""
    counts = {name: {"kept": 0, "refused": 0} for name in PYTHON_FORMATS}
    sources = [s for s in map(_source, stdlib_draw()) if s is not None]
    assert len(sources) >= DRAW * 0.8
    for source in sources:
        for name in PYTHON_FORMATS:
            fmt = get_format(name)
            try:
                back = fmt.decode(fmt.encode(source))
            except FormatError:
                counts[name]["refused"] += 1
                continue
            assert ast_diff(source, back) is None, name
            counts[name]["kept"] += 1
    # the check is not vacuous: the source formats keep every module, the JSON tree most of them
    assert all(counts[n]["refused"] == 0 for n in ("python", "python-minified", "python-minifier")), counts
    assert counts["python-json-ast"]["kept"] >= len(sources) * 0.6, counts


def test_minified_has_no_comment_docstring_blank_line_or_wide_indent() -> None:
    for source in [s for s in map(_source, stdlib_draw(20)) if s is not None]:
        out = minify(source)
        tokens = list(tokenize.generate_tokens(io.StringIO(out).readline))
        assert not {tokenize.COMMENT, tokenize.NL} & {t.type for t in tokens}  # NL: a blank or continued line
        depth = 0
        for t in tokens:
            depth += (t.type == tokenize.INDENT) - (t.type == tokenize.DEDENT)
            assert t.type != tokenize.INDENT or t.string == " " * depth
        assert docstring_statements(parse_python(out)) == []
        assert len(out) < len(source) or not source.strip()


def test_minify_spacing_and_docstring_cases() -> None:
    src = 'def f(x):\n    """Doc."""\n    return 1 .real if x else-x  # c\n\nclass C:\n    "only a docstring"\n'
    out = minify(src)
    assert out == "def f(x):\n return 1 .real if x else-x\nclass C:\n pass\n"
    assert minify('"""Module doc."""; x = 1\n') == "x=1\n"
    assert minify("x = (1,\n     2)  \\\n\n") == "x=(1,2)\n"
    assert ast_diff("def f():\n  'doc'\n", "def f(): pass") is None  # declared: docstrings do not count
    assert ast_diff("x = 1", "x = 1.0") is not None and ast_diff("x = 0.0", "x = -0.0") is not None


def test_minify_refuses_a_changed_program(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tree check is the defence: a minifier that drops a real statement is refused, not returned."""
    real = minify_module.docstring_statements

    def too_many(tree: ast.AST) -> list[ast.stmt]:
        return real(tree) + [n for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)]

    monkeypatch.setattr(minify_module, "docstring_statements", too_many)
    with pytest.raises(MinifyError, match="would change the program"):
        minify("def f():\n    print(1)\n    return 2\n")
    with pytest.raises(FormatError, match="cannot minify"):
        get_format("python-minified").encode("print(1)\n")


def test_minify_refuses_text_that_would_not_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(minify_module, "_needs_space", lambda prev, text: False)
    with pytest.raises(MinifyError, match="does not parse"):
        minify("def f(x):\n    return not x\n")


def test_python_minifier_renaming_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Renaming is a transform the lossless check refuses: turned on, the encoder raises instead of renaming."""
    src = "def total(values):\n    running = 0\n    for value in values:\n        running += value\n    return running\n"
    assert get_format("python-minifier").encode(src).count("running") == 3
    monkeypatch.setitem(pyformats.MINIFIER_OPTIONS, "rename_locals", True)
    with pytest.raises(FormatError, match="python-minifier would change the program"):
        get_format("python-minifier").encode(src)


def test_json_ast_refuses_what_its_schema_cannot_carry(monkeypatch: pytest.MonkeyPatch) -> None:
    fmt = get_format("python-json-ast")
    with pytest.raises(FormatError, match="cannot carry"):
        fmt.encode("x = b'bytes'\n")
    src = "@cache\ndef f(a, b=2):\n    return a + b\n"
    assert fmt.decode(fmt.encode(src)) == ast.unparse(ast.parse(src))

    def lossy(node: object) -> object:  # a schema bug: decorators dropped
        out = ast_json.ast_to_json(node)
        out["body"][0].pop("decorator_list", None)
        return out

    monkeypatch.setattr(pyformats, "ast_to_json", lossy)
    with pytest.raises(FormatError, match="would change the program"):
        fmt.encode(src)


@pytest.mark.parametrize("text", ["{", '{"_type": "Nope"}', '{"_type": "Module", "body": [{"_type": "Name"}]}',
                                  "[" * 5000 + "]" * 5000, '{"_type": "Module", "body": 3}', "\ud800"])
def test_json_ast_decode_garbage_is_a_format_error(text: str) -> None:
    with pytest.raises(FormatError):
        get_format("python-json-ast").decode(text)


@pytest.mark.parametrize("text", ["def f(:\n", "x = 1\x00\n", "(" * 5000 + ")" * 5000, "-" * 20000 + "x",
                                  "if x:\npass\n", "\ud800 = 1"])
def test_bad_python_is_positioned_never_raised(text: str) -> None:
    for name in PYTHON_FORMATS[:3]:
        errors = get_format(name).validate(text)
        assert errors and all(isinstance(e, FormatError) and e.line for e in errors), name
    for name in PYTHON_FORMATS[1:]:
        with pytest.raises(FormatError):
            get_format(name).encode(text)


def test_deep_trees_are_compared_without_recursion() -> None:
    deep = "x = " + "+".join(["1"] * 900) + "\n"  # about as deep as ast.parse builds at the default limit
    assert ast_diff(deep, deep) is None
    assert ast_diff(deep, deep.replace("1+1\n", "1+2\n")) is not None
    with pytest.raises(LanguageSyntaxError, match="too deeply nested"):  # deeper: refused, not a RecursionError
        ast_diff(deep.replace("1+", "1+" * 20, 500), deep)


def test_sandbox_worker_reads_the_same_schema() -> None:
    """The worker's copy of the JSON-tree reader (it runs with nothing of coonbench importable) is this one."""
    for name in ("POSITION_FIELDS", "LIST_FIELDS", "NOT_LIST"):
        assert getattr(runner, name) == getattr(ast_json, name), name
    for name in ("_default", "AstJsonError", "json_to_ast", "module_from_json"):
        assert inspect.getsource(getattr(runner, name)) == inspect.getsource(getattr(ast_json, name)), name


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=300), st.sampled_from(["def f(:", "{\"_type\": \"Module\"}", "[{}]", "x = (1,"])))
def test_hostile_text_is_an_error_never_a_crash(text: str) -> None:
    """Any text: ``validate`` returns errors (never raises), ``decode`` returns or raises ``FormatError``, and so
    does ``encode`` of the source formats."""
    for name in PYTHON_FORMATS:
        fmt = get_format(name)
        assert isinstance(fmt.validate(text), list)
        for op in (fmt.decode, fmt.encode):
            try:
                op(text)
            except FormatError:
                pass


MINIFIED_FORMATS = ("python-minified", "python-minifier")


@pytest.mark.parametrize("name", MINIFIED_FORMATS)
def test_a_reply_asked_in_a_minified_format_must_be_minified(name: str) -> None:
    """A copy of the pretty source decodes to the same program, so without the layout check a conversion task
    scored it correct (``coonbench validate``'s prompt echo found it). The format's own output passes; a comment, a
    blank line or a four-space indent does not; python-minified also refuses a docstring, python-minifier keeps
    them."""
    from coonbench.answers.check import check_answer

    source = '"""Doc."""\n\n\ndef f(x):\n    """Twice x."""\n    return 2 * x  # doubled\n'
    fmt = get_format(name)
    assert check_answer(f"```python\n{fmt.encode(source)}\n```", name).ok
    echo = check_answer(f"```python\n{source}\n```", name)
    assert not echo.ok and echo.error.startswith(f"the reply is not {fmt.label}: it keeps a")
    for text, fault in (("def f(x):\n return 2*x # doubled\n", "it keeps a comment (line 2)"),
                        ("def f(x):\n\n return 2*x\n", "it keeps a blank line (line 2)"),
                        ("def f(x):\n    return 2*x\n", "it indents by 4 at line 2"),
                        ("def f(x):\n if x:\n   return 2*x\n", "it indents by 2 at line 3")):
        assert fmt.spelling_error(text) is not None and fault in str(fmt.spelling_error(text)), text
    docstring = 'def f(x):\n """Twice x."""\n return 2*x\n'
    assert (fmt.spelling_error(docstring) is None) == (name == "python-minifier")
    assert get_format("python").spelling_error(source) is None  # the source format is written as it comes
