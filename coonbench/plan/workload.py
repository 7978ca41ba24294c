"""What a run will send: every sample's prompt as the task's solver chain renders it, counted per tokenizer."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from coonbench.report.load import CLUSTER_KEYS
from coonbench.tasks.samples import GOLD_KEY
from coonbench.tasks.subset import STRATA, balanced_draw, question_group, too_few_questions
from coonbench.tokens import DEFAULT_ENCODING, count_tokens, tokenizer_for_model

SUBSET_ARGS = ("questions", "seed")


def prompt_text(messages: Sequence[Any]) -> str:
    """The text of the messages a model is sent, as sample metadata's ``input_text`` joins primer and prompt."""
    return "\n\n".join(m.text for m in messages)


async def _render(task: Any, samples: list[Any]) -> list[str]:
    from coonbench.cli import prompt_messages

    return [prompt_text(await prompt_messages(task, s)) for s in samples]


def _cluster(meta: dict[str, Any], pair: str) -> str:
    """The source item the report clusters a sample's answers by (``coonbench.report.load``'s keys)."""
    value = next((meta[k] for k in CLUSTER_KEYS if meta.get(k) is not None), None)
    return str(value) if value is not None else pair


def _gold(sample: Any, meta: dict[str, Any]) -> str:
    """The reply a perfect model gives (what ``coonbench/gold`` replies): metadata ``gold``, else the target."""
    if meta.get(GOLD_KEY) is not None:
        return str(meta[GOLD_KEY])
    from inspect_ai.scorer import Target

    return Target(sample.target).text


@dataclass
class Workload:
    """The samples of one task as built (``pool``: id, format, question ``pair``, cluster, strata, prompt text) and
    the ones the run keeps (``frame``: all of them, or a paired subset of them)."""

    task: str
    category: str
    tokenizer: str  # the one its samples were built for and its tokens are counted in
    pool: pd.DataFrame
    frame: pd.DataFrame
    _counts: dict[str, pd.Series] = field(default_factory=dict)

    def tokens(self, column: str = "text") -> pd.Series:
        """Tokens of every sample's prompt (``text``) or gold reply (``gold``: what a model that answers as asked
        writes) in the workload's tokenizer, counted once; indexed as ``pool``."""
        if column not in self._counts:
            self._counts[column] = pd.Series(
                [count_tokens(t, self.tokenizer) for t in self.pool[column]], index=self.pool.index, dtype=float
            )
        return self._counts[column]

    @property
    def formats(self) -> list[str]:
        return sorted(self.frame["format"].unique())

    def complete_questions(self) -> pd.DataFrame:
        """The rows of the questions every format has (the ones ``-T questions=N`` draws from)."""
        k = self.pool["format"].nunique()
        full = self.pool.groupby("pair")["format"].nunique()
        return self.pool[self.pool["pair"].isin(full[full == k].index)]

    def subset(self, questions: int, seed: int = 0) -> pd.DataFrame:
        """The rows ``-T questions=N -T seed=S`` keeps: the same draw as ``coonbench.tasks.subset.paired_subset``
        (all rows when N is not below the number of questions; TaskArgumentError above the complete ones)."""
        if questions >= self.pool["pair"].nunique():
            return self.pool
        complete = self.complete_questions().drop_duplicates("pair")
        if questions > len(complete):
            raise too_few_questions(questions, len(complete), int(self.pool["pair"].nunique()))
        strata = {p: tuple(row) for p, *row in complete[["pair", *STRATA]].itertuples(index=False)}
        return self.pool[self.pool["pair"].isin(set(balanced_draw(strata, questions, seed)))]

    def keep(self, ids: set[str]) -> Workload:
        """This workload with ``frame`` the samples of ``ids``: the ones the task itself builds for
        ``-T questions=N``, whatever its loader's draw reads (a writing case, a generation pair)."""
        frame = self.pool[self.pool["id"].isin(ids)]
        return Workload(self.task, self.category, self.tokenizer, self.pool, frame, self._counts)


def question_clusters(task: Any) -> pd.DataFrame:
    """Per sample of ``task``: its format, question (``pair``) and the source item the report clusters it by —
    the task's cluster design, without rendering a prompt."""
    rows = []
    for s in task.dataset:
        meta = dict(s.metadata or {})
        pair = question_group(str(s.id), meta)
        rows.append({"format": str(meta.get("format", "default")), "pair": pair, "cluster": _cluster(meta, pair)})
    return pd.DataFrame(rows, columns=["format", "pair", "cluster"])


def workload(task: Any, name: str, tokenizer: str = DEFAULT_ENCODING) -> Workload:
    """Render every sample of ``task`` (an Inspect Task) through its solvers up to the first model call."""
    samples = list(task.dataset)
    texts = asyncio.run(_render(task, samples))
    rows = []
    for s, text in zip(samples, texts):
        meta = dict(s.metadata or {})
        pair = question_group(str(s.id), meta)
        rows.append({
            "id": str(s.id), "format": str(meta.get("format", "default")), "pair": pair,
            "cluster": _cluster(meta, pair), "question_type": str(meta.get("question_type", "-")),
            "complexity": str(meta.get("complexity", "-")), "text": text, "gold": _gold(s, meta),
        })
    frame = pd.DataFrame(rows, columns=["id", "format", "pair", "cluster", "question_type", "complexity", "text",
                                        "gold"])
    category = str((samples[0].metadata or {}).get("category", name)) if samples else name
    return Workload(name, category, tokenizer, frame, frame)


def load_workloads(spec: str, pairs: list[str], models: list[str]) -> dict[str, Workload]:
    """Per model, the task's samples built and counted in its tokenizer (``-T tokenizer=`` for all, else each
    model's; one build per tokenizer). A paired subset (``-T questions=``) keeps the samples the task builds with
    it (its loader's own draw), and the pool keeps every sample, so that ``--detect`` can look beyond it."""
    from coonbench.cli import task_args, task_function

    name, fn = task_function(spec)
    given = task_args(pairs)
    params = inspect.signature(fn).parameters
    subset = "questions" in params and given.get("questions") is not None
    built: dict[str, Workload] = {}
    out: dict[str, Workload] = {}
    for model in models:
        tokenizer = str(given.get("tokenizer") or tokenizer_for_model(model))
        if tokenizer not in built:
            args = {k: v for k, v in given.items() if not (subset and k in SUBSET_ARGS)}
            if "tokenizer" in params:
                args["tokenizer"] = tokenizer
            work = workload(fn(**args), name, tokenizer)
            if subset:  # the run's samples are the ones the task draws, built as the run builds them
                drawn = fn(**{**args, **{k: given[k] for k in SUBSET_ARGS if k in given}})
                work = work.keep({str(s.id) for s in drawn.dataset})
            built[tokenizer] = work
        out[model] = built[tokenizer]
    return out
