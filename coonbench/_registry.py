"""Inspect entry point: importing this module registers every coonbench task, solver, scorer and model API.

Names become ``coonbench/<name>`` (e.g. ``inspect eval coonbench/comprehension``, ``--solver coonbench/gold``).
"""

# ruff: noqa: F401
import os
import sys
from pathlib import Path

PIPE_COLUMNS = 400
"""The width rich lays Inspect's output out at when stdout is no terminal (it assumes 80 there): wider than a log
path or a metric line; rich sizes Inspect's panels to their content, so nothing grows to it."""


def _whole_lines_when_piped() -> None:
    """Make ``inspect eval … | tee run.txt`` show each progress line as it is printed, whole.

    Inspect imports this module (its entry point) before it prints anything. Its plain display prints with
    ``print``, which a pipe's block buffering holds back until the run ends; line buffering sends each line on its
    way (rich flushes its own writes). rich cuts lines at ``COLUMNS``, 80 when unset and not a terminal, which cut
    the log path and metric names; a user's own ``COLUMNS`` is kept. Only in Inspect's own program (``inspect``,
    ``python -m inspect_ai``): a Python program that imports Inspect keeps its output as it set it."""
    program = Path(sys.argv[0]) if sys.argv and sys.argv[0] else Path()
    if program.name != "inspect" and program.parent.name != "inspect_ai":
        return
    stdout = sys.stdout
    if stdout is None or stdout.isatty():
        return
    reconfigure = getattr(stdout, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(line_buffering=True)
    os.environ.setdefault("COLUMNS", str(PIPE_COLUMNS))


_whole_lines_when_piped()

# The model provider first: it depends only on inspect_ai (and a one-line error class), so `--model gguf/…`
# survives a broken task module.
from coonbench.providers.gguf import GGUFModelAPI
from coonbench.solvers.gold import gold
from coonbench.solvers.baselines import baseline_constant, baseline_empty, baseline_frequent, baseline_random_widget
from coonbench.solvers.primer import format_primer
from coonbench.evals.comprehension import comprehension
from coonbench.scorers.judge import judge, judge_best, judge_scores, judge_agreement, airun_v2
from coonbench.execution.sandbox import LocalLimitedSandbox
from coonbench.evals.correction import correction
from coonbench.scorers.correction import correction_scorer
from coonbench.solvers.correction import correction_protocol
from coonbench.evals.retrieval import retrieval
from coonbench.scorers.answer import answer_match
from coonbench.scorers.expected_elements import expected_elements
from coonbench.solvers.sample_config import generate_from_metadata
from coonbench.evals.structure import structure
from coonbench.solvers.retry import retry_generate
from coonbench.scorers.code import ast_equivalence, requirements, code_check
from coonbench.evals.generation import generation
from coonbench.evals.modification import modification
from coonbench.solvers.baselines import baseline_no_edit
from coonbench.solvers.session import session_generate
from coonbench.scorers.edits import edit_check, session_check
