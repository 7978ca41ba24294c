"""The judge's metrics and epoch reducer: mean scores, failures, agreement between judges, AI/RUN formula v2.

Why a module of its own: they read only ``Score.value`` dicts, so they are shared by every judge mode.
"""

from __future__ import annotations

import math
import statistics

from inspect_ai.scorer import Metric, SampleScore, Score, ScoreReducer, metric, score_reducer

from coonbench.judging.agreement import interval_alpha

@score_reducer(name="coonbench/judge_best")
def judge_best() -> ScoreReducer:
    """Best of epochs (AI/RUN's attempt number): keep the epoch with the highest ``combined`` (earliest on ties).

    Adds ``attempt`` (1-based epoch of the best score) and ``attempt_term`` = (N − attempt)/(N − 1) for N epochs
    (AI/RUN's (3 − attempt)/2 at N = 3; 1.0 when N = 1), and sums ``parse_failures`` and ``judge_failures`` over the
    epochs. When no epoch could be judged the sample stays unscored (NaN scores, ``reason`` kept).
    """

    def reduce(scores: list[Score]) -> Score:
        n = len(scores)
        scored = [(i, s) for i, s in enumerate(scores) if isinstance(s.value, dict)]
        if not scored:
            first = scores[0] if scores else None
            return Score.unscored(
                reason=first.reason if first else "grader_failed",
                answer=first.answer if first else None,
                explanation=f"no epoch of {n} could be judged",
                metadata=first.metadata if first else None,
            )

        def epoch_of(item: tuple[int, Score]) -> int:
            value = item[1].value
            epoch = value.get("epoch") if isinstance(value, dict) else None
            return int(epoch) if isinstance(epoch, int | float) and math.isfinite(epoch) else item[0] + 1

        def rank(item: tuple[int, Score]) -> tuple[float, int]:
            combined = item[1].value.get("combined")  # type: ignore[union-attr]
            good = isinstance(combined, int | float) and math.isfinite(combined)
            return (float(combined) if good else -math.inf, -epoch_of(item))

        best = max(scored, key=rank)
        attempt = epoch_of(best)
        value = dict(best[1].value)  # type: ignore[arg-type]
        value["attempt"] = attempt
        value["attempt_term"] = 1.0 if n <= 1 else max(0.0, (n - attempt) / (n - 1))
        for key in ("parse_failures", "judge_failures"):
            value[key] = sum(float(s.value.get(key, 0) or 0) for _, s in scored)  # type: ignore[union-attr]
        best_combined = value.get("combined")
        judged = isinstance(best_combined, int | float) and math.isfinite(best_combined)
        if not judged:  # every epoch's judges failed: the sample stays unscored, its failures counted
            value["attempt"] = value["attempt_term"] = math.nan
        return Score(
            value=value,
            reason=best[1].reason,
            answer=best[1].answer,
            explanation=f"best of {n} epoch(s): epoch {attempt}\n{best[1].explanation or ''}".rstrip(),
            metadata={**(best[1].metadata or {}), "epochs": n, "best_epoch": attempt},
        )

    return reduce


def _values(scores: list[SampleScore], key: str) -> list[float]:
    out: list[float] = []
    for s in scores:
        value = s.score.value
        if isinstance(value, dict):
            v = value.get(key)
            if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v):
                out.append(float(v))
    return out


def _mean_stderr(values: list[float]) -> tuple[float | None, float | None]:
    if not values:
        return None, None
    mean = statistics.fmean(values)
    stderr = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else None
    return mean, stderr


@metric(name="judge_scores")
def judge_scores() -> Metric:
    """Accuracy, completeness and combined (mean and stderr over scored samples), parse and judge failures.

    Failures are summed over every sample, the unscored ones included (``unscored`` counts samples whose judges
    all failed: their quality keys are NaN, so the means leave them out).

    In graded mode also the mean raw grades (1–5) and the share of confident grades (max p > 0.9).
    """

    def compute(scores: list[SampleScore]) -> dict[str, float | None]:
        out: dict[str, float | None] = {}
        for key in ("accuracy", "completeness", "combined"):
            out[key], out[f"{key}_stderr"] = _mean_stderr(_values(scores, key))
        for key in ("parse_failures", "judge_failures", "unscored"):
            out[key] = float(sum(_values(scores, key)))
        for key in ("accuracy_grade", "completeness_grade", "grade_confident"):
            values = _values(scores, key)
            out[key] = statistics.fmean(values) if values else None
        return out

    return compute


