"""Per-sample state shared by solvers and scorers, as typed Inspect ``StoreModel``s.

Solvers write it, scorers read it; both import it from here (a layer below both), so no scorer imports a
solver. Field values live in the sample's store under ``<Model>:<field>`` keys and are shown in the log.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.util import Store, StoreModel
from pydantic import Field


class RetryState(StoreModel):
    """``retry_generate``'s bookkeeping: one record per reply (``AnswerCheck.record``), read by the code scorers."""

    attempts: list[dict[str, Any]] = Field(default_factory=list)


class CorrectionState(StoreModel):
    """The correction protocol: the problem, the attempt budget and one record per attempt (``attempt_record``)."""

    problem_id: str | None = None
    max_attempts: int = 1
    attempts: list[dict[str, Any]] = Field(default_factory=list)


def retry_state(store: Store) -> RetryState:
    """The retry bookkeeping bound to a sample's store (``state.store``)."""
    return RetryState(store=store)


def correction_state(store: Store) -> CorrectionState:
    """The correction state bound to a sample's store (``state.store``)."""
    return CorrectionState(store=store)


class ToolsState(StoreModel):
    """The tool task's calls, as the tool server recorded them: ``{function, arguments, full, named, error}`` per
    call (``full``: identifiers whose whole record the result held; ``named``: those it only named)."""

    calls: list[dict[str, Any]] = Field(default_factory=list)


def tools_state(store: Store) -> ToolsState:
    """The tool calls bound to a sample's store (``state.store``)."""
    return ToolsState(store=store)


class HandoffState(StoreModel):
    """The handoff task's first agent: the message A sent B (what crossed between them)."""

    message: str | None = None


def handoff_state(store: Store) -> HandoffState:
    """The handoff bookkeeping bound to a sample's store (``state.store``)."""
    return HandoffState(store=store)


class SessionState(StoreModel):
    """A multi-turn session (``solvers.session``): one record per turn — ``turn``, ``reply`` (the final reply of
    the turn), ``valid`` (it decodes to Dart), ``resumed_from_gold`` (the turn went on from the gold state because
    the previous reply could not be read) and ``attempts`` (the retry records) — read by ``scorers.edits``."""

    turns: list[dict[str, Any]] = Field(default_factory=list)


def session_state(store: Store) -> SessionState:
    """The session bookkeeping bound to a sample's store (``state.store``)."""
    return SessionState(store=store)


class WritingState(StoreModel):
    """The writing task's repair loop: the attempt budget and one record per document (``DocumentCheck.record``)."""

    max_attempts: int = 1
    attempts: list[dict[str, Any]] = Field(default_factory=list)


def writing_state(store: Store) -> WritingState:
    """The writing bookkeeping bound to a sample's store (``state.store``)."""
    return WritingState(store=store)
