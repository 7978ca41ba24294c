"""Reading judge replies: the weighted-mode JSON verdicts, the graded-mode report and the 1–5 grade.

Why a module of its own: a judge's reply is hostile text like any model's. Every parser here is linear in the reply,
never recurses on it, and fails only with ``JudgeParseError`` (which the scorer turns into a re-ask, then an
unscored ``grader_failed`` sample). ``tests/test_fuzz_judge.py`` holds them to that.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from inspect_ai.model import ModelOutput, ResponseSchema
from inspect_ai.util import JSONSchema
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from coonbench.judging.criteria import Criterion

GRADES = (1, 2, 3, 4, 5)
CONFIDENT_P = 0.9  # graded mode: a grade is "confident" when its token's probability exceeds this

# ---------------------------------------------------------------------------------------------------------------
# Parsing judge replies
# ---------------------------------------------------------------------------------------------------------------


class JudgeParseError(ValueError):
    """A judge reply that cannot be used; the message is fed back to the judge in the re-ask."""


class Verdict(BaseModel):
    """One criterion's verdict as a judge returns it (lenient where harmless: alias, '90%', 'pass')."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    criterion: str = Field(default="", alias="criterion")
    weight: float | None = None
    passed: bool
    confidence: float | None = None
    explanation: str = ""

    @classmethod
    def from_raw(cls, raw: Any) -> Verdict:
        """Validate one entry, accepting AI/RUN's older ``criteria`` key."""
        if isinstance(raw, dict) and "criterion" not in raw and "criteria" in raw:
            raw = {**raw, "criterion": raw["criteria"]}
        return cls.model_validate(raw)

    @field_validator("passed", mode="before")
    @classmethod
    def _passed_words(cls, value: Any) -> Any:
        if isinstance(value, str) and value.strip().lower() in {"pass", "passed", "fail", "failed"}:
            return value.strip().lower().startswith("pass")
        return value

    @field_validator("confidence", mode="before")
    @classmethod
    def _confidence(cls, value: Any) -> Any:
        if isinstance(value, str):
            try:
                return float(value.strip().rstrip("%"))
            except ValueError:
                return None
        return value

    @field_validator("weight", mode="before")
    @classmethod
    def _weight(cls, value: Any) -> Any:
        try:
            return None if value is None else float(value)
        except (TypeError, ValueError):
            return None  # we use our own weights; a garbled echo is not a reason to reject the verdict

    @field_validator("explanation", "criterion", mode="before")
    @classmethod
    def _text(cls, value: Any) -> Any:
        return "" if value is None else str(value)


MAX_EXPLANATION_CHARS = 300
"""Longest explanation the structured-output schema allows: a small model under a grammar cannot ramble on."""


def report_schema(items: Sequence[Criterion] | None = None) -> ResponseSchema:
    """Structured-output schema of a weighted-mode reply (enforced by providers that support ``response_schema``,
    e.g. OpenAI's, or ``gguf`` through llama.cpp's JSON-schema grammar; others ignore it and the reply is parsed
    as text).

    With ``items``, ``evaluation_steps`` is an object with one required property per criterion, ``"1"`` … ``"n"``,
    each of whose ``criterion`` can only be that criterion's text: Inspect's schema type has no ``minItems``, and a
    grammar-bound small model otherwise stops after one entry. ``parse_verdicts`` reads both shapes.
    """

    def step(criterion: JSONSchema) -> JSONSchema:
        return JSONSchema(
            type="object",
            properties={
                "criterion": criterion,
                "weight": JSONSchema(type="number"),
                "passed": JSONSchema(type="boolean"),
                "confidence": JSONSchema(type="integer", minimum=0, maximum=100),
                "explanation": JSONSchema(type="string", maxLength=MAX_EXPLANATION_CHARS),
            },
            required=["criterion", "weight", "passed", "confidence", "explanation"],
            additionalProperties=False,
        )

    if items:
        numbered = {str(i): step(JSONSchema(type="string", enum=[c.text])) for i, c in enumerate(items, 1)}
        steps = JSONSchema(type="object", properties=numbered, required=list(numbered), additionalProperties=False)
    else:
        steps = JSONSchema(type="array", items=step(JSONSchema(type="string")))
    return ResponseSchema(
        name="evaluation_report",
        json_schema=JSONSchema(
            type="object",
            properties={"evaluation_steps": steps},
            required=["evaluation_steps"],
            additionalProperties=False,
        ),
        description="One verdict per criterion, in the order given.",
    )


