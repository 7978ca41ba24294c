"""The judge wired into generation and modification: criteria per sample, both scores, measurable agreement."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import inspect_ai
import pytest
from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, get_model

from coonbench.judging.agreement import check_judge_agreement
from coonbench.judging.criteria import parse_criteria
from coonbench.evals.generation import generation
from coonbench.evals.modification import modification


def judge_model(passes: Any) -> Any:
    """A scripted judge: every criterion passes when ``passes(answer_text)`` is true, else every one fails."""

    def respond(messages: list[ChatMessage], tools: Any, tool_choice: Any, config: GenerateConfig) -> ModelOutput:
        prompt = messages[-1].text
        count = int(re.search(r"with exactly (\d+) entries", prompt).group(1))  # type: ignore[union-attr]
        ok = passes(prompt)
        steps = [
            {"criterion": f"c{i}", "weight": 1, "passed": ok, "confidence": 90, "explanation": "scripted"}
            for i in range(count)
        ]
        return ModelOutput.from_content(model="judge", content=json.dumps({"evaluation_steps": steps}))

    return get_model("mockllm/model", custom_outputs=respond, memoize=False)


def model_under_test(good_ids: set[str], golds: dict[str, str]) -> Any:
    """Replies with the gold program for ``good_ids`` and with a wrong one-liner for the others."""

    def respond(messages: list[ChatMessage], tools: Any, tool_choice: Any, config: GenerateConfig) -> ModelOutput:
        prompt = messages[-1].text
        sid = next(s for s, g in golds.items() if s in prompt)
        return ModelOutput.from_content(model="m", content=golds[sid] if sid in good_ids else "```coon\nT'nope'\n```")

    return respond


@pytest.mark.parametrize("make_task", [generation, modification])
def test_every_sample_carries_valid_criteria(make_task: Any) -> None:
    task = make_task(bands="simple")
    for sample in task.dataset:
        criteria = parse_criteria(sample.metadata["criteria"], source=str(sample.id))
        assert criteria.accuracy and criteria.completeness


def test_judge_beside_the_requirement_check_and_their_agreement(tmp_path: Path) -> None:
    task = generation(kinds="nl-to-coon", bands="simple", max_retries=0, judge="weighted")
    samples = list(task.dataset)[:4]
    # tag each prompt with its id so the scripted model can answer per sample
    for s in samples:
        s.input = f"{s.input}\n[{s.id}]"
    golds = {f"[{s.id}]": s.metadata["gold"] for s in samples}
    good = {f"[{s.id}]" for s in samples[:2]}
    gold_bodies = [g.split("\n", 1)[1].rsplit("```", 1)[0].strip() for g in golds.values()]
    task.dataset = type(task.dataset)(samples)  # type: ignore[call-arg]

    def honest(prompt: str) -> bool:  # the judge passes exactly the gold programs
        return any(body in prompt for body in gold_bodies)

    [log] = inspect_ai.eval(
        task,
        model=get_model("mockllm/model", custom_outputs=model_under_test(good, golds), memoize=False),
        model_roles={"judge": judge_model(honest)},
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    for sample in log.samples:
        assert {"code_check", "judge"} <= set(sample.scores)
    checks = sorted(s.scores["code_check"].value["correct"] for s in log.samples)
    assert checks == [0.0, 0.0, 1.0, 1.0]
    alpha, units = check_judge_agreement(log.samples)
    assert units == 4 and alpha == pytest.approx(1.0)

    [lenient] = inspect_ai.eval(
        task,
        model=get_model("mockllm/model", custom_outputs=model_under_test(good, golds), memoize=False),
        model_roles={"judge": judge_model(lambda prompt: True)},
        log_dir=str(tmp_path),
        display="none",
    )
    alpha, units = check_judge_agreement(lenient.samples)
    assert units == 4 and (alpha is None or alpha < 1.0)


def test_unknown_judge_mode_is_rejected() -> None:
    with pytest.raises(ValueError, match="-T judge=fuzzy: unknown judge mode"):
        modification(bands="simple", judge="fuzzy")  # type: ignore[arg-type]
