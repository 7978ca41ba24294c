"""Files of generated tests (correction's hidden tests, HumanEval's amplified ones): one format, one reader.

Why a module of its own: the loaders read these files and the generators write them; neither imports the other.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def render_tests(problem_id: str, generator: str, tests: list[dict[str, Any]]) -> str:
    """A generated-tests file (correction's hidden tests, HumanEval's amplified ones): a header line naming the
    problem and its generator, then one test per line."""
    head = json.dumps({"problem": problem_id, "generator": generator}, ensure_ascii=False)
    body = ",\n".join("  " + json.dumps(t, ensure_ascii=False, sort_keys=True) for t in tests)
    return f'{head[:-1]}, "tests": [\n{body}\n]}}\n'


def read_tests(path: Path, problem_id: str, error: type[Exception], generator: str) -> list[Any]:
    """The test list of a generated-tests file; a missing or malformed file raises ``error`` naming it and the line."""
    if not path.exists():
        raise error(f"{path}: missing hidden tests of problem '{problem_id}' (run: python -m {generator})")
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise error(f"{path}: line {getattr(exc, 'lineno', '?')}: invalid JSON: {exc}") from exc
    if not isinstance(data, dict) or data.get("problem") != problem_id or not isinstance(data.get("tests"), list):
        raise error(f"{path}: line 1: field 'problem'/'tests': expected problem '{problem_id}' and a test list")
    return data["tests"]


def sync_file(path: Path, text: str, check: bool, stale: list[str]) -> None:
    """Write a generated file, or (``check``) add its path to ``stale`` when the committed one differs."""
    if check:
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(str(path))
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
