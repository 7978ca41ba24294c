"""Edit sessions: one file edited in several turns of one conversation (``-T turns=N`` of modification).

A ``Session`` is a start program and N (instruction, program after it) turns; the state after turn t is the
cumulative gold of turn t. ``session_sample`` shows the start program in a format condition with the first
instruction; each later turn is a user message (``metadata["turns"][t]["prompt"]``) asking for the next edit of
the model's own previous reply, or, when that reply could not be read, ``resume_prompt`` showing the gold state to
go on from. A single-turn session is a plain modification sample (``reference``, ``gold``, checked by AST).

``synthetic_sessions`` chains the synthetic modification edits (add-widget, change-property, remove-widget) on a
corpus file: turn t's edit is computed on the program turn t−1 left, by the same makers as single edits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from inspect_ai.dataset import Sample

from coonbench.datasets.corpus import CorpusSample
from coonbench.datasets.generation import fenced
from coonbench.datasets.modification import MODIFICATION_PROMPT, edit_kinds
from coonbench.formats import format_label, language_of
from coonbench.languages import Language, LanguageSyntaxError
from coonbench.tasks.context import BuildContext
from coonbench.tasks.prompts import prompt_words
from coonbench.datasets.user_corpus import select_corpus
from coonbench.tasks.conditions import Condition, Skip, conditions_language, encoded, parse_conditions, refusal
from coonbench.tasks.samples import TaskArgumentError, sample_metadata, split_param
from coonbench.tasks.subset import Pending
from coonbench.tokens import count_tokens

TURN_PROMPT = """Next task, on the program as you last wrote it: {instruction}

