"""The compiled COON codec (mypyc, ``setup.py``): it is what an install runs, it gives the same bytes as the Python
source, and an extension module older than its source is never used."""

from __future__ import annotations

import importlib.machinery
import json
import os
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from coonbench import _native
from coonbench.resources import REPO_ROOT, SHARED_DIR

REAL = SHARED_DIR / "reference" / "dart-real"

# encode (both comment modes) and decode of every file given; the digest of all outputs, or the error text
_DIGEST = """
import hashlib, json, sys
from pathlib import Path
import coonbench._native as native
from coonbench.formats.coon import decode, encode
digest, count = hashlib.sha256(), 0
for root in sys.argv[1:]:
    for path in sorted(Path(root).rglob("*.dart")):
        source = path.read_text(encoding="utf-8", errors="replace")
        for keep in (False, True):
            try:
                out = encode(source, keep_comments=keep)
                out += "\\x00" + decode(out)
            except Exception as err:
                out = "ERR " + type(err).__name__ + str(err)
            digest.update(out.encode("utf-8", "surrogatepass"))
            count += 1
import coonbench.formats.coon.encoder as module
print(json.dumps({"build": native.STATUS["build"], "file": module.__file__, "n": count, "sha": digest.hexdigest()}))
"""


def _run(code: str, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> dict[str, str]:
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=cwd or REPO_ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


_BUILD = """
import json
import coonbench._native as native
import coonbench.dart.scan, coonbench.formats.coon.encoder
modules = {m: __import__("sys").modules[m].__file__ for m in native.NATIVE_MODULES}
print(json.dumps({**native.STATUS, "files": modules}))
"""


def test_the_installed_codec_is_compiled() -> None:
    """What README command 2 installs is the compiled codec (the speed figures in docs/coon.md are its): a fresh
    process that does not ask for the Python source runs every listed module from its extension. Fails on a pure
    Python install, whatever this test process was asked for."""
    env = {k: v for k, v in os.environ.items() if k != _native.PURE_ENV}
    done = subprocess.run([sys.executable, "-c", _BUILD], capture_output=True, text=True, env=env, cwd=REPO_ROOT)
    assert done.returncode == 0, done.stderr
    status = json.loads(done.stdout.strip().splitlines()[-1])
    assert status["build"] == "compiled", status["why"]
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    assert all(path.endswith(suffixes) for path in status["files"].values()), status["files"]


def test_compiled_and_python_codecs_give_the_same_bytes() -> None:
    """The same source compiled or interpreted: identical COON and Dart on our corpus (and the development set)."""
    roots = [str(REPO_ROOT / "data" / "dart")] + ([str(REAL)] if REAL.exists() else [])
    compiled = _run(_DIGEST, *roots)
    python = _run(_DIGEST, *roots, env={_native.PURE_ENV: "1"})
    assert python["build"] == "python" and python["file"].endswith(".py")
    files = sum(len(list(Path(root).rglob("*.dart"))) for root in roots)
    assert compiled["n"] == python["n"] == 2 * files >= 200  # both comment modes of every file (data/dart: 100)
    assert compiled["sha"] == python["sha"]


def _fake_build(tmp_path: Path, digest: str) -> Path:
    """A copy of the package whose codec modules have (fake) extension modules beside them, and a stamp."""
    root = tmp_path / "checkout"
    shutil.copytree(REPO_ROOT / "coonbench", root / "coonbench", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    (root / "coonbench" / _native.STAMP).unlink(missing_ok=True)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for module in _native.NATIVE_MODULES:
        path = root.joinpath(*module.split(".")).with_suffix(suffix)
        path.write_bytes(b"not an extension module: importing it would fail")
    (root / f"{_native.GROUP}__mypyc{suffix}").write_bytes(b"the build's shared part (found, never loaded)")
    (root / "coonbench" / _native.STAMP).write_text(digest + "\n", encoding="utf-8")
    return root


_STATUS = """
import json, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import coonbench._native as native
    from coonbench.formats.coon import decode, encode
    back = decode(encode("void main() { print(1_000); }"))
import coonbench.formats.coon.encoder as module
warned = [str(w.message) for w in caught]
print(json.dumps({**native.STATUS, "file": module.__file__, "back": back, "warnings": warned}))
"""


def test_an_extension_older_than_its_source_is_not_used(tmp_path: Path) -> None:
    root = _fake_build(tmp_path, "0" * 64)  # a stamp from other sources
    status = _run(_STATUS, env={"PYTHONPATH": str(root)}, cwd=tmp_path)
    assert status["build"] == "python" and "older than its source" in status["why"]
    assert status["file"] == str(root / "coonbench" / "formats" / "coon" / "encoder.py")
    assert "print(1_000);" in status["back"]
    assert any("pip install -e ." in w for w in status["warnings"])


def test_an_extension_that_matches_its_source_is_used(tmp_path: Path) -> None:
    root = _fake_build(tmp_path, _native.source_digest())
    code = "import json, coonbench._native as n; print(json.dumps(n.STATUS))"
    assert _run(code, env={"PYTHONPATH": str(root)}, cwd=tmp_path)["build"] == "compiled"
    forced = _run(code, env={"PYTHONPATH": str(root), _native.PURE_ENV: "1"}, cwd=tmp_path)
    assert forced["build"] == "python" and _native.PURE_ENV in forced["why"]
    # one codec source edited after the build: every codec module comes from source (a mypyc group calls across)
    target = root / "coonbench" / "formats" / "coon" / "layout.py"
    target.write_text(target.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert _run(_STATUS, env={"PYTHONPATH": str(root)}, cwd=tmp_path)["build"] == "python"


def test_a_build_without_its_shared_module_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """A build whose shared library is not installed (a rebuild that failed after an earlier one succeeded) would
    fail at the first import: the Python source is used instead, with a warning."""
    monkeypatch.setattr(_native, "STATUS", {"build": "python", "why": ""})
    monkeypatch.setattr(_native, "_compiled", lambda module: True)
    monkeypatch.setattr(_native.importlib.util, "find_spec", lambda name, *args: None)
    with pytest.warns(UserWarning, match="incomplete"):
        status = _native.activate()
    assert status["build"] == "python"


_STALE_IMPORT = """
import json, sys
hooks_before = [repr(f) for f in sys.meta_path] + [repr(h) for h in sys.path_hooks]
import coonbench, coonbench._native as native
decided = dict(native.STATUS)
hooks_after_import = [repr(f) for f in sys.meta_path] + [repr(h) for h in sys.path_hooks]
loaded_after_import = [m for m in native.NATIVE_MODULES if m in sys.modules]
import coonbench.dart.scan
from coonbench.formats.coon import decode, encode
back = decode(encode("void main() { print(1_000); }"))
import coonbench.dart.minify  # the attribute chain of a plain import reaches the source's module
chain = coonbench.dart.minify.__file__
hooks_after_use = [repr(f) for f in sys.meta_path] + [repr(h) for h in sys.path_hooks]
print(json.dumps({"decided": decided, "same_import": hooks_after_import == hooks_before,
                  "same_use": hooks_after_use == hooks_before, "loaded_after_import": loaded_after_import,
                  "files": {m: sys.modules[m].__file__ for m in native.NATIVE_MODULES}, "back": back,
                  "chain": chain}))
"""


def test_a_stale_build_runs_from_source_without_an_import_hook(tmp_path: Path) -> None:
    """Every compiled module is a fake that would fail to load: the codec works (from source), no finder or path
    hook is added by the import or by the use, and the import alone loads no codec module."""
    root = _fake_build(tmp_path, "0" * 64)
    seen = _run(_STALE_IMPORT, env={"PYTHONPATH": str(root)}, cwd=tmp_path)
    assert seen["decided"]["build"] == "python" and "older than its source" in seen["decided"]["why"]
    assert seen["same_import"] and seen["same_use"]
    assert seen["loaded_after_import"] == []
    assert seen["files"] == {m: str(_native.source_path(m)).replace(str(REPO_ROOT), str(root))
                             for m in _native.NATIVE_MODULES}
    assert "print(1_000);" in seen["back"]
    assert seen["chain"].endswith("minify.py")


def test_the_stamp_is_the_digest_of_the_compiled_sources(tmp_path: Path) -> None:
    """The stamp the build wrote is the digest of today's sources, and that digest changes with every compiled
    module's bytes and with no other file's (each edited in turn in a copy of the package)."""
    stamp = REPO_ROOT / "coonbench" / _native.STAMP
    if _native.STATUS["build"] == "compiled":
        assert stamp.read_text(encoding="utf-8").strip() == _native.source_digest()
    root = tmp_path / "copy"
    shutil.copytree(REPO_ROOT / "coonbench", root / "coonbench", ignore=shutil.ignore_patterns("*.so", "__pycache__"))

    def digest() -> str:
        return runpy.run_path(str(root / "coonbench" / "_native.py"))["source_digest"]()

    first = digest()
    assert len(first) == 64 and int(first, 16) >= 0
    seen = {first}
    for module in _native.NATIVE_MODULES:
        path = root.joinpath(*module.split(".")).with_suffix(".py")
        original = path.read_bytes()
        path.write_bytes(original + b"\n")
        seen.add(digest())
        path.write_bytes(original)
    assert len(seen) == len(_native.NATIVE_MODULES) + 1  # each module's edit gave a digest of its own
    assert digest() == first  # and undoing it gives the first back
    other = root / "coonbench" / "formats" / "coon" / "verifier.py"  # not compiled: not in the digest
    other.write_text(other.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert digest() == first


def test_a_pure_install_removes_an_earlier_build(tmp_path: Path) -> None:
    """``COONBENCH_PURE_PYTHON=1 pip install -e .`` must not leave an earlier build's extensions in use."""
    root = _fake_build(tmp_path, _native.source_digest())
    shutil.copy(REPO_ROOT / "setup.py", root / "setup.py")
    shutil.copy(REPO_ROOT / "pyproject.toml", root / "pyproject.toml")
    shutil.copy(REPO_ROOT / "README.md", root / "README.md")
    done = subprocess.run(
        [sys.executable, "setup.py", "--name"],
        capture_output=True,
        text=True,
        env={**os.environ, _native.PURE_ENV: "1"},
        cwd=root,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "not compiled" in done.stderr
    assert not list(root.rglob("*" + importlib.machinery.EXTENSION_SUFFIXES[0]))
    assert not (root / "coonbench" / _native.STAMP).exists()


@pytest.mark.slow
def test_a_codec_that_does_not_type_check_installs_as_pure_python(tmp_path: Path) -> None:
    """mypyc refuses code its type check rejects: the install goes on with the Python source and says why."""
    pytest.importorskip("mypyc.build", reason="mypy is not installed (pip install -e '.[dev]')")
    root = tmp_path / "checkout"
    shutil.copytree(REPO_ROOT / "coonbench", root / "coonbench", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(REPO_ROOT / name, root / name)
    target = root / "coonbench" / "formats" / "coon" / "layout.py"
    target.write_text(target.read_text(encoding="utf-8") + "\n\ndef _broken() -> int:\n    return 'text'\n")
    done = subprocess.run(
        [sys.executable, "setup.py", "--name"],
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != _native.PURE_ENV},
        cwd=root,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("coonbench")
    assert "could not compile the COON codec" in done.stderr and "runs as pure Python" in done.stderr
    assert "layout.py" in done.stderr and "Incompatible return value" in done.stderr
