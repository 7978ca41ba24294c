"""Run the synthetic-answer families of every task through its REAL scorer (an Inspect run, no model calls).

Each chosen sample is copied once per variant (id ``<sample>~<family>~<variant>``); a scripted solver writes the
variant's reply as the model output, and the task's own scorer (and sandbox, for correction) scores it. The
verdicts are compared with the family's goal and written as a table (CSV, JSON, Markdown).
"""

from __future__ import annotations

import csv
import importlib
import json
import tempfile
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai import Task, task_with
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageAssistant, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

from coonbench.validity.families import (
    EQUIVALENT,
    GARBAGE,
    NEAR_MISS,
    Variant,
    code_variants,
    correction_variants,
    exact_variants,
    garbage_variants,
    rng_for,
    writing_variants,
)

PYTHON_FORMATS = "python,python-minified,python-minifier,python-json-ast"
TASK_VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "modification-edits": ("modification", {"source": "edits", "formats": "coon,dart,dart-minified"}),
    "modification-turns3": ("modification", {"turns": 3, "formats": "coon,dart,dart-minified"}),
    "modification-edits-turns3": ("modification", {"source": "edits", "turns": 3, "formats": "coon,dart,dart-minified"}),
    "comprehension-python": ("comprehension", {"formats": PYTHON_FORMATS}),
    "generation-python": ("generation", {"formats": PYTHON_FORMATS}),
    "modification-python": ("modification", {"formats": PYTHON_FORMATS}),
}
"""The tasks' other sources as users run them, by name: (task, its ``-T`` arguments): mined edits and three-turn
sessions (synthetic and mined), in every Dart code format; comprehension, generation and modification in the four
Python formats. In a session every turn but the last replies
the turn's gold and the last the variant (``scripted_reply``), so the last turn's verdict is the variant's."""
TASKS = ("comprehension", "structure", "generation", "modification", "retrieval", "correction", "tools", "handoff",
         "writing", *TASK_VARIANTS)
GOALS = {EQUIVALENT: 0.99, NEAR_MISS: 1.0, GARBAGE: 1.0}
"""Share of variants that must get the expected verdict: equivalents CORRECT, the rest INCORRECT."""
SHOWN_CHARS = 2000
EXACT_TASKS = ("comprehension", "structure", "retrieval", "tools", "handoff")


DEFAULT_ARGS: dict[str, dict[str, Any]] = {"modification": {"input_format": "coon,dart"},
                                           "correction": {"sandbox": "local"}}
"""The base tasks as users run them: modification with both answer formats, correction on the local sandbox."""


def base_task(name: str) -> str:
    """The task a validity name runs (``comprehension-python`` is comprehension)."""
    return TASK_VARIANTS[name][0] if name in TASK_VARIANTS else name


def _task(name: str) -> Task:
    """The task as users run it (``DEFAULT_ARGS``, or a ``TASK_VARIANTS`` entry's arguments)."""
    if name not in TASKS:
        raise ValueError(f"unknown task '{name}' (expected one of {', '.join(TASKS)})")
    task = base_task(name)
    args = TASK_VARIANTS[name][1] if name in TASK_VARIANTS else DEFAULT_ARGS.get(task, {})
    return getattr(importlib.import_module(f"coonbench.evals.{task}"), task)(**args)


def choose_samples(samples: Sequence[Sample], limit: int | None, seed: str) -> list[Sample]:
    """A seeded sample spread over question types (round robin), or all samples when ``limit`` is None."""
    if limit is None or limit >= len(samples):
        return list(samples)
    by_type: dict[str, list[Sample]] = defaultdict(list)
    for s in sorted(samples, key=lambda s: str(s.id)):
        by_type[str((s.metadata or {}).get("question_type"))].append(s)
    rng = rng_for(seed)
    for members in by_type.values():
        rng.shuffle(members)
    chosen: list[Sample] = []
    while len(chosen) < limit:
        for key in sorted(by_type):
            if by_type[key] and len(chosen) < limit:
                chosen.append(by_type[key].pop())
    return chosen


