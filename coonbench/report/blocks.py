"""Like-for-like question sets: formats are compared, ranked and costed only on the questions every one of them
answered.

A format measured on a subset of the questions (TOON's csv: 109 of 244, the flat-data ones) is not set beside
formats measured on all of them — its accuracy is over easier or harder questions. The main block holds the formats
run on (nearly) every question; each subset gets its own block with the main formats restricted to its questions,
labelled with its question count, and is ranked only there.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from coonbench.report.load import is_reference

MAIN_COVERAGE = 0.9  # a format that answered at least this share of the most-answered format's questions is main


@dataclass(frozen=True)
class Block:
    formats: tuple[str, ...]  # every format compared in this block
    only: tuple[str, ...]  # the formats run on this subset only (empty for the main block)
    questions: int  # distinct questions every format of the block answered

    @property
    def main(self) -> bool:
        return not self.only

    @property
    def key(self) -> str:
        """'' for the main block, else the subset formats joined by '+' (table names, ids)."""
        return "+".join(self.only)

    @property
    def label(self) -> str:
        """How tables and sentences name the question set: '244 questions', 'the 109 questions csv answered'."""
        counted = f"{self.questions:,} question{'' if self.questions == 1 else 's'}"
        if self.main:
            return counted
        return f"the {counted} {' and '.join(self.only)} answered"


def _tested(frame: pd.DataFrame) -> pd.DataFrame:
    tested = frame[~frame["system"].map(is_reference).astype(bool)]  # bool even when empty
    return tested if not tested.empty else frame


def restrict(frame: pd.DataFrame, formats: tuple[str, ...], key: str = "correct") -> pd.DataFrame:
    """The rows of ``formats`` on the (system, question, epoch) keys where every one of them that the system ran
    has an answer: each system's formats on the same questions."""
    data = frame[frame["format"].isin(formats) & frame[key].notna()]
    if data.empty:
        return data
    ran = data.groupby("system")["format"].nunique()
    have = data.groupby(["system", "pair", "epoch"])["format"].transform("nunique")
    return data[have == data["system"].map(ran)]


def question_blocks(frame: pd.DataFrame, key: str = "correct") -> list[Block]:
    """The main block, then one block per distinct subset of questions that some formats were run on only."""
    data = _tested(frame)
    data = data[data[key].notna()]
    sets = {str(f): frozenset(g["pair"]) for f, g in data.groupby("format", sort=True)}
    if not sets:
        return []
    largest = max(len(s) for s in sets.values())
    main = tuple(f for f, s in sets.items() if len(s) >= MAIN_COVERAGE * largest)
    subsets: dict[frozenset, list[str]] = {}
    for f, s in sets.items():
        if f not in main:
            subsets.setdefault(s, []).append(f)
    blocks = [Block(main, (), _count(frame, main, key))]
    for s, only in sorted(subsets.items(), key=lambda item: (-len(item[0]), item[1])):
        formats = tuple(sorted((*main, *only)))
        blocks.append(Block(formats, tuple(only), _count(frame, formats, key)))
    return [b for b in blocks if b.main or b.questions]  # a subset no main format answered: nothing to compare


def _count(frame: pd.DataFrame, formats: tuple[str, ...], key: str) -> int:
    return int(_tested(restrict(frame, formats, key))["pair"].nunique())
