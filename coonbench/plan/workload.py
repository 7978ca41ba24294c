"""What a run will send: every sample's prompt as the task's solver chain renders it, counted per tokenizer."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from coonbench.report.load import CLUSTER_KEYS
from coonbench.tasks.samples import GOLD_KEY
from coonbench.tasks.subset import STRATA, balanced_draw, check_questions, question_group, too_few_questions
from coonbench.tokens import count_tokens

FALLBACK_TOKENIZER = "o200k_base"


def tokenizer_of(model: str) -> str:
    """The tokenizer a model's prompts are counted in."""
    return FALLBACK_TOKENIZER


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
    pool: pd.DataFrame
    frame: pd.DataFrame
    _counts: dict[str, pd.Series] = field(default_factory=dict)

    def tokens(self, tokenizer: str) -> pd.Series:
        """Input tokens of every sample's prompt in ``tokenizer`` (counted once per tokenizer; indexed as
        ``pool``)."""
        if tokenizer not in self._counts:
            self._counts[tokenizer] = pd.Series(
                [count_tokens(t, tokenizer) for t in self.pool["text"]], index=self.pool.index, dtype=float
            )
        return self._counts[tokenizer]

    def gold_tokens(self, tokenizer: str) -> pd.Series:
        """Tokens of every sample's gold reply (what a model that answers as asked writes) in ``tokenizer``."""
        key = f"gold:{tokenizer}"
        if key not in self._counts:
            self._counts[key] = pd.Series(
                [count_tokens(t, tokenizer) for t in self.pool["gold"]], index=self.pool.index, dtype=float
            )
        return self._counts[key]

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

    def select(self, questions: int | None, seed: int = 0) -> Workload:
        """This workload with ``frame`` the paired subset (None: every sample)."""
        frame = self.pool if questions is None else self.subset(check_questions(questions), seed)
        return Workload(self.task, self.category, self.pool, frame, self._counts)


def workload(task: Any, name: str) -> Workload:
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
    return Workload(name, category, frame, frame)
