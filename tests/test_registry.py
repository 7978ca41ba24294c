"""The Inspect extension: everything in coonbench/_registry.py is addressable as ``coonbench/<name>``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai._util.registry import registry_info, registry_lookup  # noqa: PLC2701  (checked, not used to run)
from inspect_ai.log import read_eval_log

import coonbench._registry as reg

# Names used without our prefix: model providers (``--model gguf/…``), sandbox kinds, metrics (log keys).
UNPREFIXED_TYPES = {"modelapi", "sandboxenv", "metric"}


def registered_objects() -> list[object]:
    return [v for k, v in vars(reg).items() if not k.startswith("_") and hasattr(v, "__registry_info__")]


def test_every_registered_object_is_in_our_namespace() -> None:
    objects = registered_objects()
    assert objects
    for obj in objects:
        info = registry_info(obj)
        if info.type in UNPREFIXED_TYPES:
            continue
        assert info.name.startswith("coonbench/"), (info.type, info.name)
        assert registry_lookup(info.type, info.name) is not None


@pytest.mark.parametrize("target", ["coonbench/comprehension", "evals/comprehension.py"])
def test_cli_runs_offline_with_gold(tmp_path: Path, target: str) -> None:
    """``inspect eval`` finds the task both ways, mockllm works offline, and the gold solver scores 1.0."""
    cmd = [
        sys.executable, "-m", "inspect_ai", "eval", target, "--model", "mockllm/model",
        "--solver", "coonbench/gold", "--limit", "8", "--log-dir", str(tmp_path), "--display", "none",
        "-T", "formats=coon,dart",
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=Path(__file__).parent.parent)
    assert out.returncode == 0, out.stderr[-2000:]
    logs = list(tmp_path.glob("*.eval"))
    assert len(logs) == 1
    log = read_eval_log(str(logs[0]))
    assert log.status == "success"
    assert log.results is not None
    metrics = {k: m.value for s in log.results.scores for k, m in s.metrics.items()}
    assert metrics["accuracy"] == 1.0
