"""The COON benchmark scripts take any directory: a wrong path is a clear usage error, not a traceback or an empty
table, and a real directory gives every figure the issue asks for."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from coonbench.paths import REPO_ROOT

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
