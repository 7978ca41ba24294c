"""The two bug classes ``coonbench validate`` found (issue 56), through validate's own path on the samples that
show them: CI's ``--limit-per-task 3`` draws three samples per task, which need not include either.

- An answer taken from an echo of the prompt: the tools prompt says a page holds 5 records, so the prompt-echo
  reply read as "5", right on every question whose answer is the page size.
- Quote style: modification-edge-086's three-turn COON session, whose last program holds a plain literal inside
  another string's interpolation (``'${name.split(' ')}'``), scored its other-quotes variant wrong.

Each sample's replies are the families ``variants_for`` makes (the gold, the variant, and a near miss or garbage
reply beside it, which must stay wrong), scored by the task as users run it (``_task``) with validate's scripted
solver, in one ``inspect eval`` per task."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import task_with
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import MemoryDataset, Sample

from coonbench.datasets.tools.questions import PAGE_SIZE
from coonbench.validity.run import _task, _verdict, scripted_reply, variants_for

SESSION = "modification-edge-086-turns3"
pytestmark = pytest.mark.slow  # ~40 s: two tasks built as users run them, two small evaluations


def _verdicts(name: str, pick: object, wanted: set[str], log_dir: Path) -> dict[tuple[str, str], bool]:
    """``(sample id, variant name) -> scored correct`` for the variants named in ``wanted`` of the samples
    ``pick`` keeps, scored by the task ``name`` as ``coonbench validate`` scores them."""
    task = _task(name)
    everything = list(task.dataset)
    chosen = [s for s in everything if pick(s)]  # type: ignore[operator]
    assert chosen, f"{name}: no sample shows the case this test is about"
    replies: dict[str, str] = {}
    planned: dict[str, tuple[str, str]] = {}
    expanded: list[Sample] = []
    for sample in chosen:
        for v in variants_for(name, sample, everything):
            vid = f"{sample.id}~{v.family}~{v.name}"
            if v.name in wanted and vid not in planned:
                replies[vid], planned[vid] = v.reply, (str(sample.id), v.name)
                expanded.append(Sample(id=vid, input=sample.input, target=sample.target, metadata=sample.metadata))
    probe = task_with(task, dataset=MemoryDataset(expanded), solver=scripted_reply(replies))
    [log] = inspect_eval(probe, model="mockllm/model", log_dir=str(log_dir), display="none", log_level="warning",
                         max_samples=4, score_display=False)
    assert log.status == "success", log.error
    out = {}
    for s in log.samples or []:
        score = next(iter((s.scores or {}).values()))
        out[planned[str(s.id)]] = _verdict(score.value)
    assert len(out) == len(planned)
    return out


def test_a_prompt_echo_is_no_answer_where_the_prompt_holds_the_answer(tmp_path: Path) -> None:
    def answers_page_size(s: Sample) -> bool:
        return str(s.target).strip() == str(PAGE_SIZE) and (s.metadata or {}).get("format") == "json"

    seen = _verdicts("tools", answers_page_size, {"prompt-echo", "answer-line"}, tmp_path)
    echoes = {sid: ok for (sid, v), ok in seen.items() if v == "prompt-echo"}
    assert echoes and not any(echoes.values()), echoes  # every echo wrong ...
    right = [ok for (sid, v), ok in seen.items() if v == "answer-line"]
    assert right and all(right)  # ... and the answer itself right


def test_the_other_quotes_session_reply_is_equivalent(tmp_path: Path) -> None:
    seen = _verdicts("modification-turns3", lambda s: str(s.id).startswith(SESSION),
                     {"other-quotes", "gold-with-prose", "changed-string", "deleted-statement"}, tmp_path)
    quotes = {sid: ok for (sid, v), ok in seen.items() if v == "other-quotes"}
    assert f"{SESSION}-coon" in quotes and all(quotes.values()), quotes
    assert all(ok for (sid, v), ok in seen.items() if v == "gold-with-prose")
    misses = {k: ok for k, ok in seen.items() if k[1] in ("changed-string", "deleted-statement")}
    assert misses and not any(misses.values()), misses  # a near miss beside it stays wrong: the scorer still tells
