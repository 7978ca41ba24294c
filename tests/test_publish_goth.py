"""The Goth entries of benchmarks/publish_qwen.sh leave room for every gold program: a cap below a correct
program's length would score a truncated right answer as the model's parse error (goth-json had 768 for ASTs of up
to 1,086 tokens)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from coonbench.tokens import count_tokens

ROOT = Path(__file__).resolve().parent.parent


def _cap(entry: str) -> int:
    text = (ROOT / "benchmarks" / "publish_qwen.sh").read_text()
    line = next((l for l in text.splitlines() if l.strip().startswith(f"{entry})")), None)
    assert line, f"publish_qwen.sh has a {entry} entry"
    found = re.search(r"--max-tokens (\d+)", line)
    assert found, line
    return int(found.group(1))


@pytest.mark.parametrize("entry, folder", [("goth", "goth"), ("goth-specs", "goth"), ("goth-json", "goth-json"),
                                          ("goth-json-specs", "goth-json")])
def test_the_cap_is_above_every_gold_program(entry: str, folder: str) -> None:
    golds = sorted((ROOT / "data" / "correction" / folder).iterdir())
    assert len(golds) >= 20
    longest = max(count_tokens(p.read_text(), "qwen") for p in golds)
    assert _cap(entry) > longest * 1.1, (entry, _cap(entry), longest)
