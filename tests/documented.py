"""The commands the README and ``docs/*.md`` advertise, read from their ```bash blocks.

Conventions (CONTRIBUTING.md): every line of a ```bash block is a command run from the repository root exactly as
written; a line ending in ``# needs an API key`` is run with its models swapped for ``mockllm/model`` (and a
``--limit`` added when it has none); illustrations that are not commands go in ```text blocks.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from coonbench.resources import REPO_ROOT

NEEDS_KEY = "# needs an API key"
SWAP_LIMIT = 2
SHELLS = {"bash", "sh", "shell"}


@dataclass(frozen=True)
class Command:
    """One documented command: where it is written and what it says."""

    doc: str
    line: int
    text: str

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"

    @property
    def needs_key(self) -> bool:
        return self.text.rstrip().endswith(NEEDS_KEY)

    @property
    def installs(self) -> bool:
        """It (re)installs packages: only run where this checkout is the installed one."""
        return "pip install" in self.text

    @property
    def runs_tests(self) -> bool:
        return "python -m pytest" in self.text or self.text.startswith("pytest")

    @property
    def serves(self) -> bool:
        """A server that runs until stopped (``inspect view`` without ``bundle``)."""
        words = self.words()
        return words[:2] == ["inspect", "view"] and "bundle" not in words

    def words(self) -> list[str]:
        try:
            return shlex.split(self.text, comments=True)
        except ValueError:
            return self.text.split()

    def runnable(self) -> str:
        """The shell text to run: as written, or with models swapped when it needs an API key."""
        if not self.needs_key:
            return self.text
        text = self.text.rstrip().removesuffix(NEEDS_KEY).rstrip()
        text = re.sub(r"--model [^\s]+", "--model mockllm/model", text)
        text = re.sub(r"--model-role (\w+)=[^\s]+", r"--model-role \1=mockllm/model", text)
        if "--limit" not in text and text.startswith("inspect eval"):
            text += f" --limit {SWAP_LIMIT}"
        return text


def documents(root: Path = REPO_ROOT) -> list[Path]:
    """The README and every document under docs/."""
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


def commands_in(path: Path, root: Path = REPO_ROOT) -> list[Command]:
    """Every command of the ```bash blocks of ``path`` (continuation lines joined; blanks and comments dropped)."""
    out: list[Command] = []
    in_shell = in_block = False
    pending: list[str] = []
    start = 0
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        stripped = raw.strip()
        if stripped.startswith("```"):
            if in_block:
                in_block = in_shell = False
            else:
                in_block = True
                in_shell = stripped[3:].strip().lower() in SHELLS
            continue
        if not in_shell or (not pending and (not stripped or stripped.startswith("#"))):
            continue
        if not pending:
            start = number
        if stripped.endswith("\\"):
            pending.append(stripped[:-1].strip())
            continue
        pending.append(stripped)
        out.append(Command(str(path.relative_to(root)), start, " ".join(pending)))
        pending = []
    return out


def all_commands(root: Path = REPO_ROOT) -> list[Command]:
    return [cmd for doc in documents(root) for cmd in commands_in(doc, root)]
