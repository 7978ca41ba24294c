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


def test_the_pilots_planned_figures_are_the_plans(tmp_path: Path) -> None:
    """The pilot's plan-against-run table and quote: the planned samples and tokens per format, and the planned
    totals, are what the page's ``coonbench plan`` command writes (the run's columns are SmolLM2's answers from a run
    whose logs are not committed: the page labels them historical and unchecked)."""
    import json

    page = (ROOT / "docs" / "planning.md").read_text(encoding="utf-8")
    command = re.search(r"^(coonbench plan evals/comprehension\.py -T questions=5 [^\n]+ -o )logs/pilot/(\S+)$", page,
                        re.M)
    assert command, "docs/planning.md plans the pilot"
    out = tmp_path / command[2]
    assert main([*shlex.split(command[1])[1:], str(out)]) == 0
    [model] = json.loads(out.read_text(encoding="utf-8"))["models"]
    rows = re.findall(r"^\| gguf/smollm2 \| ([\w-]+) \| (\d+) \| \d+ \| ([\d,]+) \| [\d,]+ \| [\d,]+ \| (\d+) \|", page,
                      re.M)
    assert {r[0] for r in rows} == {f["format"] for f in model["formats"]}
    for fmt, samples, input_tokens, output_tokens in rows:
        [f] = [f for f in model["formats"] if f["format"] == fmt]
        assert (int(samples), input_tokens, int(output_tokens)) == (
            f["samples"], f"{round(f['input_tokens']):,}", round(f["output_tokens"])), fmt
    quote = re.search(r"\(comprehension, (\d+) samples, 1 epoch\) against this run\. gguf/smollm2: input tokens "
                      r"([\d,]+) planned, [\d,]+ recorded by the run's samples \(\d+ of (\d+) planned samples\); "
                      r"output tokens ([\d,]+) planned", page)
    assert quote, "docs/planning.md quotes the pilot's report"
    total = model["total"]
    assert (int(quote[1]), quote[2], int(quote[3]), quote[4]) == (
        round(total["samples"]), f"{round(total['input_tokens']):,}", round(total["samples"]),
        f"{round(total['output_tokens']):,}")