def _judge_roles(scores: list[SampleScore]) -> list[str]:
    roles: set[str] = set()
    for s in scores:
        if isinstance(s.score.value, dict):
            for key in s.score.value:
                if key.startswith("judge:") and key.endswith(":combined"):
                    roles.add(key[len("judge:") : -len(":combined")])
    return sorted(roles)


def judge_ratings(scores: list[SampleScore], roles: list[str], part: str) -> list[list[float]]:
    """``ratings[judge][sample]`` of one part (``combined``, ``accuracy``…); NaN where a judge gave none."""
    rows: list[list[float]] = []
    for role in roles:
        row: list[float] = []
        for s in scores:
            if isinstance(s.score.value, dict):
                v = s.score.value.get(f"judge:{role}:{part}")
                row.append(float(v) if isinstance(v, int | float) else math.nan)
        rows.append(row)
    return rows


@metric(name="judge_agreement")
def judge_agreement() -> Metric:
    """Krippendorff's α (interval) between judges over samples, for combined, accuracy and completeness.

    Omitted (None) with fewer than two judges or where α is undefined (no variance, no pairable sample).
    """

    def compute(scores: list[SampleScore]) -> dict[str, float | None]:
        roles = _judge_roles(scores)
        out: dict[str, float | None] = {}
        for part in ("combined", "accuracy", "completeness"):
            if len(roles) < 2:
                out[f"alpha_{part}"] = None
                continue
            out[f"alpha_{part}"] = interval_alpha(judge_ratings(scores, roles, part))
        return out

    return compute


def v2_formula(accuracy: float, completeness: float, rate_term: float | None, attempt_term: float) -> float:
    """0.4·accuracy + 0.4·completeness + 0.1·rate + 0.1·attempt; without a rate its weight is spread (÷ 0.9)."""
    if rate_term is None:
        return (0.4 * accuracy + 0.4 * completeness + 0.1 * attempt_term) / 0.9
    return 0.4 * accuracy + 0.4 * completeness + 0.1 * rate_term + 0.1 * attempt_term


@metric(name="airun_v2")
def airun_v2(max_generation_rate: float | None = None) -> Metric:
    """AI/RUN formula v2: 0.4·accuracy + 0.4·completeness + 0.1·normalised generation rate + 0.1·attempt term.

    Normalised rate = mean rate / ``max_generation_rate`` (a fixed reference, for comparing runs) or, by default,
    / the highest per-sample rate in this run; capped at 1. Without any rate (e.g. a scripted solver), the rate term
    is dropped and the other weights renormalised (÷ 0.9). Attempt term = mean ``attempt_term`` set by the
    ``judge_best`` reducer; 1.0 (a single attempt) when no sample carries one.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float | None]:
        acc, _ = _mean_stderr(_values(scores, "accuracy"))
        comp, _ = _mean_stderr(_values(scores, "completeness"))
        if acc is None and comp is None:
            return {"v2": None, "v2_generation_rate": None, "v2_attempt_term": None}
        acc = comp if acc is None else acc
        comp = acc if comp is None else comp
        rates = [r for r in _values(scores, "generation_rate") if r > 0]
        reference = max_generation_rate if max_generation_rate else (max(rates) if rates else None)
        rate_term = min(1.0, statistics.fmean(rates) / reference) if rates and reference else None
        attempts = _values(scores, "attempt_term")
        attempt_term = statistics.fmean(attempts) if attempts else 1.0
        assert acc is not None and comp is not None
        return {"v2": v2_formula(acc, comp, rate_term, attempt_term), "v2_generation_rate": rate_term,
                "v2_attempt_term": attempt_term}

    return compute
