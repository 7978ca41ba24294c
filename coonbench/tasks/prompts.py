"""Prompt sensitivity: every task's question under several semantically equivalent prompt templates.

Each task keeps its templates as a module-level constant beside its default prompt (a ``TemplateSet``: one
``PromptTemplate`` per id in ``TEMPLATE_IDS``, the same ids in every task, so a report can line the tasks up):

- ``default``: the task's own prompt, unchanged (a run without ``-T prompts=`` sees only it, under the same ids);
- ``reworded``: the same content in other words;
- ``question-first``: the question or instruction before the code or data;
- ``system``: the instruction in a system message, the code/data and the question in the user message.

A loader renders its prompt with ``render(TEMPLATES, ctx, **fields)``: the template of the ``BuildContext`` it was
given (every builder takes one: the tokenizer its samples count in and the template, never ambient state; the
default template unless ``each_prompt`` passes another). ``-T prompts=all`` (or ``-T prompts=reworded,system``) has
the task function wrap its loader in ``each_prompt``: the loader runs once per chosen template, and each sample gets
its template's id in its sample id (``<question>@<template>-<format>``; the default template's ids stay as they
were) and in metadata ``prompt_template``, while ``pair_id`` stays the question, so ``-T questions=N`` keeps every
template and format of each question drawn. A loader path that never calls ``render`` (a fixed published prompt,
such as TOON's suite or HumanEval's) refuses a non-default template rather than run the same prompt under another
name. A loader that lists its samples unbuilt (``coonbench.tasks.subset.Pending``) is wrapped in
``each_prompt_pending`` instead: the same samples, ids and order, but ``-T questions=N`` then renders only the N
questions drawn under each template.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from inspect_ai.dataset import Dataset, MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser

from coonbench.languages import Language
from coonbench.tasks.context import DEFAULT_TEMPLATE, BuildContext
from coonbench.tasks.samples import TaskArgumentError, choose
from coonbench.tasks.subset import Pending, question_group

TEMPLATE_IDS: tuple[str, ...] = (DEFAULT_TEMPLATE, "reworded", "question-first", "system")
"""The template ids every task has, in the order ``-T prompts=all`` runs them."""
TEMPLATE_KEY = "prompt_template"  # sample metadata: the template a sample's prompt was rendered with
LANGUAGE_FIELDS: frozenset[str] = frozenset({"language", "program", "unit", "source_fence"})
"""The words a code task's prompt uses for its language (``prompt_words``): a template may use any of them."""

R = TypeVar("R")


@dataclass(frozen=True)
class PromptTemplate:
    """One wording of a task's prompt: ``user`` (and ``system``, when the instruction goes in a system message) are
    ``str.format`` templates over the same fields as the task's default prompt."""

    id: str
    user: str
    system: str | None = None

    def fields(self) -> set[str]:
        """The names of the fields the template fills."""
        parts = [self.user] + ([self.system] if self.system else [])
        return {name for text in parts for _, name, _, _ in string.Formatter().parse(text) if name}


TemplateSet = Mapping[str, PromptTemplate]


def template_set(*templates: PromptTemplate) -> dict[str, PromptTemplate]:
    """A task's templates by id; ValueError unless they are exactly ``TEMPLATE_IDS``, each filling the same fields
    as the default, the language's words (``LANGUAGE_FIELDS``) aside (checked when the task's module is
    imported)."""
    ids = [t.id for t in templates]
    if sorted(ids) != sorted(TEMPLATE_IDS):
        raise ValueError(f"prompt templates {ids}: expected exactly {list(TEMPLATE_IDS)}")
    out = {t.id: t for t in templates}
    wanted = out[DEFAULT_TEMPLATE].fields() - LANGUAGE_FIELDS
    for t in templates:
        if t.fields() - LANGUAGE_FIELDS != wanted:
            raise ValueError(f"prompt template '{t.id}' fills {sorted(t.fields())}, the default {sorted(wanted)}")
    return out


