"""docs/planning.md's figures of what ``-T stop=decided`` saves are the replay's own: ``benchmarks/stop_replay.py``
replays TOON's published answers and the published 1.5B comprehension logs through the stopping rule a run uses,
and its ``statement`` (the questions asked against the fixed design, how each comparison ended) must be the
sentence the page prints."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from coonbench.resources import REPO_ROOT

ORDERS = 20  # the page's: 20 random orders per model
LOGS = REPO_ROOT / "logs" / "published" / "qwen2.5-coder-1.5b" / "comprehension"


def _replay_module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("stop_replay_benchmark", REPO_ROOT / "benchmarks" / "stop_replay.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # 80 replays of TOON's answers and 20 of the 1.5B logs: about 30 s on a loaded machine
def test_the_pages_replay_figures_are_the_replays() -> None:
    replay = _replay_module()
    toon = replay.toon_models()
    if not toon:
        pytest.skip(f"TOON's reference data is not at {replay.TOON}")
    logs = replay.samples_of_logs(LOGS)
    assert list(logs) == ["gguf/qwen2.5-coder-1.5b"]  # the floors' mockllm logs are not replayed
    expected = replay.statement(replay.replay_all(toon, ORDERS, replay.DEFAULT_MARGIN),
                                replay.replay_all(logs, ORDERS, replay.DEFAULT_MARGIN), ORDERS)
    page = re.sub(r"\s+", " ", (REPO_ROOT / "docs" / "planning.md").read_text(encoding="utf-8"))
    assert expected in page, expected
