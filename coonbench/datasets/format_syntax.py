"""Syntax validity in any code format, the structure task's ``-T formats=``: is this text valid <format>?

For each corpus file of the formats' language (every ``STRIDE``-th file of the built-in corpus, or every file of
a user's directory, ``-T corpus=DIR``), its first ``PER_FILE`` fragments that every format can show and break
(``Language.fragments``: short self-contained pieces, Python's top-level functions; looked for among the first
``MAX_TRIED``, else the first ones, with what each format refused) are shown encoded in each format twice: as they are (YES), and with one closing bracket deleted at a seeded position
(NO). The NO copy is kept only where the format's own validator rejects it (``Format.validate``; a bracket inside
a string literal deletes nothing that matters, so the next position is tried), and its fragment's YES copy only
with it: YES and NO stay balanced one to one, and the label is the validator's, never typed. The samples pair
across formats by fragment and label (``pair_id``), so the task's paired comparisons apply.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial

from inspect_ai.dataset import Sample

from coonbench.datasets.corpus import CorpusSample, load_corpus
from coonbench.datasets.user_corpus import select_corpus
from coonbench.formats import FormatError, format_label, get_format, language_of
from coonbench.tasks.conditions import Condition, Skip, conditions_language, parse_conditions
from coonbench.tasks.context import BuildContext
from coonbench.tasks.prompts import DEFAULT_TEMPLATE, PromptTemplate, render, template_set
from coonbench.tasks.samples import sample_metadata
from coonbench.tasks.subset import Pending

QUESTION_TYPE = "syntax_validity"
STRIDE, PER_FILE, MAX_TRIED = 2, 1, 8
SEED = 20261202
CLOSERS = ")]}"
MAX_SNIPPET_CHARS = 1200
Shown = tuple[Condition, str, str]  # a condition, the fragment in it, and its broken copy

PROMPT = """Is the following text valid {format_label}: would it decode to a syntactically valid {language} program?

```{fence}
{code}
```

Answer YES or NO.
Reply with the answer only, on one line, with no explanation."""
# Equivalent wordings of PROMPT (``-T prompts=``; ``coonbench.tasks.prompts``): same fields, same content.
TEMPLATES = template_set(
    PromptTemplate(DEFAULT_TEMPLATE, PROMPT),
    PromptTemplate("reworded", """Here is a text meant to be {format_label}.

```{fence}
{code}
```

Is it valid, that is, would it decode to a syntactically valid {language} program? Answer YES or NO.
Give only the answer, on a single line, without explaining it."""),
    PromptTemplate("question-first", """Answer YES or NO: is the text at the end of this message valid {format_label}, \
decoding to a syntactically valid {language} program?
Reply with the answer only, on one line, with no explanation.

```{fence}
{code}
```"""),
    PromptTemplate("system", system="""You check whether texts are valid {format_label}: whether they would decode to \
a syntactically valid {language} program. Answer YES or NO.
Reply with the answer only, on one line, with no explanation.""", user="""```{fence}
{code}
```"""),
)


def corrupted(text: str, fmt_name: str, key: str, seed: int = SEED) -> str | None:
    """``text`` with one closing bracket deleted, at the first seeded position the format's validator rejects;
    None when no deletion makes it invalid."""
    fmt = get_format(fmt_name)
    spots = [i for i, ch in enumerate(text) if ch in CLOSERS]
    random.Random(f"{seed}:{key}:{fmt_name}").shuffle(spots)
    for i in spots:
        broken = text[:i] + text[i + 1:]
        if fmt.validate(broken):
            return broken
    return None


def _sample(key: str, band: str, label: str, cond: Condition, code: str, ctx: BuildContext) -> Sample:
    fmt = cond.fmt
    prompt = render(TEMPLATES, ctx, format_label=format_label(cond.format, prompt=True),
                    language=language_of(fmt).label, fence=fmt.fence, code=code.strip("\n"))
    pair = f"structure-{QUESTION_TYPE}-{key}-{'valid' if label == 'YES' else 'broken'}"
    return Sample(
        id=f"{pair}-{cond.label}",
        input=prompt.input,
        target=label,
        metadata=sample_metadata(
            format=cond.label, category="structure", question_type=QUESTION_TYPE, complexity=band,
            input_text=prompt.text(None), tokenizer=ctx.tokenizer, encoding=cond.format, primer=cond.shows_primer,
            primer_variant=cond.variant() or "short", answer_type="boolean", pair_id=pair,
        ),
    )


def format_syntax_pending(
    formats: str | Sequence[str], corpus: str | None = None, seed: int = SEED
) -> tuple[list[Pending], list[Skip]]:
    """The samples of every fragment in every format condition (a valid and a broken copy), and the fragments a
    format could not show or break; ``corpus``: a directory of the language's files instead of the built-in one."""
    conditions = parse_conditions(formats, ())
    language = conditions_language(conditions)
    files: list[CorpusSample]
    skips: list[Skip]
    if corpus:
        files, skips = select_corpus(corpus, None, language)
    else:
        files, skips = load_corpus(language=language)[::STRIDE], []
    pending: list[Pending] = []
    for sample in files:
        whole: list[tuple[int, str, list[Shown], list[Skip]]] = []
        incomplete: list[tuple[int, str, list[Shown], list[Skip]]] = []
        for k, fragment in enumerate(language.fragments(sample.source)[:MAX_TRIED]):
            key = f"{sample.id}-f{k}"
            shown, refused = _shown(fragment, key, conditions, seed)
            (incomplete if refused else whole).append((k, key, shown, refused))
            if len(whole) == PER_FILE:
                break
        # fragments every format shows first (the comparison is paired), then the others; in file order
        for _, key, shown, refused in sorted((whole + incomplete)[:PER_FILE]):
            skips.extend(refused)
            for cond, code, broken in shown:
                for label, text in (("YES", code), ("NO", broken)):
                    pair = f"{key}-{label}"
                    pending.append(Pending(pair, (sample.band, QUESTION_TYPE), cond.label,
                                           partial(_sample, key, sample.band, label, cond, text)))
    return pending, skips


def _shown(fragment: str, key: str, conditions: list[Condition], seed: int) -> tuple[list[Shown], list[Skip]]:
    """The fragment in each condition that can show it (its text and its broken copy), and the conditions that
    cannot, with why."""
    shown: list[Shown] = []
    refused: list[Skip] = []
    for cond in conditions:
        try:
            code = cond.fmt.encode(fragment)
        except FormatError as err:
            refused.append(Skip(key, cond.label, f"encoder refused the fragment: {err}"))
            continue
        broken = corrupted(code, cond.format, key, seed) if len(code) <= MAX_SNIPPET_CHARS else None
        if broken is None:
            refused.append(Skip(key, cond.label, "no deleted bracket makes it invalid, or it is too long"))
            continue
        shown.append((cond, code, broken))
    return shown, refused
