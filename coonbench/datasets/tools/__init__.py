"""The tool-use task's samples: retrieval questions that need two or more tool calls, one per data format.

* ``questions`` — which retrieval questions need ≥ 2 calls, and the calls a perfect agent makes (``plan``);
* ``server``    — the four tools over a dataset, their results encoded in the format under test.

A sample's metadata names its dataset (``collection``) and format (``encoding``); the solver builds the tools from
them. ``plan`` (the gold agent's calls) and ``evidence`` (what an answer needs to have been fetched) are in the
metadata too, so the gold solver replays real calls and the scorer can tell a misread from a fetch never made.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from inspect_ai.dataset import Sample

from coonbench.datasets.retrieval.common import PROMPT as RETRIEVAL_PROMPT
from coonbench.datasets.retrieval.common import format_label
from coonbench.datasets.retrieval.conditions import DataCondition, parse_conditions
from coonbench.datasets.tools.questions import PAGE_SIZE, collections, tool_questions
from coonbench.datasets.tools.server import ToolServer, dataset_tools
from coonbench.tasks.context import BuildContext
from coonbench.tasks.samples import sample_metadata
from coonbench.tasks.subset import Pending

CATEGORY = "tools"
DEFAULT_FORMATS: tuple[str, ...] = ("csv", "json", "json-compact", "markdown-kv", "markdown-table", "tealeaf",
                                    "tealeaf-compact", "toon", "xml", "yaml")
"""The formats the default dataset shows: the data formats coonbench ships, named here rather than "every registered
format", so that installing someone's format plug-in leaves the benchmark as it was (``-T formats=all`` asks for
the plug-ins too)."""
PLAN_KEY = "tool_plan"
_RULES_START = RETRIEVAL_PROMPT.index("Answer format requirements:")
ANSWER_RULES = RETRIEVAL_PROMPT[_RULES_START:RETRIEVAL_PROMPT.rindex("\nAnswer:")]
"""The retrieval prompt's answer rules (TOON's, and the yes/no rule), shown after the question."""
PROMPT = """You can call tools over a dataset of {entities} ({description}). The tools return their data in \
{format_label} format.{primer}

Use the tools to answer the question; a list_records page holds {page} records, find_records returns refs and \
identifiers only, get_record returns one full record by its ref. When you know the answer, reply with the \
answer alone and call no tool.

Question: {question}

""" + ANSWER_RULES


def _prompt(rec: dict[str, Any], fmt: str, primer: str | None) -> str:
    coll = collections()[rec["collection"]]
    shown = f"\n\n{primer.strip()}" if primer else ""
    return PROMPT.format(entities=coll.entities, description=coll.description, format_label=format_label(fmt),
                         primer=shown, page=PAGE_SIZE, question=rec["question"])


def tool_sample(rec: dict[str, Any], cond: DataCondition, ctx: BuildContext) -> Sample:
    """One question in one format condition: its prompt rendered and counted in ``ctx``'s tokenizer."""
    prompt = _prompt(rec, cond.format, cond.primer_text())
    meta = sample_metadata(
        format=cond.label, category=CATEGORY, question_type=rec["question_type"],
        complexity=rec["complexity"], input_text=prompt, tokenizer=ctx.tokenizer, answer_type=rec["answer_type"],
        normalize_options=rec.get("normalize_options"), pair_id=rec["id"], collection=rec["collection"],
        encoding=cond.format, primer=cond.shows_primer, kind=rec["kind"], min_calls=rec["min_calls"],
        evidence=rec["evidence"], **{PLAN_KEY: rec["plan"]},
    )
    return Sample(id=f"{CATEGORY}-{rec['id']}-{cond.label}", input=prompt, target=str(rec["answer"]), metadata=meta)


def tools_pending(formats: str | Sequence[str] | None = DEFAULT_FORMATS) -> tuple[list[Pending], dict[str, Any]]:
    """``tools_samples``' samples not built yet (``coonbench.tasks.subset.Pending``: ``-T questions=N`` renders only
    the questions drawn), and per format the datasets it cannot carry; whether a format can carry a dataset is its
    server's check, made here since only questions every format shows are drawn."""
    conditions = parse_conditions(formats)
    refused: dict[str, dict[str, str]] = {}
    checked: dict[tuple[str, str], str | None] = {}
    pending: list[Pending] = []
    for rec in tool_questions():
        for cond in conditions:
            name = rec["collection"]
            if (cond.format, name) not in checked:
                checked[cond.format, name] = ToolServer(collections()[name], cond.format).check()
            reason = checked[cond.format, name]
            if reason is not None:
                refused.setdefault(cond.label, {})[name] = reason
                continue
            stratum = (str(rec["complexity"]), str(rec["question_type"]))
            pending.append(Pending(rec["id"], stratum, cond.label, functools.partial(tool_sample, rec, cond)))
    return pending, refused


def tools_samples(formats: str | Sequence[str] | None = DEFAULT_FORMATS,
                  ctx: BuildContext | None = None) -> tuple[list[Sample], dict[str, Any]]:
    """Samples for every kept question in every format condition, built for ``ctx`` (the default context when None),
    and per format the datasets it cannot carry (``{format: {dataset: reason}}``, the format's own error; their
    questions are skipped)."""
    pending, refused = tools_pending(formats)
    ctx = ctx if ctx is not None else BuildContext()
    return [p.build(ctx) for p in pending], refused


__all__ = ["CATEGORY", "DEFAULT_FORMATS", "PLAN_KEY", "PROMPT", "dataset_tools", "tool_questions", "tool_sample",
           "tools_pending", "tools_samples"]
