"""Which tokenizer a task's samples are counted in: ``-T tokenizer=NAME``, else the model under test's family.

Inspect makes the model under test the active model before it calls a ``@task`` function (``eval`` resolves each
model, then builds the tasks for it), and ``get_model()`` with no argument is its public way to read it; this
module is the one place outside solvers and scorers that calls it (CONTRIBUTING.md), at task-build time only.
Outside an evaluation (``coonbench dump-prompts``, a test calling the task function) there is no model under test
and the samples count in ``o200k_base``.
"""

from __future__ import annotations

from inspect_ai.model import get_model

from coonbench.tasks.context import BuildContext
from coonbench.tasks.samples import TaskArgumentError, did_you_mean
from coonbench.tokens import DEFAULT_ENCODING, install_offline_encodings, tokenizer_for_model, tokenizer_names


def model_under_test() -> str | None:
    """The name of the model being evaluated (``provider/name``), or None outside an evaluation."""
    try:
        return str(get_model())
    except ValueError:  # "No model specified": no evaluation is running and INSPECT_EVAL_MODEL is not set
        return None


def task_tokenizer(tokenizer: str | None = None) -> str:
    """The tokenizer named by the task argument, else the model under test's (``tokenizer_for_model``), else
    ``o200k_base``. TaskArgumentError for a name no tokenizer is registered under."""
    if tokenizer:
        names = tokenizer_names()
        if tokenizer not in names:
            raise TaskArgumentError(
                f"-T tokenizer={tokenizer}: unknown tokenizer{did_you_mean(tokenizer, names)} "
                f"(choose from {', '.join(names)})"
            )
        return tokenizer
    model = model_under_test()
    return tokenizer_for_model(model) if model else DEFAULT_ENCODING


def counted_for_model(tokenizer: str | None = None) -> BuildContext:
    """The context a task's samples are built in: counted in ``task_tokenizer(tokenizer)`` (named in the task's own
    metadata too), the default template. A task runs from here on, so tiktoken's BPE files are installed now
    (Inspect's ``mockllm`` and any OpenAI model count in ``o200k_base``, offline), not when coonbench is
    imported."""
    install_offline_encodings()
    return BuildContext(task_tokenizer(tokenizer))
