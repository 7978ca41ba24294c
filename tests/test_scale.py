"""The scale recipe of docs/scale.md: an eval-set over every task and two models resumes after a SIGKILL without
losing or repeating a sample."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections import defaultdict
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from coonbench.resources import REPO_ROOT
from tests.documented import commands_in

EVALS = sorted(p.stem for p in (REPO_ROOT / "evals").glob("*.py") if p.stem != "__init__")


def _recipe() -> str:
    cmd = next(c for c in commands_in(REPO_ROOT / "docs" / "scale.md") if "eval-set" in c.text)
    return cmd.text


def test_recipe_covers_every_task_and_two_models() -> None:
    text = _recipe()
    for name in EVALS:
        assert f"evals/{name}.py" in text, f"docs/scale.md's eval-set leaves out {name}"
    model = text.split("--model ", 1)[1].split()[0]
    assert len(model.split(",")) == 2 and "gguf/" in model and "mockllm/" in model


def _logs(log_dir: Path) -> list:
    return [read_eval_log(info, header_only=False) for info in list_eval_logs(str(log_dir), recursive=True)]


@pytest.mark.slow
def test_eval_set_resumes_after_sigkill(tmp_path: Path) -> None:
    command = _recipe().replace("--log-dir logs/eval-set", f"--log-dir {tmp_path}")
    assert str(tmp_path) in command
    # a killed evaluation cannot remove the sample directory it was using: keep it beside tmp_path, not in /tmp
    scratch = tmp_path.parent / f"{tmp_path.name}-tmp"
    scratch.mkdir()
    scratch.chmod(0o755)
    env = {**os.environ, "TMPDIR": str(scratch)}
    proc = subprocess.Popen(
        command, shell=True, cwd=REPO_ROOT, start_new_session=True, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 600
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            done = [info for info in list_eval_logs(str(tmp_path), recursive=True)]
            if len(done) >= 3:  # some tasks under way: kill mid-run
                break
            time.sleep(1)
        assert proc.poll() is None, "the eval-set finished before it could be interrupted"
        time.sleep(3)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    unfinished = [log for log in _logs(tmp_path) if log.status != "success"]
    pairs_expected = len(EVALS) * 2
    assert unfinished or len(_logs(tmp_path)) < pairs_expected, "the kill left nothing to resume"

    again = subprocess.run(command, shell=True, cwd=REPO_ROOT, capture_output=True, text=True, timeout=1500, env=env)
    assert again.returncode == 0, again.stderr[-3000:]

    by_pair: dict[tuple[str, str], list] = defaultdict(list)
    for log in _logs(tmp_path):
        by_pair[(log.eval.task, log.eval.model)].append(log)
    assert len(by_pair) == pairs_expected, sorted(by_pair)
    for pair, logs in by_pair.items():
        finished = [log for log in logs if log.status == "success"]
        assert len(finished) == 1, f"{pair}: {[log.status for log in logs]}"
        samples = finished[0].samples or []
        keys = [(s.id, s.epoch) for s in samples]
        assert len(keys) == len(set(keys)), f"{pair}: a sample was repeated"
        limit = int(command.split("--limit ", 1)[1].split()[0])
        assert len(keys) == limit, f"{pair}: {len(keys)} samples, expected the {limit} of --limit {limit}"
