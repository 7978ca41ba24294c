"""Peers in the same pipeline: TOON's raw per-call benchmark results as Inspect eval logs (one per model).

TOON publishes one JSON list per model (``results/accuracy/models/*.json``), each record a call: questionId, format,
model, expected, actual, isCorrect, inputTokens, outputTokens, latencyMs. Each becomes an ``EvalSample`` with
id ``<questionId>-<format>``, the recorded answer as the output, TOON's verdict kept as the score ``toon_verdict``
(``{"correct": 1/0}``) and the call's usage and latency, written with ``inspect_ai.log.write_eval_log`` so the logs
open in ``inspect view`` and go through ``coonbench report`` like ours.

TOON's question file (``questions.json``: id, dataset, type) gives each sample its question id (``pair_id``), its
dataset (``dataset``: the report clusters on it, 244 questions drawn from 13 datasets) and its question type.
Tokens are the provider's reported usage, each model in its own tokenizer: metadata ``tokenizer`` says so.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from inspect_ai.log import (
    EvalConfig,
    EvalDataset,
    EvalLog,
    EvalMetric,
    EvalPlan,
    EvalPlanStep,
    EvalResults,
    EvalSample,
    EvalScore,
    EvalSpec,
    EvalStats,
    write_eval_log,
)
from inspect_ai.model import ChatMessageAssistant, ChatMessageUser, ModelOutput, ModelUsage
from inspect_ai.scorer import Score

from coonbench.report.bounded import ReportInputError, number, read_json
from coonbench.report.load import clean_text

TASK_NAME = "toon-retrieval"
CATEGORY = "retrieval"
SCORER = "toon_verdict"
SOLVER = "toon-benchmark"  # the plan's name: TOON's own harness made these answers
MODEL_PREFIX = "toon"  # Inspect model names are provider/name
FIELDS = ("questionId", "format", "model", "expected", "actual", "isCorrect")
COUNT_FIELDS = ("inputTokens", "outputTokens", "latencyMs")  # optional; numbers when present
QUESTION_FIELDS = ("id", "dataset", "type")
QUESTIONS_FILE = ("generated", "questions.json")  # where the reference data keeps it, beside benchmarks/
NO_QUESTIONS = ("no TOON questions file (questions.json) given or found beside {src}: samples carry no dataset, "
                "so the report clusters by question, which understates the uncertainty (pass --questions FILE)")


def _json_list(path: Path, what: str) -> list[Any]:
    """A JSON list from one of TOON's files (bounded: size, nesting, integer length); a file that is not one
    raises naming it."""
    data = read_json(path, f"TOON {what} file")
    if not isinstance(data, list):
        raise ReportInputError(f"{path}: expected a JSON list of {what}")
    return data


def read_questions(path: Path) -> dict[str, dict[str, str]]:
    """TOON's questions by id: {id: {dataset, type}}; a malformed file raises naming the entry and field."""
    data = _json_list(path, "questions")
    out = {}
    for i, q in enumerate(data):
        bad = [f for f in QUESTION_FIELDS if not isinstance(q, dict) or not isinstance(q.get(f), str) or not q[f]]
        if bad:
            raise ReportInputError(f"{path}: entry {i}: missing or empty field(s) {', '.join(bad)}")
        out[clean_text(q["id"])] = {"dataset": clean_text(q["dataset"]), "type": clean_text(q["type"])}
    return out


def find_questions(src: Path) -> Path | None:
    """``generated/questions.json`` in the results folder or one of its parents (the reference data's layout)."""
    for folder in [src if src.is_dir() else src.parent, *(src if src.is_dir() else src.parent).parents][:6]:
        candidate = folder.joinpath(*QUESTIONS_FILE)
        if candidate.is_file():
            return candidate
    return None


def _records(path: Path) -> list[dict[str, Any]]:
    data = _json_list(path, "per-call results")
    for i, rec in enumerate(data):
        missing = [f for f in FIELDS if not isinstance(rec, dict) or f not in rec]
        if missing:
            raise ReportInputError(f"{path}: entry {i}: missing field(s) {', '.join(missing)}")
        for field in COUNT_FIELDS:
            value = rec.get(field)
            count = number(0 if value is None else value)
            if math.isnan(count) or count < 0 or (field != "latencyMs" and not count.is_integer()):
                raise ReportInputError(f"{path}: entry {i}: field {field} must be a non-negative "
                                       f"{'number' if field == 'latencyMs' else 'whole number'} up to 10^15, not "
                                       f"{str(value)[:40]!r}")
    return data


