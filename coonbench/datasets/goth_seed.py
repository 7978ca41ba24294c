"""The Goth seed's own prompts, read from the user's Goth checkout at run time.

Why at run time: the seed's text (``benchmark/prompts/goth_syntax.md`` and ``goth_json.md`` of ``sigilante/goth``)
is third-party and stays out of this repository. The checkout is the one ``coonbench goth-setup`` built the
interpreter from (it records the path in ``$COONBENCH_CACHE/goth/source``), or ``-T goth_checkout=PATH``, else the
reference copy goth-setup builds from by default (``../shared/reference/goth``). A path may be a checkout's root,
its ``crates/``, or the reference copy's ``upstream/crates``: the prompts are looked for there and in the two
folders above. The seed's prompt is its "System Prompt" section as the system message and its "User Prompt
Template" section filled with the function's spec; we add one sentence (``ENTRY_NOTE``), because the seed's
syntax prompt never says which function the interpreter runs and its blind-test protocol shows it only through
the documents it hands over (CLAUDE-SKILLS.md and an example program, both with ``main``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from coonbench.execution.goth_build import default_source, recorded_source
from coonbench.tasks.prompts import Rendered
from coonbench.tasks.samples import TaskArgumentError

PROMPT_FILES = {"goth": "benchmark/prompts/goth_syntax.md", "goth-json": "benchmark/prompts/goth_json.md"}
"""The seed's prompt for each Goth target, relative to the checkout."""
SYSTEM_HEADING = "## System Prompt"
USER_HEADING = "## User Prompt Template"
FIELDS = ("function_name", "signature", "description", "examples")
"""The placeholders of the seed's user template (filled by plain replacement: the seed's text may hold braces)."""
ENTRY_NOTE = "The program's entry point is `main`: it takes the function's arguments in order and returns its result."
"""Ours, appended to the seed's user prompt: the interpreter runs ``main`` (upstream's runner does the same)."""
PROMPT_CHOICES = ("seed", "coonbench")
"""``-T goth_prompt``: the seed's prompts (default) or ours (``coonbench.execution.goth.GOTH_PRIMER``)."""


class SeedMissing(TaskArgumentError):
    """The seed's files are not where the task looked: the message says where and what to pass."""


class SeedFileError(ValueError):
    """A seed file without a section or field the task needs: names the file, line and field."""


@dataclass(frozen=True)
class Checkout:
    """A Goth checkout: ``root`` holds ``benchmark/`` and ``docs/``; ``upstream`` holds ``examples/`` (the root
    itself in a checkout, ``upstream/`` in the reference copy)."""

    root: Path
    upstream: Path


def find_checkout(given: str | Path | None = None) -> Checkout:
    """The checkout to read the seed from: ``given``, else goth-setup's record, else the reference copy."""
    if given:
        start, how = Path(given), "-T goth_checkout"
    elif recorded_source() is not None:
        start, how = recorded_source(), "the checkout coonbench goth-setup recorded"  # type: ignore[assignment]
    else:
        start, how = default_source(), "the reference copy goth-setup builds from"
    start = start.resolve()
    for folder in (start, start.parent, start.parent.parent):
        if (folder / PROMPT_FILES["goth"]).is_file() and (folder / PROMPT_FILES["goth-json"]).is_file():
            upstream = folder if (folder / "examples").is_dir() else folder / "upstream"
            return Checkout(folder, upstream)
    raise SeedMissing(
        f"the Goth targets ask with the seed's own prompts ({', '.join(PROMPT_FILES.values())} of a Goth "
        f"checkout), read at run time: none in {start} or the two folders above it ({how}). Pass "
        "-T goth_checkout=PATH (your Goth checkout, or ../shared/reference/goth), or -T goth_prompt=coonbench "
        "for our own prompt")


@dataclass(frozen=True)
class SeedPrompt:
    """The seed's prompt for one target: its system text and its user template, with where they came from."""

    file: str
    path: Path
    system: str
    user: str
    sha256: str

    def render(self, function_name: str, signature: str, description: str, examples: str) -> Rendered:
        """The user message (the template filled, then ``ENTRY_NOTE``); the system text goes in metadata, which
        the correction solver makes the system message."""
        text = self.user
        for name, value in zip(FIELDS, (function_name, signature, description, examples)):
            text = text.replace("{" + name + "}", value)
        return Rendered(user=f"{text}\n\n{ENTRY_NOTE}")

    def metadata(self, checkout: Checkout) -> dict[str, Any]:
        """What a sample records about its prompt."""
        return {"prompt_source": "seed", "seed_prompt": self.file, "seed_prompt_sha256": self.sha256,
                "goth_checkout": str(checkout.root)}


def _section(path: Path, lines: list[str], heading: str) -> str:
    """The text under ``heading`` up to the next ``---`` rule or ``## `` heading, blank edges stripped."""
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == heading)
    except StopIteration:
        raise SeedFileError(f"{path}: line {len(lines)}: field '{heading}': no such section") from None
    body: list[str] = []
    for line in lines[start + 1:]:
        if line.strip() == "---" or line.startswith("## "):
            break
        body.append(line)
    text = "\n".join(body).strip()
    if not text:
        raise SeedFileError(f"{path}: line {start + 1}: field '{heading}': the section is empty")
    return text


@lru_cache(maxsize=8)
def _read(path: Path, file: str) -> SeedPrompt:
    raw = path.read_bytes()
    lines = raw.decode("utf-8", errors="replace").splitlines()
    system, user = _section(path, lines, SYSTEM_HEADING), _section(path, lines, USER_HEADING)
    missing = [name for name in FIELDS if "{" + name + "}" not in user]
    if missing:
        line = next(i for i, ln in enumerate(lines) if ln.strip() == USER_HEADING) + 1
        raise SeedFileError(f"{path}: line {line}: field '{missing[0]}': the user template lacks {{{missing[0]}}}")
    return SeedPrompt(file, path, system, user, hashlib.sha256(raw).hexdigest())


def seed_prompt(checkout: Checkout, target: str) -> SeedPrompt:
    """The seed's prompt for ``target`` (``goth`` or ``goth-json``) in ``checkout``."""
    file = PROMPT_FILES[target]
    return _read(checkout.root / file, file)


def seed_value(value: Any) -> str:
    """A value as the seed's examples write it (``⊤``/``⊥``, numbers and text as JSON)."""
    if isinstance(value, bool):
        return "⊤" if value else "⊥"
    return json.dumps(value, ensure_ascii=False)


def seed_examples(name: str, cases: list[Any]) -> str:
    """Test cases as the seed's example lines: ``  name(a, b) = v`` (an expected error as ``-> error``)."""
    lines = []
    for case in cases:
        call = f"{name}({', '.join(seed_value(a) for a in case.input)})"
        lines.append(f"  {call} -> error (invalid input)" if case.expected_error else
                     f"  {call} = {seed_value(case.expected)}")
    return "\n".join(lines)
