"""The COON benchmark scripts take any directory: a wrong path is a clear usage error, not a traceback or an empty
table, and a real directory gives every figure the issue asks for."""

from __future__ import annotations

import importlib.util
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from coonbench.resources import REPO_ROOT

SCRIPTS = ("coon_tokens.py", "coon_speed.py")


def _run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(REPO_ROOT / "benchmarks" / script), *args],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=300,
    )


@pytest.mark.parametrize("script", SCRIPTS)
def test_directory_without_dart_is_a_usage_error(script: str, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("no Dart here")
    for directory in (tmp_path, tmp_path / "missing"):
        out = _run(script, str(directory))
        assert out.returncode == 2, out.stdout + out.stderr
        assert f"{directory}: no *.dart files there" in out.stderr
        assert "Traceback" not in out.stderr


def test_speed_script_prints_every_phase() -> None:
    out = _run("coon_speed.py", str(REPO_ROOT / "data" / "dart" / "simple"), "--phases")
    assert out.returncode == 0, out.stderr
    build = next(line for line in out.stdout.splitlines() if line.startswith("codec build: "))
    assert build.split()[2] in ("compiled", "python"), build  # which codec the figures are of
    for phase in ("encode (no verify)", "verify (extra)", "decode", "encode+verify+decode"):
        line = next(line for line in out.stdout.splitlines() if line.startswith(phase))
        rate = line.removeprefix(phase).split()[0]
        assert int(rate) > 0 and line.split()[-4] == "KB/s", line
    shares = []
    for step in ("parse (source)", "walk (source)", "encoder rules", "decoder rules", "join (check)", "layout (decode)",
                 "scan + compare (check)"):
        line = next(line for line in out.stdout.splitlines() if line.strip().startswith(step))
        seconds, unit, share = line.strip().removeprefix(step).split()
        assert unit == "s" and float(seconds) >= 0, line
        shares.append(float(share.rstrip("%")))
    assert abs(sum(shares) - 100) < 1, shares  # the steps are the whole of one encode+verify+decode
    ratio = next(line for line in out.stdout.splitlines() if line.startswith("encode+verify+decode / one parse:"))
    assert float(ratio.split()[-1].rstrip("x")) > 1, ratio  # the machine-independent figure (issue: <= 3x)


def _overhead_module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("overhead_benchmark", REPO_ROOT / "benchmarks" / "overhead.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_overhead_interval_is_the_t_interval_of_the_paired_log_ratios() -> None:
    overhead = _overhead_module()
    ratios = [1.10, 1.18, 1.12, 1.15, 1.09]
    point, low, high = overhead.ratio_interval(ratios)
    logs = np.log(ratios)
    ci = stats.ttest_1samp(logs, 0.0).confidence_interval(0.95)
    assert point == pytest.approx(math.exp(logs.mean()))
    assert (low, high) == pytest.approx((math.exp(ci.low), math.exp(ci.high)))
    assert math.isnan(overhead.ratio_interval([1.2])[1])  # one pair: no interval
    goal = overhead.GOAL
    assert overhead.verdict_line(goal - 0.05, goal - 0.08, goal).startswith("met")
    assert overhead.verdict_line(goal - 0.01, goal - 0.05, goal + 0.03).startswith("not shown")
    assert overhead.verdict_line(goal + 0.01, goal - 0.02, goal + 0.05).startswith("not met")
    assert overhead.verdict_line(goal, math.nan, math.nan).startswith("one pair")


@pytest.mark.slow
def test_overhead_script_runs_fresh_process_pairs() -> None:
    out = subprocess.run(
        [sys.executable, str(REPO_ROOT / "benchmarks" / "overhead.py"), "--limit", "8", "--pairs", "2", "--aa"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert "samples: 8; mockllm; 2 pairs of fresh-process runs" in out.stdout
    again = next(line for line in out.stdout.splitlines() if line.startswith("bare Inspect task, again"))
    assert "x (" in again, again  # the bare task against itself, with its interval
    line = next(line for line in out.stdout.splitlines() if line.startswith("overhead ratio: "))
    point = float(line.split()[2].rstrip("x"))
    low, high = (float(x) for x in line.split("95% CI ")[1].split(")")[0].split("-"))
    assert 0 < low <= point <= high, line