Reply with the complete modified program in {format_name}, in one ```{fence} code block. Change nothing else."""

RESUME_PROMPT = """Your last reply could not be read as a {format_label} program. Go on from this version of the \
program instead:

```{fence}
{code}
```

Next task: {instruction}

Reply with the complete modified program in {format_name}, in one ```{fence} code block. Change nothing else."""

CHAIN_KINDS: tuple[str, ...] = ("add-widget", "change-property", "remove-widget")
"""Synthetic kinds whose edit applies to the program as it stands (refactor is checked by requirements, fix-bug
plants its own bug first): the kinds a session chains."""


@dataclass(frozen=True)
class Session:
    """A start program and its turns: (instruction, Dart after the turn)."""

    pair_id: str
    question_type: str
    complexity: str
    cluster: str  # the source item several sessions may share (``sample_id`` in metadata)
    start: str
    turns: list[tuple[str, str]]
    normalise: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


def session_refusal(session: Session, cond: Condition) -> str | None:
    """Why the condition's format cannot carry one of the session's programs (None when it can)."""
    for i, program in enumerate([session.start] + [after for _, after in session.turns]):
        reason = refusal(cond.format, program, need_roundtrip=True)
        if reason is not None:
            return reason if i == 0 else f"{reason} (the program after turn {i})"
    return None


def session_sample(session: Session, cond: Condition, template: str, fields: dict[str, str],
                   primer_variant: str, ctx: BuildContext) -> Sample:
    """The session in one condition, counted in ``ctx``'s tokenizer; ``template`` is the first turn's prompt
    (``format_label``, ``format_name``, ``fence``, ``code``, ``instruction``, the language's words
    (``prompt_words``) and ``fields`` filled in)."""
    fmt = cond.fmt
    shown, primer = cond.show(session.start, primer_variant, economise_in=None)
    label = format_label(cond.format, prompt=True)
    names = {"format_label": label, "format_name": "COON" if cond.format == "coon" else label, "fence": fmt.fence}
    prompt = template.format(**prompt_words(language_of(fmt)), **names, **fields, code=shown.strip("\n"),
                             instruction=session.turns[0][0])
    final = session.turns[-1][1]
    target = encoded(fmt, final)  # every program of the session was encoded by session_refusal: reused
    gold = fenced(target, fmt.fence)
    meta: dict[str, Any] = {}
    if len(session.turns) > 1:
        meta["turns"] = _turns(session, cond, names)
    return Sample(
        id=f"{session.pair_id}-{cond.label}",
        input=prompt,
        target=target,
        metadata=sample_metadata(
            format=cond.label, category="modification", question_type=session.question_type,
            complexity=session.complexity, input_text=f"{primer}\n\n{prompt}" if primer else prompt,
            tokenizer=ctx.tokenizer, gold=gold, **cond.metadata(primer_variant, primer, tokenizer=ctx.tokenizer),
            answer_format=cond.format, pair_id=session.pair_id,
            gold_output_tokens=count_tokens(gold, ctx.tokenizer), sample_id=session.cluster, check="ast",
            reference=final, start=fenced(encoded(fmt, session.start), fmt.fence), before=session.start,
            normalise=session.normalise, **meta, **session.extra,
        ),
    )


def _turns(session: Session, cond: Condition, names: dict[str, str]) -> list[dict[str, Any]]:
    fmt = cond.fmt
    out: list[dict[str, Any]] = []
    previous = session.start
    for t, (instruction, after) in enumerate(session.turns):
        code = encoded(fmt, previous).strip("\n")
        out.append({
            "turn": t + 1, "instruction": instruction, "before": previous, "reference": after,
            "gold": fenced(encoded(fmt, after), fmt.fence),
            "prompt": TURN_PROMPT.format(**names, instruction=instruction) if t else "",
            "resume_prompt": RESUME_PROMPT.format(**names, code=code, instruction=instruction) if t else "",
        })
        previous = after
    return out


def session_pending(sessions: Sequence[Session], conditions: Sequence[Condition], template: str,
                    fields: dict[str, dict[str, str]] | None = None, primer_variant: str = "short",
                    ) -> tuple[list[Pending], list[Skip]]:
    """Every session in every condition (session-major), not built yet (``coonbench.tasks.subset.Pending``:
    ``-T questions=N`` renders only the sessions drawn), and the pairs left out with the reason. Every program of
    every session is checked in every condition here, since the draw keeps only sessions every condition can show."""
    pending: list[Pending] = []
    skips: list[Skip] = []
    for session in sessions:
        for cond in conditions:
            reason = session_refusal(session, cond)
            if reason is None:  # pair_id, complexity, question_type and format, as session_sample writes them
                extra = (fields or {}).get(session.pair_id, {})
                build = partial(session_sample, session, cond, template, extra, primer_variant)
                pending.append(Pending(session.pair_id, (session.complexity, session.question_type), cond.label, build))
            else:
                skips.append(Skip(session.pair_id, cond.label, reason))
    return pending, skips


def _same(language: Language, a: str, b: str) -> bool:
    try:
        return language.ast_equivalent(language.normalise_program(a), language.normalise_program(b))
    except LanguageSyntaxError:
        return False


def synthetic_session(sample: CorpusSample, turns: int, kinds: Sequence[str], language: Language) -> Session | None:
    """``turns`` chained synthetic edits of one corpus file (kinds in rotation, the first that applies), or None
    when the file offers fewer, or a turn would bring back the start program."""
    source = sample.source
    steps: list[tuple[str, str]] = []
    used: list[str] = []
    for t in range(turns):
        made = None
        for k in range(len(kinds)):
            kind = kinds[(t + k) % len(kinds)]
            edits = language.make_edits(f"{sample.id}~turn{t + 1}", source, [kind])
            result = edits[0] if edits else None
            if result is not None and not _same(language, result.after, source) and not _same(
                language, result.after, sample.source
            ):
                made = (kind, result.instruction, result.after)
                break
        if made is None:
            return None
        used.append(made[0])
        steps.append((made[1], made[2]))
        source = made[2]
    return Session(pair_id=f"modification-{sample.id}-turns{turns}", question_type=">".join(used),
                   complexity=sample.band, cluster=sample.id, start=sample.source, turns=steps, normalise=True)


def modification_session_pending(
    kinds: str | Sequence[str] | None, bands: str | Sequence[str] | None, conditions: str | Sequence[str],
    corpus: str | None, turns: int, primer_variant: str = "short",
) -> tuple[list[Pending], list[Skip]]:
    """Synthetic ``turns``-turn sessions of every corpus file that offers them, in every condition, not built yet
    (``session_pending``). The sessions themselves are made here: which files offer ``turns`` chained edits, and
    the kinds they chain (a session's question type), are what the draw reads."""
    shown_in = parse_conditions(conditions, ("coon",), need_decode=True, param="input_format")
    language = conditions_language(shown_in)
    chosen = edit_kinds(kinds, language) if kinds else list(CHAIN_KINDS)
    wanted = [k for k in chosen if k in CHAIN_KINDS]
    if not wanted:
        raise TaskArgumentError(f"-T turns={turns}: sessions chain the kinds {', '.join(CHAIN_KINDS)}; "
                                f"-T kinds names none of them")
    files, skips = select_corpus(corpus, split_param(bands), language)
    sessions = [s for f in files if (s := synthetic_session(f, turns, wanted, language)) is not None]
    pending, more = session_pending(sessions, shown_in, MODIFICATION_PROMPT, primer_variant=primer_variant)
    return pending, skips + more
