"""The writing task's samples: each case (``cases``) written in each format condition, from a description of the
records or from the same data shown in another format.

A condition is a registered data format with a decoder (``NAME``, ``NAME:noprimer``, ``NAME:full``, as in
retrieval) or ``json-structured`` (JSON, with the case's JSON schema sent as the response schema). What a format
is graded against is derived by code: its own encoding of the case decoded again (``expected_for``); a format
whose round trip does not give the data back (CSV on nested data, a string it types as a number) cannot hold the
case and skips it with the reason, never silently. A format without a decoder is refused when named and skipped,
with its reason, under ``all``.

``-T questions=N`` keeps N whole cases (``writing_pending``): a case is the unit a paired comparison of formats
needs, so every sample of a drawn case is kept (every source, every format); the draw is balanced over size and
shape. A case is a question here, not a case × source (``pair_id``, what the report pairs): a source that is also
a format of the run (JSON shown, JSON asked) leaves that format out of its questions, so no case × source would
ever be complete.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from inspect_ai.dataset import Sample

from coonbench.answers.document import reads_as
from coonbench.datasets.writing.cases import SHAPES, SIZES, Case, all_cases
from coonbench.datasets.writing.describe import describe, json_schema_of, path_example
from coonbench.formats import Format, FormatError, get_format
from coonbench.formats._compare import first_difference
from coonbench.tasks.context import BuildContext
from coonbench.tasks.conditions import Condition, ConditionError, Skip, format_names, parse_condition
from coonbench.tasks.samples import GOLD_KEY, TaskArgumentError, choose, sample_metadata, shown, split_param
from coonbench.tasks.subset import Pending

CATEGORY = "writing"
STRUCTURED = "json-structured"
SOURCES_DESCRIPTION = "description"
DEFAULT_SOURCES = ("description", "json")

DESCRIPTION_PROMPT = """Write a {label} document that holds exactly the data below: every key and value listed, \
with the types given, and nothing else. Each line gives a value's path from the document's root: a dot steps \
into an object by key, `[N]` into a list by position. {example}Keys are listed in their order.

{description}

{reply}"""

CONVERT_PROMPT = """Here is some data written in {source_label}:

```{source_fence}
{source_text}
```

