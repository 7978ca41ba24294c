"""-T formats= takes any registered data format (plug-ins included, or 'all'); unknown or code formats get a clear
error listing the data formats; a format that refuses a dataset skips those samples with the reason recorded in
the eval's metadata — never a crash, never a silent drop."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval

from coonbench.datasets.retrieval import data_format_names, parse_formats, read_questions, retrieval_samples_with_skips
from coonbench.datasets.retrieval.common import QUESTIONS_FILE
from coonbench.formats import FormatError, list_formats
from coonbench.formats import base as format_base
from coonbench.formats.base import Format
from coonbench.evals.retrieval import retrieval
from coonbench.solvers.gold import gold


class _FlatOnly(Format):
    """A plug-in that refuses any dataset holding a nested object (as a third-party format might)."""

    name = "flat-only-test"
    description = "test format: one line per top-level key, refuses nested objects"
    kind = "data"
    fence = "text"
    lossless = False

    def encode(self, source: Any) -> str:
        def walk(v: Any) -> None:
            if isinstance(v, dict):
                for x in v.values():
                    if isinstance(x, dict):
                        raise FormatError("flat-only-test refuses nested objects")
                    walk(x)
            elif isinstance(v, list):
                for x in v:
                    walk(x)

        walk(source)
        return repr(source)


@pytest.fixture
def plugin(monkeypatch: pytest.MonkeyPatch) -> str:
    format_base._load_plugins()
    monkeypatch.setitem(format_base._REGISTRY, _FlatOnly.name, _FlatOnly())
    return _FlatOnly.name


def test_data_formats_are_the_registered_ones() -> None:
    assert data_format_names() == sorted(f.name for f in list_formats() if f.kind == "data")
    assert {"markdown-kv", "markdown-table", "json", "toon"} <= set(data_format_names())
    assert parse_formats("all") == data_format_names()


def test_unknown_and_code_formats_are_named() -> None:
    with pytest.raises(FormatError) as err:
        parse_formats("json,jsonn")
    text = str(err.value)
    assert "unknown format 'jsonn'" in text and "markdown-kv" in text and "coon," not in text
    with pytest.raises(FormatError, match="'coon' is a kind=\"code\" format, not a data format"):
        parse_formats("coon")


def test_plugin_format_runs_and_refusals_are_recorded(plugin: str) -> None:
    assert plugin in parse_formats("all")
    samples, skipped = retrieval_samples_with_skips(f"json,{plugin}")
    n_questions = len(read_questions(QUESTIONS_FILE))
    ours = [s for s in samples if s.metadata["format"] == plugin]
    assert ours and skipped[plugin]
    assert len(ours) + len(skipped[plugin]) == n_questions  # nothing dropped silently
    assert all(item["reason"] == "flat-only-test refuses nested objects" for item in skipped[plugin])
    assert {item["dataset"] for item in skipped[plugin]} >= {"datasets/orders.json", "datasets/config.json"}


def test_eval_metadata_records_skips(plugin: str, tmp_path) -> None:  # noqa: ANN001
    (log,) = inspect_eval(retrieval(formats=f"json,{plugin}"), solver=gold(), model="mockllm/model",
                          display="none", log_dir=str(tmp_path), limit=60)
    assert log.status == "success", log.error
    skipped = log.eval.metadata["skipped"]
    assert set(skipped) == {plugin}
    assert skipped[plugin]["reasons"]["datasets/orders.json"] == "flat-only-test refuses nested objects"
    assert skipped[plugin]["questions"] == len(skipped[plugin]["ids"]) > 0
    metrics = {k: m.value for score in log.results.scores for k, m in score.metrics.items()}
    assert metrics["accuracy"] == 1.0


def test_relative_paths_resolve_from_the_shell_directory(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    """inspect eval runs the task from evals/, so '-T suite=../shared/…' typed at the repo root must still work."""
    from coonbench.datasets.retrieval.common import user_path
    from coonbench.resources import REPO_ROOT

    (tmp_path / "q.jsonl").write_text("")
    monkeypatch.chdir(REPO_ROOT / "evals")
    monkeypatch.setenv("PWD", str(tmp_path))
    assert user_path("q.jsonl") == tmp_path / "q.jsonl"
    assert user_path("data/retrieval") == REPO_ROOT / "data" / "retrieval"  # the repository root as fallback
    assert user_path("nowhere.json") == Path("nowhere.json")  # left as typed: the loader's error names it


def test_primer_is_a_parameter_of_the_condition() -> None:
    from coonbench.datasets.retrieval import DataCondition, parse_conditions

    assert parse_conditions("toon,toon:noprimer,json-noprimer,yaml:full") == [
        DataCondition("toon"), DataCondition("toon", "none"), DataCondition("json", "none"), DataCondition("yaml", "full")]
    with pytest.raises(FormatError, match="unknown option 'bogus'"):
        parse_conditions("toon:bogus")
    samples, _ = retrieval_samples_with_skips("toon,toon:noprimer,toon:full")
    by_label = {s.metadata["format"]: s for s in samples if s.metadata["pair_id"] == "employees-q01"}
    primer = get_format_primer("toon")
    assert by_label["toon"].input.startswith(primer + "\n\nGiven the following data")
    assert by_label["toon-noprimer"].input.startswith("Given the following data in TOON format")
    assert by_label["toon-fullprimer"].input.startswith(get_format_primer("toon", "full"))
    assert by_label["toon-noprimer"].id == "retrieval-employees-q01-toon-noprimer"
    assert by_label["toon-noprimer"].metadata["primer"] is False and by_label["toon"].metadata["encoding"] == "toon"
    assert by_label["toon-noprimer"].metadata["input_tokens"] < by_label["toon"].metadata["input_tokens"]


def get_format_primer(name: str, variant: str = "short") -> str:
    from coonbench.formats import get_format

    return get_format(name).primer(variant)  # type: ignore[arg-type]