def grade_schema() -> ResponseSchema:
    """Structured-output schema of the grader's reply: ``{"grade": <1–5>}`` (an object, as OpenAI requires; the
    first digit 1–5 of the reply — and its token's logprobs — is still the grade ``parse_grade`` reads)."""
    return ResponseSchema(
        name="grade",
        json_schema=JSONSchema(
            type="object",
            # enum as well as the bounds: llama.cpp's schema-to-grammar ignores minimum/maximum (SmolLM2 wrote
            # {"grade": 969} under them), and every converter honours an enum
            properties={"grade": JSONSchema(type="integer", enum=[1, 2, 3, 4, 5], minimum=1, maximum=5)},
            required=["grade"],
            additionalProperties=False,
        ),
        description="The grade, 1 to 5.",
    )


MAX_REPLY_CHARS = 200_000
"""Characters of a judge reply that are examined: a verdict on dozens of criteria takes a few KB, and the bound keeps
parsing time fixed whatever a judge writes (a longer reply is read up to here)."""

MAX_JSON_DEPTH = 64
"""Deepest bracket nesting handed to the JSON decoder (a verdict nests 3 deep; deeper spans are skipped, never
recursed into)."""

_JSON_SIGNIFICANT = re.compile(r'[\[\]{}"\\]')
_CLOSER = {"{": "}", "[": "]"}


def json_spans(text: str) -> list[tuple[int, int]]:
    """Maximal balanced ``{…}``/``[…]`` spans of ``text`` nested at most ``MAX_JSON_DEPTH`` deep, in order.

    One pass over the brackets, quotes and backslashes, with an explicit stack (no recursion): linear in the text.
    Quotes count only inside a bracket, so prose apostrophes and quotes do not hide an object. A span inside an
    opener that never closes is still found; a stray closer is ignored.
    """
    # stack entries: [closer, start, deepest absolute depth inside, closed child spans]
    stack: list[list[Any]] = []
    top: list[tuple[int, int, int]] = []
    in_string = False
    skip_to = -1
    for match in _JSON_SIGNIFICANT.finditer(text):
        pos = match.start()
        if pos < skip_to:
            continue
        ch = match.group()
        if in_string:
            if ch == "\\":
                skip_to = pos + 2
            elif ch == '"':
                in_string = False
            continue
        if ch == '"':
            in_string = bool(stack)
        elif ch in _CLOSER:
            depth = len(stack) + 1
            stack.append([_CLOSER[ch], pos, depth, []])
        elif ch != "\\" and stack and stack[-1][0] == ch:
            _, begin, deepest, _children = stack.pop()
            nesting = deepest - len(stack)
            span = (begin, pos + 1, nesting)
            if stack:
                stack[-1][2] = max(stack[-1][2], deepest)
                stack[-1][3].append(span)
            else:
                top.append(span)
    spans = top + [span for entry in stack for span in entry[3]]
    return sorted((s, e) for s, e, nesting in spans if nesting <= MAX_JSON_DEPTH)


def extract_json(text: str) -> Any:
    """The verdict in a reply: the first JSON object with ``evaluation_steps`` (or ``passed``), else the largest
    JSON object or array — whether it is the whole reply, in a code fence or embedded in prose.

    Linear time and no recursion on any text (see ``json_spans``); only the first ``MAX_REPLY_CHARS`` are read.
    Raises ``JudgeParseError`` when there is none.
    """
    text = text[:MAX_REPLY_CHARS]
    found: list[tuple[int, Any]] = []
    for begin, end in json_spans(text):
        try:
            obj = json.loads(text[begin:end])
        except (ValueError, RecursionError):  # JSONDecodeError, huge integers; depth is bounded above
            continue
        if isinstance(obj, dict) and ("evaluation_steps" in obj or "passed" in obj):
            return obj
        if isinstance(obj, list | dict):
            found.append((end - begin, obj))
    if found:
        return max(found, key=lambda item: item[0])[1]
    raise JudgeParseError("no JSON object found in the reply")


def parse_verdicts(text: str, items: Sequence[Criterion]) -> list[Verdict]:
    """Validate a weighted-mode reply against the criteria list: one verdict per criterion, in order."""
    data = extract_json(text)
    if isinstance(data, dict) and "evaluation_steps" in data:
        steps = data["evaluation_steps"]
    elif isinstance(data, list):
        steps = data
    elif isinstance(data, dict) and len(items) == 1 and "passed" in data:
        steps = [data]
    else:
        raise JudgeParseError('the JSON object has no "evaluation_steps" list')
    if isinstance(steps, dict) and steps and all(isinstance(k, str) and k.isdigit() and len(k) <= 6 for k in steps):
        steps = [steps[k] for k in sorted(steps, key=int)]  # the numbered shape of report_schema(items)
    if not isinstance(steps, list):
        raise JudgeParseError('"evaluation_steps" must be a list')
    verdicts: list[Verdict] = []
    for i, raw in enumerate(steps):
        try:
            verdicts.append(Verdict.from_raw(raw))
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'entry'}: {err['msg']}" for err in exc.errors()[:3]
            )
            raise JudgeParseError(f"evaluation_steps[{i}] is invalid ({problems})") from exc
    if len(verdicts) != len(items):
        raise JudgeParseError(
            f"expected {len(items)} entries in evaluation_steps (one per criterion, in order), got {len(verdicts)}"
        )
    return verdicts


