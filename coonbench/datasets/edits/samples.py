"""Modification samples made of mined edits (``-T source=edits``): the real file before a commit, the commit's
instruction, and the real file after it as the reference (AST-equivalent, exact; no normalisation).

``-T edits=DIR`` reads a folder ``coonbench mine-edits`` wrote instead of the shipped set (``data/edits``);
``-T after=DATE`` keeps edits committed after DATE. With ``-T turns=N`` a session is N consecutive commits of one
file, chained by ``previous`` (each commit's "before" is the previous one's "after", up to formatting and comments:
``mine.follows``): every chain gives its
non-overlapping runs of N from its oldest edit on; a run in which a state equals the start program is left out (a
model that changes nothing would be right there).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from coonbench.datasets.edits.mine import lines_changed
from coonbench.datasets.edits.store import MinedEdit, read_edits
from coonbench.datasets.sessions import Session, session_pending
from coonbench.languages import Language, LanguageSyntaxError, default_language, language_for_file
from coonbench.resources import DATA_DIR
from coonbench.tasks.conditions import Skip, conditions_language, parse_conditions
from coonbench.tasks.samples import TaskArgumentError
from coonbench.tasks.subset import Pending

EDIT_PROMPT = """Here is the file `{path}` of a {project}, in {format_label}.

```{fence}
{code}
```

Task: {instruction}

Reply with the complete modified file in {format_name}, in one ```{fence} code block. Change nothing else."""

SHIPPED_EDITS = DATA_DIR / "edits"
SIZE_BANDS: tuple[tuple[int, str], ...] = ((3, "1-3 lines"), (10, "4-10 lines"))
LARGEST_BAND = "11+ lines"
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def check_modification_source(source: str, edits: str | None, after: str | None, turns: int, judge: str,
                              prompts: object) -> None:
    """The modification task's source arguments, checked before anything is built (TaskArgumentError, one line)."""
    if source not in ("synthetic", "edits") or turns < 1 or (turns > 1 and judge != "none") or (
            source != "edits" and (edits or after)):
        raise TaskArgumentError("-T source is synthetic or edits (-T edits/after need source=edits); -T turns is 1 "
                                "or more, without -T judge")
    if prompts is not None and (source == "edits" or turns > 1):
        raise TaskArgumentError("-T prompts applies to single-turn synthetic edits (source=synthetic, turns=1)")


def size_band(changed: int) -> str:
    return next((name for most, name in SIZE_BANDS if changed <= most), LARGEST_BAND)


def load_mined(edits: str | None = None, after: str | None = None) -> list[MinedEdit]:
    """The shipped edits (or a mined folder), committed after ``after`` (YYYY-MM-DD) when given."""
    found = read_edits(edits if edits else SHIPPED_EDITS)
    if after is None:
        return found
    if not _DATE.fullmatch(str(after)):
        raise TaskArgumentError(f"-T after={after}: expected a date YYYY-MM-DD")
    return [e for e in found if e.date[:10] > str(after)]


def _extra(run: Sequence[MinedEdit]) -> dict[str, object]:
    first = run[0]
    return {"repo": first.repo, "path": first.path, "commit": first.commit if len(run) == 1 else [e.commit for e in run],
            "date": run[-1].date, "licence": first.licence, "instruction_source": [e.instruction_source for e in run]
            if len(run) > 1 else first.instruction_source, "source": "edits"}


def edit_session(run: Sequence[MinedEdit]) -> Session:
    """A session of consecutive edits of one file (one edit: a single-turn sample)."""
    first = run[0]
    suffix = f"-turns{len(run)}" if len(run) > 1 else ""
    changed = sum(lines_changed(e.before, e.after) for e in run)
    kind = first.instruction_source if len(run) == 1 else f"{len(run)} commits"
    return Session(pair_id=f"edits-{first.id}{suffix}", question_type=kind, complexity=size_band(changed),
                   cluster=f"{first.repo}:{first.path}", start=first.before,
                   turns=[(e.instruction, e.after) for e in run], normalise=False, extra=_extra(run))


def chains(edits: Sequence[MinedEdit]) -> list[list[MinedEdit]]:
    """The edits as chains of consecutive commits of one file (oldest first), by ``previous``."""
    by_id = {e.id: e for e in edits}
    following: dict[str, MinedEdit] = {e.previous: e for e in edits if e.previous in by_id}  # type: ignore[misc]
    out = []
    for e in edits:
        if e.previous in by_id:
            continue
        chain = [e]
        while chain[-1].id in following and len(chain) <= len(edits):
            chain.append(following[chain[-1].id])
        out.append(chain)
    return out


def _returns_to_start(run: Sequence[MinedEdit], language: Language) -> bool:
    try:
        return any(language.ast_equivalent(run[0].before, e.after) for e in run)
    except LanguageSyntaxError:
        return True


def mined_sessions(edits: Sequence[MinedEdit], turns: int, language: Language | None = None) -> list[Session]:
    """Single edits (``turns`` 1) or the non-overlapping runs of ``turns`` consecutive edits of each chain (in
    ``language``, the default code language's by default: a run that returns to its start is left out)."""
    language = language or default_language()
    if turns <= 1:
        return [edit_session([e]) for e in edits]
    out = []
    for chain in chains(edits):
        for start in range(0, len(chain) - turns + 1, turns):
            run = chain[start : start + turns]
            if not _returns_to_start(run, language):
                out.append(edit_session(run))
    return out


def edit_pending(
    edits: str | None, after: str | None, conditions: str | Sequence[str], turns: int = 1,
    primer_variant: str = "short",
) -> tuple[list[Pending], list[Skip]]:
    """Mined-edit samples (sessions of ``turns`` commits) in every condition, not built yet (``session_pending``:
    ``-T questions=N`` renders only the sessions drawn), and what was left out. The sessions are read and made
    here: a session's size band (lines changed) is what the draw balances over."""
    chosen = parse_conditions(conditions, ("coon",), need_decode=True, param="input_format")
    language = conditions_language(chosen)
    mined = [e for e in load_mined(edits, after) if language_for_file(e.path) in (None, language)]  # its files
    sessions = mined_sessions(mined, turns, language)
    paths = {s.pair_id: {"path": str(s.extra.get("path", ""))} for s in sessions}
    return session_pending(sessions, chosen, EDIT_PROMPT, paths, primer_variant)
