"""Our corpora and question sets as Hugging Face datasets, and a retrieval run read back from a local dataset
folder through Inspect's hf_dataset (offline: HF_DATASETS_OFFLINE=1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from coonbench.datasets.hf import COMPREHENSION_FILE, hf_retrieval_samples, save_hf, to_hf
from coonbench.languages import get_language

CORPUS_DIR = get_language("dart").corpus().root
from coonbench.datasets.retrieval import QUESTIONS_FILE, retrieval_samples
from coonbench.evals.retrieval import retrieval
from coonbench.solvers.gold import gold


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def test_corpus_and_questions_as_datasets() -> None:
    corpus = to_hf("dart-corpus")
    manifest = json.loads((CORPUS_DIR / "manifest.json").read_text())["samples"]
    assert len(corpus) == len(manifest) and corpus[0]["id"] == manifest[0]["id"]
    assert corpus[0]["source"] == (CORPUS_DIR / manifest[0]["path"]).read_text()
    comp = to_hf("comprehension")
    assert len(comp) == sum(1 for line in COMPREHENSION_FILE.read_text().splitlines() if line.strip())
    ret = to_hf("retrieval")
    assert len(ret) == sum(1 for line in QUESTIONS_FILE.read_text().splitlines() if line.strip())
    assert json.loads(ret[0]["data"])  # the dataset travels with the question


def test_saved_folder_loads_with_datasets(tmp_path: Path) -> None:
    from datasets import load_dataset

    folder = save_hf("comprehension", tmp_path / "comp")
    loaded = load_dataset(str(folder), split="train")
    assert loaded.to_list() == to_hf("comprehension").to_list()


def test_retrieval_from_hf_folder_matches_jsonl(tmp_path: Path) -> None:
    folder = save_hf("retrieval", tmp_path / "ret")
    samples, skipped = hf_retrieval_samples(folder, "toon,csv,markdown-kv")
    reference, ref_skipped = retrieval_samples("toon,csv,markdown-kv")
    assert [(s.id, s.input, s.target) for s in samples] == [(s.id, s.input, s.target) for s in reference]
    assert {k: [i["id"] for i in v] for k, v in skipped.items()} == ref_skipped


def test_gold_run_from_hf_folder(tmp_path: Path) -> None:
    folder = save_hf("retrieval", tmp_path / "ret")
    (log,) = inspect_eval(retrieval(formats="json,csv", questions_file=str(folder)), solver=gold(),
                          model="mockllm/model", display="none", log_dir=str(tmp_path / "logs"), limit=40)
    assert log.status == "success", log.error
    metrics = {k: m.value for score in log.results.scores for k, m in score.metrics.items()}
    assert metrics["accuracy"] == 1.0 and log.results.total_samples == 40
    assert "csv" in log.eval.metadata["skipped"]  # nested datasets: reason recorded, not dropped silently
    assert all(r for r in log.eval.metadata["skipped"]["csv"]["reasons"].values())


def test_bad_record_is_named(tmp_path: Path) -> None:
    from datasets import Dataset

    rows = to_hf("retrieval").to_list()[:2]
    rows[1]["data"] = "{not json"
    Dataset.from_list(rows).to_parquet(str(tmp_path / "bad.parquet"))
    with pytest.raises(ValueError, match=rf"record '{rows[1]['id']}': field 'data'"):
        hf_retrieval_samples(tmp_path / "bad.parquet", "json")
