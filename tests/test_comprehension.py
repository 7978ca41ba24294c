"""The comprehension dataset and task: regeneration, coverage, metadata, and end-to-end runs."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from coonbench.dart.questions import QUESTION_TYPES
from coonbench.datasets.comprehension import (
    QUESTIONS_FILE,
    build_questions,
    comprehension_dataset,
    load_questions,
    render_jsonl,
)
from coonbench.datasets.corpus import load_corpus
from coonbench.formats import get_format
from coonbench.tokens import count_tokens
from coonbench.evals.comprehension import comprehension
from coonbench.solvers.gold import gold

METADATA_KEYS = {"format", "category", "question_type", "complexity", "input_tokens", "primer", "primer_tokens"}
LABELS = {"coon", "coon-noprimer", "dart", "dart-minified"}  # the default conditions, as metadata names them


def test_regeneration_is_byte_identical() -> None:
    assert render_jsonl(build_questions()) == QUESTIONS_FILE.read_text(encoding="utf-8"), (
        "data/comprehension is stale: run python -m coonbench.datasets.comprehension --write"
    )


def test_the_datasets_library_loads_it() -> None:
    from datasets import load_dataset

    ds = load_dataset("json", data_files=str(QUESTIONS_FILE), split="train")
    assert len(ds) == len(load_questions())
    assert {"id", "question", "answer", "answer_type", "version"} <= set(ds.column_names)


def test_at_least_300_questions_of_every_type_with_unique_ids() -> None:
    questions = load_questions()
    assert len(questions) >= 300
    assert len({q.id for q in questions}) == len(questions)
    counts = Counter(q.question_type for q in questions)
    assert set(counts) == set(QUESTION_TYPES)
    assert all(n >= 20 for n in counts.values()), counts


def test_every_answer_is_rederived_from_its_source() -> None:
    """Cross-check: the stored answers are what the generator derives from the current sources."""
    stored = {q.id: q for q in load_questions()}
    derived = {q.id: q for q in build_questions()}
    assert stored == derived


def test_samples_per_condition_and_metadata() -> None:
    ds = comprehension_dataset(formats="coon,coon-noprimer,dart,dart-minified", bands="simple")
    simple = [q for q in load_questions() if q.sample_id.startswith("simple-")]
    assert len(ds) == 4 * len(simple)
    for sample in ds:
        meta = sample.metadata or {}
        assert METADATA_KEYS <= set(meta)
        assert meta["category"] == "comprehension" and meta["complexity"] == "simple"
        assert str(sample.id).endswith("-" + meta["format"])
        assert meta["input_tokens"] >= count_tokens(str(sample.input))
    by_condition = {s.metadata["format"]: s for s in ds if s.id.startswith(simple[0].id)}
    assert set(by_condition) == LABELS
    # the same question; COON shows the COON encoding, with or without the primer's tokens
    coon, bare = by_condition["coon"], by_condition["coon-noprimer"]
    assert coon.input == bare.input and coon.metadata["input_tokens"] > bare.metadata["input_tokens"]
    source = next(s.source for s in load_corpus() if s.id == simple[0].sample_id)
    assert get_format("coon").encode(source).strip() in str(coon.input)


def test_unknown_condition_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown format 'toon'"):
        comprehension_dataset(formats="toon")


def _metrics(log) -> dict[str, float]:
    return {k: m.value for s in log.results.scores for k, m in s.metrics.items()}


def test_gold_scores_100_percent(tmp_path: Path) -> None:
    [log] = inspect_eval(
        comprehension(bands="simple,edge"), model="mockllm/model", solver=gold(), log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    metrics = _metrics(log)
    assert metrics["accuracy"] == 1.0
    assert {k for k in metrics if k.startswith("format/")} == {f"format/{c}" for c in LABELS}
    assert metrics["answered"] == 1.0  # every reference answer reads as its type


def test_mockllm_run_scores_garbage_as_wrong(tmp_path: Path) -> None:
    [log] = inspect_eval(
        comprehension(formats="coon,dart"), model="mockllm/model", limit=10, log_dir=str(tmp_path), display="none"
    )
    assert log.status == "success"
    assert _metrics(log)["accuracy"] == 0.0
    sample = log.samples[0]
    assert sample.messages[0].role == "system"  # the COON primer
    score = sample.scores["answer_match"]
    assert score.value["correct"] == 0.0 and "Default output from mockllm" in (score.explanation or "")
    # wrong because it is no answer at all, not a wrong answer: the share shows as `answered`
    readable = [s.scores["answer_match"].value["answered"] for s in log.samples]
    assert readable == [0.0 if "cannot be read" in (s.scores["answer_match"].explanation or "") else 1.0
                        for s in log.samples]
    assert _metrics(log)["answered"] == sum(readable) / 10


def test_coon_abbreviations_count_as_widget_names(tmp_path: Path) -> None:
    """A model reading COON may answer ``S`` for Scaffold: the scorer's alias table accepts it, in every format."""
    from inspect_ai.model import ModelOutput, get_model

    from coonbench.formats.coon import widget_aliases

    abbreviation = {full: short for short, full in widget_aliases().items()}
    task = comprehension(formats="coon,dart", question_types="structure", bands="simple")
    roots = [s for s in task.dataset if s.metadata["subtype"] == "root_widget" and s.target in abbreviation]
    assert roots
    task.dataset = type(task.dataset)(roots[:2])  # type: ignore[call-arg]
    replies = [ModelOutput.from_content("m", abbreviation[str(s.target)]) for s in task.dataset]
    [log] = inspect_eval(
        task, model=get_model("mockllm/model", custom_outputs=replies), log_dir=str(tmp_path), display="none",
        max_samples=1,
    )
    assert _metrics(log)["accuracy"] == 1.0
    # the scorer is given the format's name, not its table: Inspect logs a scorer's arguments in every score event
    [event] = [e for e in log.samples[0].events if e.event == "score"]
    assert event.scorer_args == {"aliases": "coon"}


def test_aliases_by_format_name() -> None:
    """``aliases="coon"`` accepts COON's widget abbreviations; a format without any accepts none; an unknown name is
    refused when the scorer is made, naming the registered formats."""
    import asyncio

    from inspect_ai.model import ModelOutput
    from inspect_ai.scorer import Target
    from inspect_ai.solver import TaskState

    from coonbench.formats import FormatError
    from coonbench.formats.coon import widget_aliases
    from coonbench.scorers.answer import answer_match

    short, full = next(iter(widget_aliases().items()))
    assert get_format("coon").answer_aliases() == widget_aliases() and get_format("dart").answer_aliases() == {}

    def score(aliases: str | dict[str, str] | None) -> float:
        state = TaskState(model="m", sample_id="s", epoch=1, input="q", messages=[],
                          metadata={"answer_type": "widget-name"})
        state.output = ModelOutput.from_content("m", short)
        result = asyncio.run(answer_match(aliases=aliases)(state, Target(full)))
        return float(result.value["correct"])  # type: ignore[index]

    assert score("coon") == 1.0 and score(widget_aliases()) == 1.0
    assert score("dart") == 0.0 and score(None) == 0.0
    with pytest.raises(FormatError, match="unknown format 'coonn'.*coon"):
        answer_match(aliases="coonn")
