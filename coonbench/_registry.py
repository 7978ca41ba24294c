"""Inspect entry point: importing this module registers every coonbench task, solver, scorer and model API.

Names become ``coonbench/<name>`` (e.g. ``inspect eval coonbench/comprehension``, ``--solver coonbench/gold``).
"""

# ruff: noqa: F401
from solvers.gold import gold
from solvers.primer import format_primer
from evals.comprehension import comprehension
from coonbench.providers.gguf import GGUFModelAPI
from scorers.judge import judge, judge_best, judge_scores, judge_agreement, airun_v2
from coonbench.execution.sandbox import LocalLimitedSandbox
from evals.correction import correction
from scorers.correction import correction_scorer
from solvers.correction import correction_protocol
