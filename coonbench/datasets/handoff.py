"""Code handed between agents: agent A reads a Dart program and passes it on in a told format; agent B sees only
A's message and answers a comprehension question about the program or makes an edit to it.

The questions are the comprehension task's (``data/comprehension/questions.v1.jsonl``, answers computed from the
Dart ASTs) and the edits the modification task's (``coonbench.datasets.modification``, expected programs computed
by code): each base sample is built by those tasks' own loaders in plain Dart, then given A's prompt. B's reply is
scored exactly as there (B answers edits in Dart, so every condition is scored against one reference).

Conditions (``-T formats=``): any lossless registered code format, ``NAME`` with its primer (A and B both get the
format's primer: A to write it, B to read it) or ``NAME:noprimer``, and ``free`` (A chooses how to pass the code on;
no primer). A is told what kind of task B will do, never the question: the code must cross, not the answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from inspect_ai.dataset import Sample

from coonbench.datasets.comprehension import answer_rule, builtin_questions, question_sample
from coonbench.datasets.generation import fenced
from coonbench.datasets.modification import build_modification_tasks, modification_sample
from coonbench.formats import format_label, language_of
from coonbench.languages import Language, default_language, get_language
from coonbench.tasks.conditions import Condition, Skip, conditions_language, parse_conditions, refusal
from coonbench.tasks.context import BuildContext
from coonbench.tasks.prompts import prompt_words
from coonbench.tasks.samples import TaskArgumentError, choose, sample_metadata
from coonbench.tasks.subset import balanced_draw, check_questions

CATEGORY = "handoff"
FREE = "free"
MODES = ("comprehension", "modification")
DEFAULT_FORMATS = "coon,dart-minified,dart,free"
def free_gold_format(language: Language) -> str:
    """What the gold agent A hands over when the choice is free (any lossless format would do): the language's
    first plain format other than its source (Dart: ``dart-minified``), else the source format."""
    others = sorted(language.plain_formats - {language.source_format})
    return others[0] if others else language.source_format


MESSAGE_KEY = "handoff_message"
"""Metadata key: the message a perfect agent A sends (the gold solver records it as A's message)."""

A_PROMPT = """Here is a {language} program.

```{source_fence}
{code}
```

Another agent will receive only your message, not this program, and will then have to {purpose}. \
Pass the program on {how}."""
A_PURPOSES = {
    "comprehension": "answer a question about the program",
    "modification": "edit the program and reply with the whole edited program in {label}",
}
A_HOW_TOLD = "written in {label}, complete and exact, in one ```{fence} code block, with nothing else in your message"
A_HOW_FREE = ("in whatever form you judge best: shorter is cheaper, but the other agent must be able to use it "
              "(it knows only what your message says)")
B_PROMPT = """Another agent read a {language} program and sent you this message about it (you cannot see the \
program itself):

<message>
{message}
</message>

{task}"""
B_TASKS = {
    "comprehension": "Question: {question}\n\n{rules}\nReply with the answer only, on one line, with no explanation.",
    "modification": "Task: {instruction}\n\nReply with the complete modified program in {label}, in one "
                    "```{source_fence} code block. Change nothing else.",
}


def handoff_conditions(formats: str | Sequence[str] | None) -> list[Condition | None]:
    """``-T formats=`` as code-format conditions (lossless: A's message is decoded), ``None`` standing for free."""
    entries = [e.strip() for e in (formats.split(",") if isinstance(formats, str) else formats or [])] or \
        DEFAULT_FORMATS.split(",")
    told = [e for e in entries if e and e != FREE]
    out: list[Condition | None] = list(parse_conditions(told, (), need_decode=True)) if told else []
    if FREE in entries:
        out.append(None)
    if not out:
        raise TaskArgumentError(f"-T formats={formats}: no format given")
    return out


def _label(cond: Condition | None) -> str:
    return FREE if cond is None else cond.label


def _a_prompt(source: str, mode: str, cond: Condition | None, language: Language) -> str:
    if cond is None:
        how = A_HOW_FREE
    else:
        label = format_label(cond.format, f"{cond.format} ({cond.fmt.description})", prompt=True)
        how = A_HOW_TOLD.format(label=label, fence=cond.fmt.fence)
    purpose = A_PURPOSES[mode].format(label=language.label)
    return A_PROMPT.format(**prompt_words(language), code=source.strip("\n"), purpose=purpose, how=how)


def gold_message(source: str, cond: Condition | None, language: Language | None = None) -> str:
    """What a perfect agent A sends: the program encoded in the told format (free: ``free_gold_format``), fenced."""
    from coonbench.formats import get_format

    language = language or default_language()
    fmt = get_format(free_gold_format(language) if cond is None else cond.format)
    return fenced(fmt.encode(source), fmt.fence)


def _handoff_sample(base: Sample, source: str, mode: str, cond: Condition | None, b_task: str,
                    question_type: str, complexity: str, language: Language, ctx: BuildContext) -> Sample:
    """A base sample (built in the plain source format by its own task's loader) turned into a handoff sample,
    counted in ``ctx``'s tokenizer."""
    prompt = _a_prompt(source, mode, cond, language)
    primer = cond.primer_text() if cond is not None else None
    label = _label(cond)
    meta = dict(base.metadata or {})
    for key in ("format", "category", "question_type", "complexity", "input_tokens", "input_tokens_o200k",
                "tokenizer", "encoding", "primer", "primer_variant", "primer_tokens", "lossless", "legend"):
        meta.pop(key, None)
    gold_b = meta.pop("gold", None) or str(base.target)
    pair = f"{mode}-{meta.pop('pair_id', base.id)}"
    meta = sample_metadata(
        format=label, category=CATEGORY, question_type=question_type, complexity=complexity,
        input_text=f"{primer}\n\n{prompt}" if primer else prompt, tokenizer=ctx.tokenizer, gold=gold_b, **meta,
        mode=mode, handoff_format=None if cond is None else cond.format, handoff_primer=primer,
        b_task=b_task, source=source, pair_id=pair,
        **{MESSAGE_KEY: gold_message(source, cond, language)},
    )
    return Sample(id=f"{CATEGORY}-{pair}-{label}", input=prompt,
                  target=base.target, metadata=meta)


@lru_cache(maxsize=4)
def _base_items(modes: tuple[str, ...], language_name: str) -> tuple[tuple[str, str, str, str, Any], ...]:
    """(mode, id, band, question type, item) of every base question or edit of the chosen modes over the
    language's built-in corpus (no sample is built yet; cached: deriving the edits parses the whole corpus)."""
    language = get_language(language_name)
    items: list[tuple[str, str, str, str, Any]] = []
    if "comprehension" in modes:
        files, questions = builtin_questions(language)
        corpus = {s.id: s for s in files}
        items += [("comprehension", q.id, corpus[q.sample_id].band, q.question_type, (q, corpus[q.sample_id]))
                  for q in questions]
    if "modification" in modes:
        items += [("modification", t.id, t.band, t.kind, t) for t in build_modification_tasks(language=language)]
    return tuple(items)


def _base(mode: str, item: Any, language: Language, ctx: BuildContext) -> tuple[Sample, str, str]:
    """(the base sample in the plain source format, the program A reads, B's task) of one question or edit."""
    words = {**prompt_words(language), "label": language.label}
    if mode == "comprehension":
        q, source = item
        rules = answer_rule(q.answer_type, language)
        return question_sample(q, language.source_format, source, "short", ctx), source.source, B_TASKS[mode].format(
            **words, question=q.question, rules=rules)
    return (modification_sample(item, language.source_format, "short", ctx), item.before,
            B_TASKS[mode].format(**words, instruction=item.instruction))


def handoff_samples(
    formats: str | Sequence[str] | None = DEFAULT_FORMATS, modes: str | Sequence[str] | None = "comprehension",
    questions: int | None = None, seed: int = 0, ctx: BuildContext | None = None,
) -> tuple[list[Sample], list[Skip]]:
    """Every base question (or edit) of the chosen ``modes`` in every condition, built for ``ctx`` (the default
    context when None), and the skips (a format that
    cannot carry a program exactly is skipped for it, with its reason). ``questions`` draws that many base items
    first (seeded, balanced over band and question type: ``coonbench.tasks.subset``), so a small run builds only
    what it runs."""
    conditions = handoff_conditions(formats)
    told = [c for c in conditions if c is not None]
    language = conditions_language(told) if told else default_language()
    chosen = choose("modes", modes, MODES, "mode") or ["comprehension"]
    items = list(_base_items(tuple(chosen), language.name))
    if questions is not None and check_questions(questions) < len(items):
        keep = set(balanced_draw({f"{m}-{i}": (band, kind) for m, i, band, kind, _ in items}, questions, seed))
        items = [item for item in items if f"{item[0]}-{item[1]}" in keep]
    ctx = ctx if ctx is not None else BuildContext()
    samples: list[Sample] = []
    skips: list[Skip] = []
    for mode, item_id, band, kind, item in items:
        base, source, b_task = _base(mode, item, language, ctx)
        for cond in conditions:
            reason = None if cond is None else refusal(cond.format, source, need_roundtrip=True)
            if reason is not None:
                skips.append(Skip(item_id, _label(cond), reason))
                continue
            samples.append(_handoff_sample(base, source, mode, cond, b_task, kind, band, language, ctx))
    return samples, skips


def b_prompt(metadata: dict[str, Any], message: str) -> str:
    """Agent B's prompt: A's message and B's task (about a program of the told format's language, else the default
    language's)."""
    told = metadata.get("handoff_format")
    language = language_of(str(told)) if told else default_language()
    return B_PROMPT.format(**prompt_words(language), message=message.strip(), task=metadata["b_task"])
