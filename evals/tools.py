"""Tool use: an agent answers retrieval questions through tools whose results come back in the format under test.

    inspect eval evals/tools.py --model mockllm/model --solver coonbench/gold -T formats=json,toon
    inspect eval evals/tools.py -T formats=json,toon,csv --model …
    inspect eval evals/tools.py -T agent=no_tools --model …      # the floor: the same prompts, no tools
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from inspect_ai import Epochs, Task, task

from coonbench.datasets.tools import DEFAULT_FORMATS, tools_pending
from coonbench.scorers.answer import epoch_mean
from coonbench.scorers.tools import tool_answer
from coonbench.solvers.tools import DEFAULT_MAX_CALLS, no_tool_agent, tool_agent
from coonbench.tasks.build import task_run
from coonbench.tasks.context import BuildContext
from coonbench.tasks.samples import TaskArgumentError
from coonbench.tasks.subset import Pending


@task(name="tools")
def tools(
    formats: str | Sequence[str] | None = DEFAULT_FORMATS,
    agent: Literal["react", "no_tools"] = "react",
    max_calls: int = DEFAULT_MAX_CALLS,
    tokenizer: str | None = None,
    questions: int | None = None,
    seed: int = 0,
    **unknown: Any,
) -> Task:
    """Retrieval questions that need two or more calls to tools (describe_dataset, list_records, find_records,
    get_record) whose results are encoded in each format.

    Args:
      formats: comma-separated data-format conditions (``NAME``, ``NAME:noprimer``, ``NAME:full``) or ``all``
        (default: the ten data formats coonbench ships, ``DEFAULT_FORMATS``, whatever plug-ins are installed;
        ``all`` adds every registered one). A format that cannot carry a dataset's results (CSV on nested
        records) skips that dataset; the eval's metadata says which and why.
      agent: ``react`` (Inspect's ReAct agent with the tools) or ``no_tools`` (the same prompt, no tools: the floor).
      max_calls: tool calls allowed per task before the agent is stopped.
      tokenizer: the tokenizer that tokens are counted in (default: the model under test's family).
      questions: keep this many whole questions (every format of each), seeded and balanced (``--limit`` would
        give the formats different questions).
      seed: the seed of the ``questions`` draw.
    """
    run = task_run(tools, unknown, tokenizer=tokenizer, questions=questions, seed=seed)
    if agent not in ("react", "no_tools"):
        raise TaskArgumentError(f"-T agent={agent}: unknown agent (choose from react, no_tools)")
    refused: dict[str, Any] = {}  # per format, the datasets it cannot carry: the listing fills it

    def listing(_: BuildContext) -> tuple[list[Pending], None]:
        pending, found = tools_pending(formats)
        refused.update(found)
        return pending, None

    return run.build(  # -T questions=N renders only the N questions drawn
        "tools",
        listing,
        dataset_name="coonbench-tools",
        solver=tool_agent(max_calls) if agent == "react" else no_tool_agent(),
        scorer=tool_answer(),
        epochs=Epochs(1, epoch_mean()),
        metadata={"agent": agent, "skipped": refused},
    )
