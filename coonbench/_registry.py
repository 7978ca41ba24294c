"""Inspect entry point: importing this module registers every coonbench task, solver, scorer and model API.

Names become ``coonbench/<name>`` (e.g. ``inspect eval coonbench/comprehension``, ``--solver coonbench/gold``).
"""

# ruff: noqa: F401
# The model provider first: it depends only on inspect_ai, so `--model gguf/…` survives a broken task module.
from coonbench.providers.gguf import GGUFModelAPI
from solvers.gold import gold
from solvers.baselines import baseline_constant, baseline_empty, baseline_frequent, baseline_random_widget
from solvers.primer import format_primer
from evals.comprehension import comprehension
from scorers.judge import judge, judge_best, judge_scores, judge_agreement, airun_v2
from coonbench.execution.sandbox import LocalLimitedSandbox
from evals.correction import correction
from scorers.correction import correction_scorer
from solvers.correction import correction_protocol
from evals.retrieval import retrieval
from scorers.answer import answer_match
from scorers.expected_elements import expected_elements
from solvers.sample_config import generate_from_metadata
from evals.structure import structure
from solvers.retry import retry_generate
from scorers.code import ast_equivalence, requirements, code_check
from evals.generation import generation
from evals.modification import modification