def prompt_words(language: Language) -> dict[str, str]:
    """The fields a code task's templates name their language by: ``language`` ("Flutter/Dart" code),
    ``program`` (a "Flutter program"), ``unit`` (a "Flutter widget"), ``project`` (a "Flutter project") and
    ``source_fence`` (``dart``)."""
    return {
        "language": language.prompt_name,
        "program": language.program_noun,
        "unit": language.unit_noun,
        "project": language.project_noun or f"{language.label} project",
        "source_fence": language.fence,
    }


@dataclass(frozen=True)
class Rendered:
    """A rendered prompt: the user message and the system message (None when the template has none)."""

    user: str
    system: str | None = None

    @property
    def input(self) -> str | list[ChatMessage]:
        """The Sample input: the user text alone, or a system and a user message."""
        if self.system is None:
            return self.user
        return [ChatMessageSystem(content=self.system), ChatMessageUser(content=self.user)]

    def text(self, before: str | None = None) -> str:
        """Everything the model reads, ``before`` (a primer) first: what ``sample_metadata`` counts."""
        return "\n\n".join(part for part in (before, self.system, self.user) if part)

    def with_system_first(self, text: str | None) -> Rendered:
        """The prompt with ``text`` at the head of its system message (when it has one): for a task whose solver
        adds its own system message only when the input has none."""
        if self.system is None or not text:
            return self
        return replace(self, system=f"{text}\n\n{self.system}")


def render(templates: TemplateSet, ctx: BuildContext, **fields: Any) -> Rendered:
    """``ctx``'s template of ``templates`` filled with ``fields`` (the system part stripped of blank edges)."""
    template = templates[ctx.template_id()]
    ctx.rendered += 1
    system = template.system.format(**fields).strip() if template.system is not None else None
    return Rendered(user=template.user.format(**fields), system=system)


def chosen_templates(prompts: str | Sequence[str] | None) -> list[str] | None:
    """``-T prompts=``: None (not given), ``all``, or template ids; TaskArgumentError naming an unknown one."""
    if prompts is None:
        return None
    if prompts == "all" or (not isinstance(prompts, str) and list(prompts) == ["all"]):
        return list(TEMPLATE_IDS)
    ids = choose("prompts", prompts, [*TEMPLATE_IDS, "all"], "prompt template") or []
    if "all" in ids or not ids:
        raise TaskArgumentError(f"-T prompts={prompts}: give all, or template ids ({', '.join(TEMPLATE_IDS)})")
    return list(dict.fromkeys(ids))


def templated_id(sample_id: str, fmt: str, template: str) -> str:
    """``<question>@<template>-<format>`` (``<id>@<template>`` when the id does not end in its format); the
    default template's id unchanged."""
    if template == DEFAULT_TEMPLATE:
        return sample_id
    suffix = f"-{fmt}"
    if fmt and sample_id.endswith(suffix):
        return f"{sample_id[: -len(suffix)]}@{template}{suffix}"
    return f"{sample_id}@{template}"


def mark(sample: Sample, template: str) -> Sample:
    """The sample tagged with its template: id, metadata ``prompt_template``, and ``pair_id`` (the question)."""
    meta = dict(sample.metadata or {})
    sid = str(sample.id)
    meta.setdefault("pair_id", question_group(sid, meta))
    meta[TEMPLATE_KEY] = template
    return sample.model_copy(update={"id": templated_id(sid, str(meta.get("format", "")), template),
                                     "metadata": meta})


def _samples_of(result: Any) -> list[Sample]:
    if isinstance(result, tuple):
        return _samples_of(result[0])
    return list(result)


def _with_samples(result: Any, samples: list[Sample]) -> Any:
    if isinstance(result, tuple):
        return (_with_samples(result[0], samples), *result[1:])
    if isinstance(result, Dataset):
        return MemoryDataset(samples, name=result.name)
    return samples


def _fixed_prompt(chosen: Sequence[str], template: str) -> TaskArgumentError:
    """The refusal of a non-default template by a loader path that never renders (a fixed published prompt)."""
    return TaskArgumentError(
        f"-T prompts={','.join(chosen)}: this mode of the task asks in a fixed published prompt, which has "
        f"no '{template}' template (leave prompts out, or give prompts={DEFAULT_TEMPLATE})"
    )


