"""Judge meta-evaluation: does an LLM judge agree with the deterministic scorers on answers whose verdict is known?

Why: a judge is an instrument too. We build a labelled set from the tasks' own data — the gold answer and a mutant
of it (a changed string or number literal in the gold COON program; a changed value for a retrieval answer) — and
label each with the deterministic scorer's verdict (``code_check`` for modification and nl-to-coon generation,
``answer_match`` for retrieval). Every judge model then grades the same answers in every mode, and we report its
accuracy and Cohen's κ against those labels. A judge "passes" an answer when every criterion passed (combined score
1.0: for graded mode, grade 5); a judge that failed to answer leaves the item unscored (counted, not guessed).

Run it with ``coonbench validate --judges`` or ``validate_judges([...], limit, out_dir)``; see docs/judge.md.
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import Model, ModelOutput
from inspect_ai.scorer import Scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver

from coonbench.judging.criteria import sample_criteria

MODES = ("weighted", "graded")
CATEGORIES = ("modification", "nl-to-coon", "retrieval")
ANSWER_KEY = "validity_answer"
LABEL_KIND_KEY = "validity_variant"
PASS_AT = 1.0 - 1e-9
"""A judge passes an answer when its combined score reaches 1.0 (every criterion passed; grade 5)."""

_STRING_LITERAL = re.compile(r"'[^'\n]{1,200}'|\"[^\"\n]{1,200}\"")
_NUMBER = re.compile(r"\d{1,9}")


MAX_MUTANTS = 12


def code_mutants(text: str) -> list[str]:
    """Near misses of a program, one literal changed each: every string literal edited, then every number + 1."""
    out: list[str] = []
    for literal in _STRING_LITERAL.finditer(text):
        quote = literal.group()[0]
        out.append(text[: literal.start()] + f"{quote}{literal.group()[1:-1]} (edited){quote}" + text[literal.end() :])
    for number in _NUMBER.finditer(text):
        out.append(text[: number.start()] + str(int(number.group()) + 1) + text[number.end() :])
    return out[:MAX_MUTANTS]


def mutate_code(text: str) -> str | None:
    """The first near miss of a program (None when it has no literal)."""
    mutants = code_mutants(text)
    return mutants[0] if mutants else None


def mutate_answer(answer: str) -> str:
    """A near miss of an exact answer: the other boolean, the number + 1, else a changed value."""
    flips = {"yes": "NO", "no": "YES", "true": "false", "false": "true"}
    low = answer.strip().lower()
    if low in flips:
        return flips[low]
    try:
        number = float(answer)
    except ValueError:
        return f"{answer} (edited)"
    return str(int(number) + 1) if number.is_integer() else str(number + 1)


def _spread(samples: Sequence[Sample], limit: int) -> list[Sample]:
    """``limit`` samples spread evenly over the id-sorted list (deterministic, covers every band/kind)."""
    ordered = sorted(samples, key=lambda s: str(s.id))
    if limit >= len(ordered):
        return ordered
    return [ordered[i * len(ordered) // limit] for i in range(limit)]


def _candidates(category: str, limit: int) -> list[Sample]:
    """Gold and every candidate mutant for ``limit`` samples of a category (answer and variant in ``metadata``)."""
    rows: list[tuple[Sample, str, list[str], dict[str, Any]]] = []
    if category == "modification":
        from coonbench.datasets.modification import modification_dataset

        for s in _spread(list(modification_dataset(None, None, "coon")), limit):
            gold = str((s.metadata or {}).get("gold") or s.target)
            rows.append((s, gold, code_mutants(gold), {}))
    elif category == "nl-to-coon":
        from coonbench.datasets.generation import generation_dataset

        for s in _spread(list(generation_dataset("nl-to-coon", None, "coon")), limit):
            gold = str((s.metadata or {}).get("gold") or s.target)
            rows.append((s, gold, code_mutants(gold), {}))
    elif category == "retrieval":
        from coonbench.datasets.retrieval import retrieval_dataset

        for s in _spread(list(retrieval_dataset("toon")), limit):
            answer = str(s.target if isinstance(s.target, str) else s.target[0])
            criteria = sample_criteria(
                accuracy=["Verify the answer states one value and no other, contradicting value"],
                completeness=[f"Verify the answer to the question is {answer} (the value in the data)"],
            )
            rows.append((s, answer, [mutate_answer(answer)], {"criteria": criteria}))
    else:
        raise ValueError(f"validate_judges: unknown category {category!r} (known: {', '.join(CATEGORIES)})")
    out: list[Sample] = []
    for sample, gold, mutants, extra in rows:
        for k, answer in enumerate([gold, *mutants]):
            kind = "gold" if k == 0 else "mutant"
            out.append(Sample(
                id=f"{sample.id}::{kind}{k or ''}",
                input=sample.input,
                target=sample.target,
                metadata={**(sample.metadata or {}), **extra, ANSWER_KEY: answer, LABEL_KIND_KEY: kind,
                          "validity_category": category, "validity_sample": str(sample.id)},
            ))
    return out


def labelled_samples(category: str, limit: int, log_dir: Path | None = None) -> list[Sample]:
    """For ``limit`` samples of a category: the gold answer (which the deterministic scorer passes) and the first
    mutant it refuses — both checked by running the real scorer; a sample without such a pair is left out."""
    candidates = _candidates(category, limit)
    task = Task(dataset=MemoryDataset(candidates), solver=fixed_answer(), scorer=_deterministic(category),
                name=f"judge-validity-labels-{category}")
    [log] = eval(task, model="mockllm/model", display="none", log_dir=str(log_dir or Path("logs") / "validity"),
                 log_samples=True)
    if log.status != "success":
        raise RuntimeError(f"labelling {category} failed: {log.error}")
    passed = {str(s.id): _passes(next(iter((s.scores or {}).values()))) for s in log.samples or []}
    out: list[Sample] = []
    by_sample: dict[str, list[Sample]] = {}
    for c in candidates:
        by_sample.setdefault(str(c.metadata["validity_sample"]), []).append(c)  # type: ignore[index]
    for group in by_sample.values():
        gold, mutants = group[0], group[1:]
        refused = next((m for m in mutants if not passed.get(str(m.id), True)), None)
        if passed.get(str(gold.id)) and refused is not None:
            out += [gold, refused]
    return out


def _passes(score: Any) -> bool:
    value = score.value if score is not None else None
    return isinstance(value, dict) and float(value.get("correct", 0.0)) >= 1.0


def _deterministic(category: str) -> Scorer:
    if category == "retrieval":
        from coonbench.scorers.answer import answer_match

        return answer_match()
    from coonbench.scorers.code import code_check

    return code_check()


@solver
def fixed_answer() -> Solver:
    """Reply with the labelled answer in ``metadata`` (no model call)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.output = ModelOutput.from_content(model="validity", content=str(state.metadata[ANSWER_KEY]))
        return state

    return solve


