"""docs/planning.md's worked example prints what ``coonbench plan`` prints: every line of its sample output (a line
ending in ``…`` is a prefix of the real one) is a line of the command's output today, so a change in prompts,
primer, tokenizers or the power rule cannot leave the page's figures behind. The page's command is the one run."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from coonbench.cli import main

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_worked_examples_output_is_the_commands(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    page = (ROOT / "docs" / "planning.md").read_text(encoding="utf-8")
    command = re.search(r"```bash\n(coonbench plan evals/comprehension\.py --model openai/gpt-4o [^\n]+)\n```", page)
    shown = re.search(r"```text\n(coonbench plan: comprehension,.*?)```", page, re.S)
    assert command and shown, "docs/planning.md has the worked example and its output"
    monkeypatch.chdir(ROOT)
    assert main(shlex.split(command[1])[1:]) == 0
    printed = [line.rstrip() for line in capsys.readouterr().out.splitlines()]
    lines = [line.rstrip() for line in shown[1].splitlines() if line.strip()]
    assert len(lines) > 20, "the page shows the output"
    for line in lines:
        if line.endswith("…"):
            assert any(p.startswith(line[:-1]) for p in printed), line
        else:
            assert line in printed, line
    prose = " ".join(page[shown.end():].split("A pilot on the embedded model")[0].split())
    said = re.search(r"Caching the primer saves (\d+)% of coon's money here, and with it cached the primer pays for "
                     r"itself from ([\d,]+) Dart tokens instead of ([\d,]+)\. Every comparison of the full task detects "
                     r"about ([\d.]+) points under the assumed discordance; 10 points need (\d+) of the (\d+) questions",
                     prose)
    assert said, "docs/planning.md reads the example's output"
    gpt = printed.index(next(p for p in printed if p.startswith("openai/gpt-4o")))
    coon = next(p for p in printed[gpt:] if p.split()[:1] == ["coon"]).split()
    usd, cached = float(coon[4]), float(coon[5])
    assert int(said[1]) == round(100 * (1 - cached / usd))
    primer = next(p for p in printed[gpt:] if "pays for itself" in p)
    assert f"over {said[3]} dart tokens (read from" in primer and f"over {said[2]})" in primer
    assert all(f"detects {said[4]} points" in p for p in printed[gpt:] if " pairs from " in p)
    assert any(f"--detect 10: {said[5]} questions (of {said[6]})" in p for p in printed[gpt:])
