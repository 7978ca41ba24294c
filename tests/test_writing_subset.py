"""``-T questions=N`` on the writing task: N whole cases, every selected format and source of each, drawn with the
seed and balanced over size and shape, built lazily (only the drawn cases' samples), and more cases than there are
handled as the other tasks handle more questions (all of them; an error above the cases every format can hold)."""

from __future__ import annotations

import re
import shlex
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.dataset import Sample

import coonbench.datasets.writing as writing_data
from coonbench.datasets.writing import STRUCTURED, expected_for
from coonbench.datasets.writing.cases import SHAPES, SIZES, all_cases
from coonbench.evals.writing import writing
from coonbench.formats import get_format
from coonbench.tasks.samples import TaskArgumentError
from coonbench.tokens import count_tokens

FORMATS = "json,json-structured,toon,yaml,xml"
SOURCES = "description,json"


def _samples(**arguments: Any) -> list[Sample]:
    return list(writing(**arguments).dataset)


def _cases_per_format(samples: list[Sample]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for s in samples:
        meta = s.metadata or {}
        out.setdefault(str(meta["format"]), set()).add(str(meta["case_id"]))
    return out


@pytest.fixture(scope="module")
def full() -> list[Sample]:
    return _samples(formats=FORMATS, sources=SOURCES)


@pytest.mark.parametrize(("n", "seed"), [(1, 0), (4, 0), (6, 3), (11, 7)])
def test_every_format_gets_the_same_n_whole_cases(full: list[Sample], n: int, seed: int) -> None:
    sub = _samples(formats=FORMATS, sources=SOURCES, questions=n, seed=seed)
    per_format = _cases_per_format(sub)
    assert set(per_format) == set(FORMATS.split(","))
    drawn = next(iter(per_format.values()))
    assert len(drawn) == n and all(cases == drawn for cases in per_format.values())
    whole = full if seed == 0 else _samples(formats=FORMATS, sources=SOURCES, seed=seed)
    kept = [s for s in whole if (s.metadata or {})["case_id"] in drawn]  # every source and format, in order
    assert [s.id for s in sub] == [s.id for s in kept]
    assert [s.input for s in sub] == [s.input for s in kept]  # built exactly as the whole dataset builds them


def test_the_draw_is_seeded_stable_and_balanced_over_shape_and_size() -> None:
    def drawn(seed: int) -> list[tuple[str, str]]:
        sub = _samples(formats="json,toon", sources="description", questions=len(SHAPES), seed=seed)
        return sorted({(str(s.metadata["shape"]), str(s.metadata["size"])) for s in sub if s.metadata})

    draws = {seed: drawn(seed) for seed in range(5)}
    assert drawn(3) == draws[3]  # the same seed, the same cases
    assert len({tuple(d) for d in draws.values()}) > 1  # another seed, other cases
    for cases in draws.values():  # as many cases as shapes: every shape once, every size as often
        assert Counter(shape for shape, _ in cases) == Counter(SHAPES)
        assert Counter(size for _, size in cases) == {size: len(SHAPES) // len(SIZES) for size in SIZES}


def test_only_the_drawn_cases_are_built(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []
    real = writing_data._sample

    def counted(case: Any, *rest: Any) -> Sample:
        built.append(case.id)
        return real(case, *rest)

    monkeypatch.setattr(writing_data, "_sample", counted)
    sub = _samples(formats=FORMATS, sources="description", questions=2)
    assert len(built) == len(sub) == 2 * len(FORMATS.split(",")) and len(set(built)) == 2


def test_more_cases_than_there_are(full: list[Sample]) -> None:
    cases = len(SHAPES) * len(SIZES)
    for n in (cases, cases + 5):  # all of them, as without -T questions
        assert [s.id for s in _samples(formats=FORMATS, sources=SOURCES, questions=n)] == [s.id for s in full]
    csv = get_format("csv")  # CSV holds only the cases its round trip gives back: only those can be drawn
    holds = [c.id for c in all_cases(list(SHAPES), list(SIZES)) if expected_for(csv, c.data)[1] is None]
    assert 0 < len(holds) < cases
    sub = _samples(formats="json,csv", sources="description", questions=len(holds))
    assert {str(s.metadata["case_id"]) for s in sub if s.metadata} == set(holds)
    with pytest.raises(TaskArgumentError, match=f"^-T questions={len(holds) + 1}: only {len(holds)} of the {cases} "):
        writing(formats="json,csv", sources="description", questions=len(holds) + 1)


def _recipe() -> tuple[dict[str, str], int, str]:
    """The ``writing`` entry of benchmarks/publish_qwen.sh: its ``-T`` arguments, ``--max-tokens``, and the
    script's text."""
    text = (Path(__file__).resolve().parent.parent / "benchmarks" / "publish_qwen.sh").read_text()
    entry = re.search(r"^\s*writing\) args=\((.*?)\) ;;", text, re.MULTILINE | re.DOTALL)
    assert entry, "publish_qwen.sh has a writing entry"
    words = shlex.split(entry[1])
    task_args = dict(words[i + 1].split("=", 1) for i, w in enumerate(words) if w == "-T")
    return task_args, int(words[words.index("--max-tokens") + 1]), text


def test_the_published_recipe_compares_the_formats_the_issue_names_on_the_same_cases() -> None:
    task_args, max_tokens, text = _recipe()
    formats = task_args["formats"].split(",")
    assert {"toon", "json", STRUCTURED} <= set(formats) and len(formats) >= 5
    samples = _samples(**{k: int(v) if k == "questions" else v for k, v in task_args.items()}, tokenizer="qwen")
    per_format = _cases_per_format(samples)
    assert set(per_format) == set(formats)
    assert all(len(cases) == int(task_args["questions"]) for cases in per_format.values())
    assert len({frozenset(cases) for cases in per_format.values()}) == 1
    longest = max(count_tokens(str((s.metadata or {})["gold"]), "qwen") for s in samples)
    assert longest < max_tokens  # the script's promise: --max-tokens above every gold answer of the subset
    assert f"(up to {longest}, " in text  # the sizing note names the longest gold document