def variants_for(name: str, sample: Sample, everything: Sequence[Sample]) -> list[Variant]:
    name = base_task(name)
    meta = sample.metadata or {}
    gold = str(meta.get("gold") or sample.target)
    if name in EXACT_TASKS:
        qtype = meta.get("question_type")
        siblings = sorted({str(s.target) for s in everything if (s.metadata or {}).get("question_type") == qtype})
        aliases = None
        if name in ("comprehension", "handoff"):  # both scorers accept COON's widget abbreviations
            from coonbench.formats.coon import widget_aliases

            aliases = widget_aliases()
        out = exact_variants(sample, siblings, aliases)
    elif name == "correction":
        others = sorted({str((s.metadata or {}).get("gold")) for s in everything if s.id != sample.id})
        out = correction_variants(sample, others)
    elif name == "writing":
        out = writing_variants(sample)
    else:
        out = code_variants(sample)
    return out + garbage_variants(sample, gold, exact=name in EXACT_TASKS)


@solver(name="validity_reply")
def scripted_reply(replies: dict[str, str]) -> Solver:
    """Reply with the synthetic text registered for this sample id (no model call; in a session, as the last
    turn's reply after every earlier turn's gold)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        text = replies[str(state.sample_id)]
        turns = list((state.metadata or {}).get("turns") or [])
        if len(turns) > 1:  # a session: the gold of every turn before the last, then the variant
            from coonbench.solvers.session import scripted_session

            return scripted_session(state, [str(t["gold"]) for t in turns[:-1]] + [text], "coonbench/validity")
        state.output = ModelOutput.from_content(model="coonbench/validity", content=text)
        state.messages.append(ChatMessageAssistant(content=text, model="coonbench/validity"))
        return state

    return solve


@dataclass
class Row:
    task: str
    sample_id: str
    family: str
    variant: str
    expected: str
    got: str
    ok: bool
    crashed: bool
    reply: str
    gold: str
    explanation: str


@dataclass
class TaskResult:
    task: str
    samples: int
    rows: list[Row] = field(default_factory=list)

    def rate(self, family: str) -> tuple[float, int]:
        rows = [r for r in self.rows if r.family == family]
        return (sum(r.ok for r in rows) / len(rows) if rows else float("nan")), len(rows)

    @property
    def crashes(self) -> int:
        return sum(r.crashed for r in self.rows)

    def goals_met(self) -> bool:
        for family, goal in GOALS.items():
            rate, n = self.rate(family)
            if n and rate < goal:
                return False
        return self.crashes == 0


def _verdict(score_value: Any) -> bool:
    if isinstance(score_value, dict):
        return float(score_value.get("correct", 0) or 0) == 1.0
    return score_value in ("C", 1, 1.0, True)


def validate_task(name: str, limit: int | None, log_dir: Path, progress: Callable[[str], None] = print) -> TaskResult:
    """Run every family on ``limit`` samples of task ``name`` and return the rows."""
    task = _task(name)
    everything = list(task.dataset)
    chosen = choose_samples(everything, limit, name)
    replies: dict[str, str] = {}
    planned: dict[str, tuple[Sample, Variant]] = {}
    expanded: list[Sample] = []
    for sample in chosen:
        for v in variants_for(name, sample, everything):
            vid = f"{sample.id}~{v.family}~{v.name}"
            if vid in planned:
                continue
            replies[vid], planned[vid] = v.reply, (sample, v)
            expanded.append(Sample(id=vid, input=sample.input, target=sample.target, metadata=sample.metadata,
                                   sandbox=sample.sandbox, files=sample.files, setup=sample.setup))
    progress(f"{name}: {len(chosen)} samples, {len(expanded)} synthetic replies")
    probe = task_with(task, dataset=MemoryDataset(expanded, name=f"{name}-validity"), solver=scripted_reply(replies))
    logs = inspect_eval(probe, model="mockllm/model", log_dir=str(log_dir), display="none", fail_on_error=False,
                        log_level="warning", max_samples=8, score_display=False)
    result = TaskResult(name, len(chosen))
    seen: set[str] = set()
    for log in logs:
        for s in log.samples or []:
            sample, v = planned[str(s.id)]
            seen.add(str(s.id))
            score = next(iter((s.scores or {}).values()), None)
            crashed = s.error is not None or score is None
            correct = (not crashed) and _verdict(score.value)  # type: ignore[union-attr]
            result.rows.append(_row(name, sample, v, correct, crashed,
                                    str(s.error.message if s.error else (score.explanation if score else ""))))
    for vid, (sample, v) in planned.items():  # a sample the run lost counts as a crash
        if vid not in seen:
            result.rows.append(_row(name, sample, v, False, True, "no result in the log"))
    return result


def _row(name: str, sample: Sample, v: Variant, correct: bool, crashed: bool, explanation: str) -> Row:
    gold = str((sample.metadata or {}).get("gold") or sample.target)
    got = "CRASH" if crashed else ("CORRECT" if correct else "INCORRECT")
    ok = (correct == v.expect_correct) and not crashed
    expected = "CORRECT" if v.expect_correct else "INCORRECT"
    return Row(name, str(sample.id), v.family, v.name, expected, got, ok, crashed, v.reply, gold, (explanation or "")[:500])


def validate(tasks: Sequence[str], limit: int | None, out_dir: Path | None,
             progress: Callable[[str], None] = print) -> list[TaskResult]:
    """Validate ``tasks`` and write ``validity.csv/.json/.md`` under ``out_dir`` (when given)."""
    unknown = [t for t in tasks if t not in TASKS]
    if unknown:
        raise ValueError(f"unknown task(s) {', '.join(unknown)} (expected {', '.join(TASKS)})")
    with tempfile.TemporaryDirectory(prefix="coonbench-validity-") as tmp:
        results = [validate_task(t, limit, Path(tmp), progress) for t in tasks]
    if out_dir is not None:
        write(results, out_dir)
    return results


def _pct(rate: float) -> str:
    return "—" if rate != rate else f"{100 * rate:.1f}%"


def table(results: Sequence[TaskResult]) -> str:
    """The validity table in Markdown."""
    lines = [
        "| task | samples | equivalent → CORRECT | near miss → INCORRECT | garbage → INCORRECT | crashes | goals |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in results:
        cells = [f"{_pct(rate)} ({n})" for rate, n in (r.rate(EQUIVALENT), r.rate(NEAR_MISS), r.rate(GARBAGE))]
        goals = "met" if r.goals_met() else "MISSED"
        lines.append(f"| {r.task} | {r.samples} | {' | '.join(cells)} | {r.crashes} | {goals} |")
    return "\n".join(lines)


def _short(text: str) -> str:
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + f"… ({len(text)} chars)"


def write(results: Sequence[TaskResult], out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = [r for res in results for r in res.rows]
    with (out_dir / "validity.csv").open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["task", "sample_id", "family", "variant", "expected", "got", "ok", "crashed", "explanation"])
        for r in rows:
            writer.writerow([r.task, r.sample_id, r.family, r.variant, r.expected, r.got, int(r.ok), int(r.crashed),
                             r.explanation])
    summary = {
        r.task: {"samples": r.samples, "crashes": r.crashes, "goals_met": r.goals_met(),
                 **{fam: {"rate": r.rate(fam)[0], "n": r.rate(fam)[1], "goal": GOALS[fam]} for fam in GOALS}}
        for r in results
    }
    failures = [{**asdict(r), "reply": _short(r.reply), "gold": _short(r.gold)} for r in rows if not r.ok]
    (out_dir / "validity.json").write_text(json.dumps({"summary": summary, "failures": failures}, indent=2),
                                           encoding="utf-8")
    md = ["# Scorer validity", "", table(results), "", f"## Failures ({len(failures)})", ""]
    for f in failures:
        md += [f"### {f['task']} · {f['sample_id']} · {f['family']}/{f['variant']}: expected {f['expected']}, "
               f"got {f['got']}", "", f"{f['explanation']}", "", "Reply:", "", "```text", f["reply"], "```", "",
               "Gold:", "", "```text", f["gold"], "```", ""]
    (out_dir / "validity.md").write_text("\n".join(md), encoding="utf-8")