@dataclass
class JudgeValidity:
    """One judge model in one mode: its verdicts against the deterministic labels."""

    judge_model: str
    mode: str
    n: int  # items judged (both labels known)
    unscored: int  # items where the judge gave no usable verdict
    accuracy: float | None
    kappa: float | None
    kappa_ci: tuple[float, float] | None
    confusion: dict[str, int] = field(default_factory=dict)  # "label/judge" -> count
    by_category: dict[str, dict[str, float | int | None]] = field(default_factory=dict)


@dataclass
class JudgeValidation:
    """All judge models × modes, the labelled set's size, and where the table was written."""

    rows: list[JudgeValidity]
    items: int
    label_pass_rate: float
    table_path: Path | None = None

    def table(self) -> str:
        """A plain-text table (what ``coonbench validate --judges`` prints)."""
        head = f"{'judge model':28} {'mode':9} {'n':>4} {'unscored':>8} {'accuracy':>8} {'kappa':>7}  95% CI"
        lines = [head, "-" * len(head)]
        for r in self.rows:
            acc = "-" if r.accuracy is None else f"{r.accuracy:.3f}"
            kap = "-" if r.kappa is None else f"{r.kappa:.3f}"
            ci = "-" if r.kappa_ci is None else f"[{r.kappa_ci[0]:.2f}, {r.kappa_ci[1]:.2f}]"
            lines.append(f"{r.judge_model:28} {r.mode:9} {r.n:>4} {r.unscored:>8} {acc:>8} {kap:>7}  {ci}")
        lines.append(f"labelled items: {self.items} (deterministic pass rate {self.label_pass_rate:.2f})")
        return "\n".join(lines)


def label_accuracy(
    labels: Sequence[bool], verdicts: Sequence[bool]
) -> tuple[float | None, float | None, tuple[float, float] | None]:
    """Accuracy, Cohen's κ and its 95% CI (statsmodels) of binary verdicts against known labels.

    Named apart from ``coonbench.judging.agreement``, which measures agreement between judges (no ground truth).

    κ is 0 for a constant judge (it agrees only by chance) and undefined (None) when the labels and the verdicts
    are the same constant.
    """
    n = len(labels)
    if n == 0:
        return None, None, None
    accuracy = sum(a == b for a, b in zip(labels, verdicts, strict=True)) / n
    table = [[0, 0], [0, 0]]
    for a, b in zip(labels, verdicts, strict=True):
        table[int(a)][int(b)] += 1
    from statsmodels.stats.inter_rater import cohens_kappa

    p_e = sum((sum(table[i]) / n) * ((table[0][i] + table[1][i]) / n) for i in range(2))
    if math.isclose(p_e, 1.0):
        return accuracy, None, None
    result = cohens_kappa(table)
    kappa = float(result.kappa)
    ci = (float(result.kappa_low), float(result.kappa_upp)) if math.isfinite(result.std_kappa) else None
    return accuracy, kappa, ci


