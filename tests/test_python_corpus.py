"""The Python corpus (``data/python/``): real files nobody here wrote, each with its licence, in bands computed
from its metrics, every one carried by every Python format.

Provenance is checked against the origin where this environment has it at the recorded version: the corpus file
must be the origin file byte for byte (the standard library of the running Python, the installed packages).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import sys
import sysconfig
from pathlib import Path

import pytest

from coonbench.datasets.corpus import build_manifest, load_corpus
from coonbench.languages import get_language
from coonbench.languages.python.corpus import BAND_SIZES, BANDS, CORPUS_DIR, band_of
from coonbench.resources import REPO_ROOT
from coonbench.tasks.conditions import refusal

PYTHON = get_language("python")
PERMISSIVE = {"PSF-2.0", "MIT", "BSD-2-Clause", "BSD-3-Clause", "Apache-2.0", "ISC"}
SOURCES = json.loads((CORPUS_DIR / "sources.json").read_text(encoding="utf-8"))


def _origin_file(record: dict[str, str]) -> Path | None:
    """The file the record says it was copied from, when this environment has that origin at that version."""
    if record["origin"] == "stdlib":
        if record["version"] != ".".join(map(str, sys.version_info[:3])):
            return None
        return Path(sysconfig.get_paths()["stdlib"]) / record["origin_path"]
    try:
        dist = importlib.metadata.distribution(record["origin"])
    except importlib.metadata.PackageNotFoundError:
        return None
    return Path(str(dist.locate_file(record["origin_path"]))) if dist.version == record["version"] else None


def test_corpus_size_bands_and_manifest() -> None:
    samples = load_corpus(language=PYTHON)  # checks every sha256 against the manifest
    assert len(samples) >= 100
    assert {b: sum(s.band == b for s in samples) for b in BANDS} == BAND_SIZES
    for s in samples:
        metrics = PYTHON.measure(s.source)
        assert band_of(int(metrics["loc"]), int(metrics["cyclomatic"])) == s.band, s.id
    assert build_manifest(language=PYTHON) == (CORPUS_DIR / "manifest.json").read_text(encoding="utf-8"), (
        "run `python -m coonbench.datasets.corpus --write-manifest --language python`")


def test_every_file_has_a_permissive_licence_and_an_origin() -> None:
    records = {r["path"]: r for r in SOURCES["files"]}
    on_disk = {p.relative_to(CORPUS_DIR).as_posix() for b in BANDS for p in (CORPUS_DIR / b).glob("*.py")}
    assert set(records) == on_disk
    checked = 0
    for path, record in records.items():
        assert record["licence"] in PERMISSIVE, path
        licence = CORPUS_DIR / record["licence_file"]
        assert licence.is_file() and len(licence.read_text(encoding="utf-8")) > 500, path
        origin = _origin_file(record)
        if origin is not None and origin.is_file():
            assert origin.read_bytes() == (CORPUS_DIR / path).read_bytes(), f"{path} differs from {origin}"
            checked += 1
    if checked == 0:
        pytest.skip("no origin of the corpus is installed here at its recorded version")
    assert "data/python/" in (REPO_ROOT / "data" / "LICENSE").read_text(encoding="utf-8")


def test_every_file_is_carried_by_every_python_format() -> None:
    for s in load_corpus(language=PYTHON):
        for name in ("python", "python-minified", "python-minifier", "python-json-ast"):
            assert refusal(name, s.source, True) is None, (s.id, name)


@pytest.mark.slow
def test_the_selection_script_reproduces_the_corpus() -> None:
    """``benchmarks/select_python_corpus.py --check`` on the Python and packages the corpus was drawn from."""
    if SOURCES["python"] != ".".join(map(str, sys.version_info[:3])):
        pytest.skip(f"the corpus was drawn on Python {SOURCES['python']}")
    for record in SOURCES["files"]:
        if record["origin"] != "stdlib" and _origin_file(record) is None:
            pytest.skip(f"{record['origin']} {record['version']} is not installed here")
    spec = importlib.util.spec_from_file_location("select_python_corpus",
                                                  REPO_ROOT / "benchmarks" / "select_python_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        files = module.render(module.select())
    finally:
        del sys.modules[spec.name]
    stale = [p for p, text in files.items() if (CORPUS_DIR / p).read_text(encoding="utf-8") != text]
    assert stale == [], "rerun `python benchmarks/select_python_corpus.py`"
    assert {p for p in files if p.endswith(".py")} == {r["path"] for r in SOURCES["files"]}