def _question(sample: Sample) -> str:
    """A marked sample's question: the ``pair_id`` that ``mark`` sets."""
    return str((sample.metadata or {}).get("pair_id"))


def _merged(chosen: Sequence[str], results: Mapping[str, Any], marked: Callable[[Any, str], Any],
            key: Callable[[Any], str]) -> Any:
    """The first template's result with the samples (or pending samples) of every template's result, each
    ``marked`` with its template, merged question by question (``key``): every template and format of a question
    together, questions in the order they first appear, as ``--limit`` expects."""
    groups: dict[str, list[Any]] = {}
    for template in chosen:
        for item in _samples_of(results[template]):
            tagged = marked(item, template)
            groups.setdefault(key(tagged), []).append(tagged)
    return _with_samples(results[chosen[0]], [item for group in groups.values() for item in group])


def each_prompt(prompts: str | Sequence[str] | None, build: Callable[[BuildContext], R], ctx: BuildContext) -> R:
    """``build(ctx)`` (a loader call: a list of samples, a dataset, or a tuple whose first item is one of
    those) once under each template ``-T prompts=`` chooses (``ctx.under(template)``), its samples marked
    (``mark``) and merged question by question (every template and format of a question together, as ``--limit``
    expects); the rest of the result (skips, names) is the first template's. ``prompts`` None: ``build(ctx)`` as it
    is, unmarked."""
    chosen = chosen_templates(prompts)
    if chosen is None:
        return build(ctx)
    results: dict[str, Any] = {}
    for template in sorted(chosen, key=lambda t: t == DEFAULT_TEMPLATE):  # a refusal comes before any default build
        state = ctx.under(template)
        results[template] = build(state)
        if template != DEFAULT_TEMPLATE and not state.rendered and _samples_of(results[template]):
            raise _fixed_prompt(chosen, template)
    return _merged(chosen, results, mark, _question)  # type: ignore[no-any-return]


def each_prompt_pending(prompts: str | Sequence[str] | None, build: Callable[[BuildContext], R],
                        ctx: BuildContext) -> R:
    """``each_prompt`` for a loader that lists its samples unbuilt (``build(ctx)``: a list of
    ``coonbench.tasks.subset.Pending``, or a tuple whose first item is one): the pending samples of each template
    ``-T prompts=`` chooses, each built under its template (whatever context ``build_subset`` passes, in ``ctx``'s
    tokenizer) and ``mark``ed when it is built, merged question by question as ``each_prompt`` merges; so
    ``build_subset`` of the result draws and builds exactly the samples ``paired_subset`` draws from
    ``each_prompt``'s, and builds only those. The loader lists under the first template, and again under each
    other one only when its listing read the template (generation renders its prompts as it lists): a listing that
    never read it is the same under every template.

    A non-default template whose listing and builds have rendered nothing (a fixed published prompt) is refused
    with ``each_prompt``'s error when its first sample is built: the task builds its drawn samples at once, before
    the run. ``prompts`` None: ``build(ctx)`` as it is, unmarked."""
    chosen = chosen_templates(prompts)
    if chosen is None:
        return build(ctx)
    results: dict[str, Any] = {}
    states: dict[str, BuildContext] = {}
    for template in chosen:
        states[template] = ctx.under(template)
        if template != chosen[0] and not states[chosen[0]].read:
            results[template] = results[chosen[0]]
            continue
        results[template] = build(states[template])

    def marked(pending: Pending, template: str) -> Pending:
        def built(_: BuildContext) -> Sample:
            state = states[template]
            sample = pending.build(state)
            if template != DEFAULT_TEMPLATE and not state.rendered:
                raise _fixed_prompt(chosen, template)
            return mark(sample, template)
        return replace(pending, build=built)

    return _merged(chosen, results, marked, lambda p: p.key)  # type: ignore[no-any-return]