def _row(judge_model: str, mode: str, items: list[tuple[str, bool, bool | None]]) -> JudgeValidity:
    judged = [(c, label, verdict) for c, label, verdict in items if verdict is not None]
    labels = [label for _, label, _ in judged]
    verdicts = [bool(v) for _, _, v in judged]
    accuracy, kappa, ci = label_accuracy(labels, verdicts)
    confusion: dict[str, int] = {}
    for label, verdict in zip(labels, verdicts, strict=True):
        key = f"{'pass' if label else 'fail'}/{'pass' if verdict else 'fail'}"
        confusion[key] = confusion.get(key, 0) + 1
    by_category: dict[str, dict[str, float | int | None]] = {}
    for category in sorted({c for c, _, _ in items}):
        sub = [(label, bool(v)) for c, label, v in judged if c == category]
        acc, kap, _ = label_accuracy([a for a, _ in sub], [b for _, b in sub])
        unscored = sum(1 for c, _, v in items if c == category and v is None)
        by_category[category] = {"n": len(sub), "unscored": unscored, "accuracy": acc, "kappa": kap}
    return JudgeValidity(judge_model, mode, len(judged), len(items) - len(judged), accuracy, kappa, ci, confusion,
                         by_category)


def validate_judges(
    judge_models: Sequence[str | Model],
    limit: int,
    out_dir: Path,
    *,
    modes: Sequence[str] = MODES,
    categories: Sequence[str] = CATEGORIES,
    log_dir: Path | None = None,
) -> JudgeValidation:
    """Grade the labelled set with every judge model in every mode; write ``judges.csv``/``judges.json``/``judges.txt``.

    ``limit`` samples per category give 2·limit items (gold + mutant) each. Judge models are Inspect model names
    (``gguf/smollm2``, ``openai/…``) or ``Model`` objects (scripted judges in tests).
    """
    if limit < 1:
        raise ValueError("validate_judges: limit must be >= 1")
    from coonbench.scorers.judge import judge

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    logs = Path(log_dir) if log_dir is not None else out_dir / "logs"
    per_category = {c: labelled_samples(c, limit, logs) for c in categories}
    rows: list[JudgeValidity] = []
    labels_seen: dict[str, bool] = {}
    for judge_model in judge_models:
        name = judge_model if isinstance(judge_model, str) else str(judge_model)
        for mode in modes:
            items: list[tuple[str, bool, bool | None]] = []
            for category, samples in per_category.items():
                if not samples:
                    continue
                task = Task(
                    dataset=MemoryDataset(samples, name=f"judge-validity-{category}"),
                    solver=fixed_answer(),
                    scorer=[_deterministic(category),
                            judge(mode=mode, include_question=category != "nl-to-coon")],  # type: ignore[arg-type]
                    name=f"judge-validity-{category}",
                )
                [log] = eval(task, model="mockllm/model", model_roles={"judge": judge_model}, log_dir=str(logs),
                             display="none", max_samples=1)
                if log.status != "success":
                    raise RuntimeError(f"judge validation run failed ({category}, {name}, {mode}): {log.error}")
                for sample in log.samples or []:
                    scores = sample.scores or {}
                    label = _passes(next(s for key, s in scores.items() if key != "judge"))
                    labels_seen[str(sample.id)] = label
                    j = scores.get("judge")
                    combined = j.value.get("combined") if j is not None and isinstance(j.value, dict) else None
                    verdict = None
                    if isinstance(combined, int | float) and math.isfinite(combined):
                        verdict = combined >= PASS_AT
                    items.append((category, label, verdict))
            rows.append(_row(name, mode, items))
    n_items = len(labels_seen)
    result = JudgeValidation(rows, n_items, sum(labels_seen.values()) / n_items if n_items else 0.0)
    _write(result, out_dir)
    return result


def _write(result: JudgeValidation, out_dir: Path) -> None:
    with (out_dir / "judges.csv").open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["judge_model", "mode", "category", "n", "unscored", "accuracy", "kappa"])
        for r in result.rows:
            writer.writerow([r.judge_model, r.mode, "all", r.n, r.unscored, r.accuracy, r.kappa])
            for category, c in r.by_category.items():
                writer.writerow([r.judge_model, r.mode, category, c["n"], c["unscored"], c["accuracy"], c["kappa"]])
    payload = {
        "items": result.items,
        "label_pass_rate": result.label_pass_rate,
        "rows": [r.__dict__ for r in result.rows],
    }
    (out_dir / "judges.json").write_text(json.dumps(payload, indent=2, default=list))
    (out_dir / "judges.txt").write_text(result.table() + "\n")
    result.table_path = out_dir / "judges.txt"

