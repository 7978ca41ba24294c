"""Running model-written programs: one Executor per target language, always inside an Inspect sandbox."""

from coonbench.execution import goth, javascript, python, sandbox  # noqa: F401  (register executors + sandbox)
from coonbench.execution.base import (
    ERROR_TYPES,
    AttemptResult,
    Executor,
    ExecutorUnavailable,
    Outcome,
    get_executor,
    list_executors,
    register_executor,
)
from coonbench.execution.problem import Problem, TestCase

__all__ = [
    "ERROR_TYPES",
    "AttemptResult",
    "Executor",
    "ExecutorUnavailable",
    "Outcome",
    "Problem",
    "TestCase",
    "get_executor",
    "list_executors",
    "register_executor",
]