# A report line's verdict: ``- **Pass** (90%): …``, ``Fail: …`` — a Pass/Fail word opening a line (bold allowed).
_VERDICT_LINE_RE = re.compile(r"^[ \t]*(?:[-*][ \t]*)?(?:\*\*)?(?:pass|fail)(?:ed)?\b", re.IGNORECASE | re.MULTILINE)
_GRADE_TEXT_RE = re.compile(r"(?<![\d.])([1-5])(?![\d.])")


def render_report(items: Sequence[Criterion], verdicts: Sequence[Verdict]) -> str:
    """Verdicts written as AI/RUN's Markdown report: one ``- **Pass** (95%): criterion`` line each, a reason
    under a Fail or an unsure verdict, and the totals — what the graded mode's grader reads."""
    lines = []
    for item, v in zip(items, verdicts, strict=True):
        confidence = f" ({v.confidence:.0f}%)" if v.confidence is not None else ""
        lines.append(f"- **{'Pass' if v.passed else 'Fail'}**{confidence}: {item.text}")
        if v.explanation and (not v.passed or (v.confidence is not None and v.confidence < 100)):
            lines.append(f"  {' '.join(v.explanation.split())}")
    passed = sum(v.passed for v in verdicts)
    lines.append(f"Evaluated {len(verdicts)}, passed {passed}, failed {len(verdicts) - passed}.")
    return "\n".join(lines)


def parse_report(text: str, items: Sequence[Criterion]) -> str:
    """A graded-mode evaluator reply → the report the grader reads.

    The evaluator is asked for the weighted mode's JSON verdicts (schema-bound where the provider allows, so even a
    135M model's reply has one verdict per criterion); they are written out as the Pass/Fail report. A reply in
    AI/RUN's own Markdown report form (a provider that ignores the schema) is used as it is when it states at least
    one Pass/Fail verdict. Anything else raises the JSON error, which the re-ask quotes.
    """
    try:
        return render_report(items, parse_verdicts(text, items))
    except JudgeParseError as err:
        if _VERDICT_LINE_RE.search(text):
            return text.strip()
        raise err


@dataclass
class Grade:
    """A grader's answer: the plain grade, the expectation Σ g·p when logprobs were available, and confidence."""

    plain: int
    expected: float
    probs: dict[int, float] = field(default_factory=dict)  # renormalised over grade tokens 1–5 found
    max_p: float | None = None  # raw probability of the most likely grade token (before renormalising)
    confident: bool | None = None  # max_p > CONFIDENT_P; None without logprobs
    source: Literal["logprobs", "text"] = "text"


def parse_grade(output: ModelOutput) -> Grade:
    """Read the 1–5 grade: Σ grade·p over grade tokens in the top logprobs of the grade token, else the plain digit.

    The grade token is the first generated token whose text (stripped) is a digit 1–5. Its alternatives come from
    its ``top_logprobs`` plus the token itself; tokens for the same digit (' 4', '4') are summed; probabilities are
    renormalised over the grade digits found (documented in docs/judge.md).
    """
    text = output.completion
    match = _GRADE_TEXT_RE.search(text)
    choice = output.choices[0] if output.choices else None
    logprobs = choice.logprobs if choice is not None else None
    if logprobs is not None:
        for lp in logprobs.content:
            token = lp.token.strip()
            if token in {str(g) for g in GRADES}:
                raw: dict[int, float] = {}
                alternatives = [(lp.token, lp.logprob)] + [(t.token, t.logprob) for t in (lp.top_logprobs or [])]
                seen: set[str] = set()
                for tok, logprob in alternatives:
                    if tok in seen:
                        continue
                    seen.add(tok)
                    digit = tok.strip()
                    if digit in {str(g) for g in GRADES} and math.isfinite(logprob):
                        raw[int(digit)] = raw.get(int(digit), 0.0) + math.exp(logprob)
                total = sum(raw.values())
                if total > 0:
                    probs = {g: p / total for g, p in sorted(raw.items())}
                    max_p = max(raw.values())
                    return Grade(
                        plain=int(token),
                        expected=sum(g * p for g, p in probs.items()),
                        probs=probs,
                        max_p=max_p,
                        confident=max_p > CONFIDENT_P,
                        source="logprobs",
                    )
                break
    if match is None:
        raise JudgeParseError("no grade (a single digit 1-5) found in the reply")
    grade = int(match.group(1))
    return Grade(plain=grade, expected=float(grade))