Write the same data as a {label} document: the same keys, values and types, nothing else. {reply}"""

REPLY_FENCED = "Reply with the whole document in one ```{fence} code block."
REPLY_STRUCTURED = "Reply with the JSON document only: your reply is constrained to the JSON schema of this data."


@dataclass(frozen=True)
class WritingCondition:
    """A data format the model writes, how its primer is shown, and whether a response schema goes with it."""

    condition: Condition
    structured: bool = False

    @property
    def label(self) -> str:
        return STRUCTURED if self.structured else self.condition.label

    @property
    def fmt(self) -> Format:
        return self.condition.fmt


def can_decode(fmt: Format) -> bool:
    """Whether the format has a decoder (a lossy format without one leaves ``Format.decode``, which raises)."""
    return type(fmt).decode is not Format.decode


def parse_writing_conditions(formats: str | Sequence[str] | None) -> tuple[list[WritingCondition], list[Skip]]:
    """``-T formats=`` → the conditions (default ``all``: every data format with a decoder, and json-structured),
    and the formats ``all`` left out for having no decoder. A named format without a decoder, or an unknown name,
    raises TaskArgumentError naming it and why."""
    entries = split_param(formats) or ["all"]
    out: dict[str, WritingCondition] = {}
    skips: list[Skip] = []
    for entry in entries:
        if entry == "all":
            for name in format_names("data"):
                if can_decode(get_format(name)):
                    out.setdefault(name, WritingCondition(Condition(name)))
                else:
                    skips.append(Skip("*", name, "no decoder: a document written in it cannot be checked"))
            out.setdefault(STRUCTURED, WritingCondition(Condition("json"), structured=True))
            continue
        if entry == STRUCTURED:
            out.setdefault(STRUCTURED, WritingCondition(Condition("json"), structured=True))
            continue
        try:
            cond = parse_condition(entry, kind="data")
        except ConditionError as err:
            raise TaskArgumentError(f"-T formats={shown(formats)}: {err}") from None
        if not can_decode(cond.fmt):
            raise TaskArgumentError(f"-T formats={shown(formats)}: format '{cond.format}' has no decoder, so a "
                                    "document written in it cannot be checked")
        out.setdefault(cond.label, WritingCondition(cond))
    return list(out.values()), skips


def parse_sources(sources: str | Sequence[str] | None) -> list[str]:
    """``-T sources=``: ``description`` and/or data formats with an encoder the data is shown in."""
    choices = [SOURCES_DESCRIPTION, *format_names("data")]
    return choose("sources", sources, choices, "source") or list(DEFAULT_SOURCES)


def expected_for(fmt: Format, data: Any) -> tuple[Any, str | None]:
    """(what a document in ``fmt`` must decode to, None) when the format can hold ``data``, else (None, why not).

    The format's own encoding decoded again must give the data back; a format that does not write the key of an
    object holding one list (CSV) is graded on that list when that is all it drops."""
    try:
        back = fmt.decode(fmt.encode(data))
    except FormatError as err:
        return None, f"cannot hold this shape: {err.message}"
    difference = first_difference(data, back, key_order=False)
    if difference is None:
        return data, None
    if isinstance(data, dict) and len(data) == 1 and isinstance(next(iter(data.values())), list):
        inner = next(iter(data.values()))
        if first_difference(inner, back, key_order=False) is None:
            return inner, None
    return None, f"does not read this data back: {difference}"


def _label(fmt: Format) -> str:
    """How a prompt names a format: its description up to the first comma or parenthesis (``TOON``, ``CSV``)."""
    return fmt.description.split(",")[0].split(" (")[0].split(":")[0]


def _prompt(case: Case, source: str, cond: WritingCondition) -> str:
    """The request: the case described, or shown in the source format."""
    label = _label(cond.fmt)
    reply = REPLY_STRUCTURED if cond.structured else REPLY_FENCED.format(fence=cond.fmt.fence)
    if source == SOURCES_DESCRIPTION:
        example = path_example(case.data)
        return DESCRIPTION_PROMPT.format(label=label, description=describe(case.data, case.computed), reply=reply,
                                         example=f"{example} " if example else "")
    shown_in = get_format(source)
    return CONVERT_PROMPT.format(source_label=_label(shown_in), source_fence=shown_in.fence,
                                 source_text=shown_in.encode(case.data).rstrip("\n"), label=label, reply=reply)


def writing_pending(
    conditions: Sequence[WritingCondition],
    sources: Sequence[str],
    shapes: Sequence[str] = SHAPES,
    sizes: Sequence[str] = tuple(SIZES),
    seed: int = 0,
) -> tuple[list[Pending], list[Skip]]:
    """Every case × source × condition that can be asked, not built yet (``build_subset`` builds the drawn cases'
    only), and a Skip (with its reason) for each that cannot. A sample's question is its case, its stratum the
    case's (size, shape)."""
    pending: list[Pending] = []
    skips: list[Skip] = []
    for case in all_cases(list(shapes), list(sizes), seed):
        for source in sources:
            item = f"{case.id}/{source}"
            if source != SOURCES_DESCRIPTION:
                _, why = expected_for(get_format(source), case.data)
                if why is not None:
                    skips.append(Skip(item, "*", f"source {source} {why}"))
                    continue
            for cond in conditions:
                if source == cond.fmt.name:
                    skips.append(Skip(item, cond.label, "source and target are the same format: nothing to write"))
                    continue
                expected, why = expected_for(cond.fmt, case.data)
                if why is None and source != SOURCES_DESCRIPTION and reads_as(source, cond.fmt.encode(case.data)):
                    why = f"the source format ({source}) reads {cond.fmt.name} documents: a copy would pass"
                if why is not None:
                    skips.append(Skip(item, cond.label, why))
                    continue
                pending.append(Pending(case.id, (case.size, case.shape), cond.label,
                                       functools.partial(_sample, case, source, cond, expected)))
    return pending, skips


def writing_samples(
    conditions: Sequence[WritingCondition],
    sources: Sequence[str],
    shapes: Sequence[str] = SHAPES,
    sizes: Sequence[str] = tuple(SIZES),
    seed: int = 0,
    ctx: BuildContext | None = None,
) -> tuple[list[Sample], list[Skip]]:
    """Every sample ``writing_pending`` lists, built for ``ctx`` (the default context when None), and its skips."""
    pending, skips = writing_pending(conditions, sources, shapes, sizes, seed)
    ctx = ctx if ctx is not None else BuildContext()
    return [p.build(ctx) for p in pending], skips


def _sample(case: Case, source: str, cond: WritingCondition, expected: Any, ctx: BuildContext) -> Sample:
    """One request, counted in ``ctx``'s tokenizer; ``input_tokens`` count the primer too (what writing in the
    format costs on input)."""
    prompt = _prompt(case, source, cond)
    question_type = "from-description" if source == SOURCES_DESCRIPTION else "from-format"
    meta = cond.condition.metadata(tokenizer=ctx.tokenizer)
    primer = cond.condition.primer_text() or ""
    gold = f"```{cond.fmt.fence}\n{cond.fmt.encode(case.data).rstrip(chr(10))}\n```"
    extra: dict[str, Any] = {
        **meta, "expected": expected, "data": case.data, "shape": case.shape, "size": case.size, "source": source,
        "case_id": case.id, "dataset": case.shape, "pair_id": f"{CATEGORY}-{case.id}-{source}",
        "structured": cond.structured,
    }
    if cond.structured:
        extra["response_schema"] = json_schema_of(case.data)
    return Sample(
        id=f"{CATEGORY}-{case.id}-{source}-{cond.label}",
        input=prompt,
        target=json.dumps(expected, ensure_ascii=False),
        metadata=sample_metadata(format=cond.label, category=CATEGORY, question_type=question_type,
                                 complexity=case.size, input_text=f"{primer}\n{prompt}" if primer else prompt,
                                 tokenizer=ctx.tokenizer, gold=gold, **extra),
    )
