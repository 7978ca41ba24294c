"""Inspect entry point: importing this module registers every coonbench task, solver, scorer and model API.

Names become ``coonbench/<name>`` (e.g. ``inspect eval coonbench/comprehension``, ``--solver coonbench/gold``).

Loading this module has no effect but registering: it sets no environment variable, logging level, warning
filter or stream setting, because Inspect loads it in every ``inspect`` process, also for other packages' tasks
(``tests/test_piped_output.py`` compares a foreign task's piped output with and without it). Readable piped output
is the user's choice: docs/usage.md, "Piped output".
"""

# ruff: noqa: F401
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
from coonbench.evals.tools import tools
from coonbench.solvers.tools import tool_agent, no_tool_agent
from coonbench.scorers.tools import tool_answer
from coonbench.evals.handoff import handoff
from coonbench.solvers.handoff import handoff_agents
from coonbench.scorers.handoff import handoff_score
from coonbench.solvers.baselines import baseline_no_edit
from coonbench.solvers.session import session_generate
from coonbench.scorers.edits import edit_check, session_check
from coonbench.evals.writing import writing
from coonbench.scorers.writing import writing_scorer
from coonbench.solvers.writing import writing_protocol, baseline_wrong_values