def _sample(rec: dict[str, Any], questions: dict[str, dict[str, str]] | None) -> EvalSample:
    model, fmt, qid, actual, expected = (clean_text(str(rec[k])) for k in ("model", "format", "questionId",
                                                                             "actual", "expected"))
    tokens = int(number(rec.get("inputTokens") or 0))  # checked by _records: whole, finite, bounded
    out_tokens = int(number(rec.get("outputTokens") or 0))
    latency = number(rec.get("latencyMs") or 0.0) / 1000
    usage = ModelUsage(input_tokens=tokens, output_tokens=out_tokens, total_tokens=tokens + out_tokens)
    output = ModelOutput.from_content(model=model, content=actual)
    output.usage = usage
    question = f"TOON benchmark question {qid}, data shown as {fmt} (the prompt is not part of TOON's results)"
    correct = bool(rec["isCorrect"])
    origin = (questions or {}).get(qid, {})
    return EvalSample(
        id=f"{qid}-{fmt}",
        epoch=1,
        input=question,
        target=expected,
        messages=[ChatMessageUser(content=question), ChatMessageAssistant(content=actual, model=model)],
        output=output,
        scores={SCORER: Score(value={"correct": 1.0 if correct else 0.0, "input_tokens": float(tokens)},
                              answer=actual, explanation="TOON's verdict: " + ("correct" if correct else "incorrect"))},
        metadata={"format": fmt, "category": CATEGORY, "question_type": origin.get("type", "-"), "complexity": "-",
                  "input_tokens": tokens, "pair_id": qid, "source_model": model,
                  "tokenizer": f"{MODEL_PREFIX}/{model} (reported)",
                  **({"dataset": origin["dataset"]} if "dataset" in origin else {})},
        model_usage={model: usage},
        total_time=latency,
        working_time=latency,
    )


def to_eval_log(records: list[dict[str, Any]], source: Path,
                questions: dict[str, dict[str, str]] | None = None) -> EvalLog:
    """One EvalLog for one model's records (with each question's dataset and type when ``questions`` is given)."""
    model = clean_text(str(records[0]["model"])) if records else source.stem
    samples = [_sample(r, questions) for r in records]
    n = len(samples)
    accuracy = sum(s.scores[SCORER].value["correct"] for s in samples) / n if n else 0.0  # type: ignore[index,union-attr]
    now = datetime.fromtimestamp(source.stat().st_mtime, tz=timezone.utc).isoformat()
    return EvalLog(
        status="success",
        eval=EvalSpec(
            created=now, task=TASK_NAME, dataset=EvalDataset(name=TASK_NAME, location=str(source), samples=n),
            model=f"{MODEL_PREFIX}/{model}", config=EvalConfig(), solver=SOLVER,
            metadata={"imported_from": str(source)},
        ),
        plan=EvalPlan(name=SOLVER, steps=[EvalPlanStep(solver=SOLVER)]),
        results=EvalResults(
            total_samples=n, completed_samples=n,
            scores=[EvalScore(name=SCORER, scorer=SCORER,
                              metrics={"accuracy": EvalMetric(name="accuracy", value=accuracy)})],
        ),
        stats=EvalStats(started_at=now, completed_at=now),
        samples=samples,
    )


def import_toon(results_dir: str | Path, out_dir: str | Path,
                questions: str | Path | None = None) -> tuple[list[Path], list[str]]:
    """Write one ``.eval`` log per TOON model file under ``out_dir``; (their paths, warnings). ``questions``:
    TOON's questions.json (default: found beside the results, as the reference data lays it out)."""
    src = Path(results_dir)
    files: Iterable[Path]
    if src.is_file():
        files = [src]
    elif src.is_dir():
        files = sorted(src.glob("*.json")) or sorted(src.glob("accuracy/models/*.json"))
    else:
        raise ReportInputError(f"{src}: no such file or directory")
    files = list(files)
    if not files:
        raise ReportInputError(f"{src}: no TOON per-model results (*.json) found")
    warnings: list[str] = []
    qpath = Path(questions) if questions is not None else find_questions(src)
    if qpath is not None and not qpath.is_file():
        raise ReportInputError(f"{qpath}: no such questions file")
    by_id = read_questions(qpath) if qpath is not None else None
    if by_id is None:
        warnings.append(NO_QUESTIONS.format(src=src))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for path in files:
        records = _records(path)
        unknown = sorted({clean_text(str(r["questionId"])) for r in records} - set(by_id)) if by_id is not None else []
        if unknown:
            raise ReportInputError(f"{path}: question id(s) {', '.join(unknown[:5])} not in {qpath}")
        log = to_eval_log(records, path, by_id)
        target = out / f"{TASK_NAME}_{path.stem}.eval"
        write_eval_log(log, str(target))
        written.append(target)
    return written, warnings
