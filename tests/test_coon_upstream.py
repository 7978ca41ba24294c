"""``coon-upstream``: the published COON compressor as an optional, lossy plug-in format."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from coonbench.tasks.conditions import ConditionError, code_format_names, encoded, lossy_roundtrip, refusal
from coonbench.datasets.corpus import load_corpus
from coonbench.formats import FormatError, get_format
from coonbench.formats import coon_upstream
from coonbench.evals.comprehension import comprehension
from coonbench.evals.generation import generation
from coonbench.solvers.gold import gold


@pytest.fixture(autouse=True)
def fresh_caches() -> Iterator[None]:
    """Encodings and refusals are cached per (format, source); these tests change whether the package is importable."""
    refusal.cache_clear()
    lossy_roundtrip.cache_clear()
    encoded.cache_clear()
    yield
    refusal.cache_clear()
    lossy_roundtrip.cache_clear()
    encoded.cache_clear()


def _available() -> None:
    why = coon_upstream.unavailable()
    if why is not None:
        pytest.skip(f"coon-upstream cannot run here: {why}")


def test_always_registered_lossy_code_format() -> None:
    fmt = get_format("coon-upstream")
    assert fmt.kind == "code" and fmt.lossless is False
    assert "coon-upstream" in code_format_names()


def test_missing_package_is_a_refusal_with_the_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "coon", None)  # import coon → ImportError
    source = load_corpus(bands=["simple"])[0].source
    with pytest.raises(FormatError, match=r"not installed.*pip install 'coonbench\[upstream\]'"):
        get_format("coon-upstream").encode(source)
    assert coon_upstream.encode_or_none(source) is None
    task = comprehension(formats="coon-upstream,dart", bands="simple")
    skipped = task.metadata["skipped"]
    assert len(skipped) == len(load_corpus(bands=["simple"]))
    assert all("coonbench[upstream]" in s["reason"] and s["condition"] == "coon-upstream" for s in skipped)
    assert {s.metadata["format"] for s in task.dataset} == {"dart"}


def test_missing_spec_tables_are_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pytest.importorskip("coon", reason="the optional package 'coon' is not installed")
    monkeypatch.delenv(coon_upstream.SPEC_ENV, raising=False)
    monkeypatch.setattr(coon_upstream, "SHARED_DIR", tmp_path)
    assert "spec/" in str(coon_upstream.unavailable()) and coon_upstream.SPEC_ENV in str(coon_upstream.unavailable())


def test_lossy_upstream_in_comprehension_gold_100_with_roundtrip_findings(tmp_path: Path) -> None:
    _available()
    source = load_corpus(bands=["simple"])[0].source
    encoded = coon_upstream.encode_or_none(source)
    assert encoded and len(encoded) < len(source)
    assert refusal("coon-upstream", source, True) is None  # lossy: only the encoding is required
    task = comprehension(formats="coon-upstream,dart", bands="simple")
    upstream = [s for s in task.dataset if s.metadata["format"] == "coon-upstream"]
    assert upstream and all(s.metadata["lossless"] is False for s in upstream)
    # the published decompressor breaks these programs: said per sample, with the first difference
    broken = [s for s in upstream if s.metadata["roundtrip"] is False]
    assert broken and all(s.metadata["roundtrip_difference"] for s in broken)
    assert dict(lossy_roundtrip("coon-upstream", source))["roundtrip"] is False
    [log] = inspect_eval(task, model="mockllm/model", solver=gold(), log_dir=str(tmp_path), display="none")
    assert log.status == "success"
    metrics = {k: m.value for s in log.results.scores for k, m in s.metrics.items()}
    assert metrics["format/coon-upstream"] == 1.0 and "tokens/coon-upstream" in metrics


def test_generation_refuses_the_lossy_upstream_format() -> None:
    with pytest.raises(ConditionError, match="'coon-upstream' is lossy"):
        generation(formats="coon-upstream", bands="simple")
