"""The handoff task's score: B's result (as comprehension or modification score it), whether A's message carried
the program exactly, and the tokens that crossed.

``Score.value`` keys: ``correct`` (B's answer or edit), ``handed_tokens`` (A's message in the sample's tokenizer),
``decodes`` (A's code block decodes in the told format; free choice: in any lossless code format of the program's
language, its plain formats first: ``free_order``),
``roundtrips`` (the decoded program is AST-equivalent to the program A read). A missing or garbled message is
0 on both, with the reason in the explanation, never an exception.
"""

from __future__ import annotations

import math
from collections import defaultdict

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from coonbench.answers.extract import extract_code
from coonbench.formats import get_format, language_of
from coonbench.languages import Language, default_language
from coonbench.scorers.answer import accuracy_by, answer_match, correct
from coonbench.scorers.code import score_code
from coonbench.tasks.conditions import code_format_names
from coonbench.tasks.state import handoff_state
from coonbench.tokens import DEFAULT_ENCODING, count_tokens

def free_order(language: Language) -> list[str]:
    """The formats a free-choice message is tried in: the language's source format, its other plain formats, then
    every other code format of the language (Dart: ``dart``, ``dart-minified``, ``coon``…)."""
    first = [language.source_format, *sorted(language.plain_formats - {language.source_format})]
    return [*first, *(n for n in code_format_names() if n not in first and language_of(n) is language)]


def carried(
    message: str | None, told: str | None, source: str, language: Language | None = None
) -> tuple[bool, bool, str]:
    """(decodes, round-trips, why) of A's message against the program A read (in ``language``: the told format's,
    else the default code language)."""
    if not message or not message.strip():
        return False, False, "A sent no message"
    language = language or (language_of(told) if told else default_language())
    names = [told] if told else free_order(language)
    why = "no code block"
    for name in names:
        fmt = get_format(name)
        if not fmt.lossless:
            continue
        code = extract_code(message, fmt.fence) or message
        try:
            decoded = fmt.decode(code)
            diff = language.ast_diff(source, decoded)
        except Exception as err:  # noqa: BLE001 - a garbled message is a finding: FormatError, parse errors, …
            why = f"{name}: does not decode ({type(err).__name__}: {str(err)[:200]})"
            continue
        if diff is None:
            return True, True, f"A's {name} decodes to the program it read"
        return True, False, f"A's {name} decodes but differs at {diff.path}: {diff.left!r} vs {diff.right!r}"
    return False, False, why


@metric(name="handoff")
def handoff_metrics() -> Metric:
    """Per format: B's ``accuracy``, mean ``handed_tokens``, ``roundtrip`` and ``decodes`` rates, and B's accuracy
    per 1K handed tokens (``acc_per_1k``)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        groups: dict[str, list[dict[str, float]]] = defaultdict(list)
        for s in scores:
            value = s.score.value if isinstance(s.score.value, dict) else {}
            groups[str((s.sample_metadata or {}).get("format", "?"))].append(
                {k: float(value.get(k, math.nan)) for k in ("correct", "handed_tokens", "roundtrips", "decodes")})
        out: dict[str, float] = {}
        for fmt, rows in sorted(groups.items()):
            for key, name in (("correct", "accuracy"), ("handed_tokens", "handed_tokens"),
                              ("roundtrips", "roundtrip"), ("decodes", "decodes")):
                values = [r[key] for r in rows if not math.isnan(r[key])]
                out[f"{name}/{fmt}"] = round(sum(values) / len(values), 4) if values else math.nan
            tokens = out[f"handed_tokens/{fmt}"]
            out[f"acc_per_1k/{fmt}"] = round(1000 * out[f"accuracy/{fmt}"] / tokens, 6) if tokens else math.nan
        return out

    return compute


@scorer(name="handoff_score", metrics=[correct(), accuracy_by(("format", "mode", "question_type")), handoff_metrics()])
def handoff_score() -> Scorer:
    """B's result by the base task's rule (exact answer, or the edited program's AST/requirements check), with
    A's message checked and counted."""
    exact = answer_match(aliases="coon")

    async def score(state: TaskState, target: Target) -> Score:
        meta = state.metadata or {}
        if meta.get("mode") == "modification":
            base = score_code(state, target, "requirements" if meta.get("check") == "requirements" else "ast")
        else:
            base = await exact(state, target)
        message = handoff_state(state.store).message
        decodes, roundtrips, why = carried(message, meta.get("handoff_format"), str(meta.get("source") or ""))
        value = dict(base.value) if isinstance(base.value, dict) else {}
        value.update(handed_tokens=float(count_tokens(message or "", str(meta.get("tokenizer") or DEFAULT_ENCODING))),
                     decodes=1.0 if decodes else 0.0, roundtrips=1.0 if roundtrips else 0.0)
        return Score(value=value, answer=base.answer, explanation=f"B: {base.explanation}; A: {why}")

    return score
