"""coonbench is a good neighbour in an ``inspect`` process, and piped output can be made readable on request.

Inspect loads coonbench's entry point (``coonbench/_registry.py``) in every ``inspect`` process, for other
packages' tasks too. ``test_a_foreign_tasks_piped_output_is_the_same_with_and_without_coonbench`` runs a task that
is not coonbench's, piped to a file, once with the entry point loaded and once with it hidden from Inspect, and
compares the output byte for byte (times and the log's name masked) and what the task saw of its process
(environment, stdout's buffering, logging). The run with it hidden is the "venv without coonbench": the same
interpreter whose ``importlib.metadata`` lists no ``inspect_ai`` entry point of coonbench's.

``test_the_documented_recipe_streams_whole_lines`` runs what docs/usage.md ("Piped output") tells a user who wants
to watch a piped run: ``PYTHONUNBUFFERED=1 COLUMNS=200 … --display plain``. Its second sample waits for a file
that the test writes only once it has read a progress line from the pipe, so a line read first was sent while the
run was still going. Should the line never come (a buffered pipe), the sample gives up after ``GIVE_UP_S``,
leaving a file that says so, and the run ends: a test that fails, never one that hangs.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

from coonbench.resources import REPO_ROOT

TIMEOUT_S = 300
GIVE_UP_S = 120  # how long the held sample waits for the test; only a failing run waits that long

TASK = textwrap.dedent(
    """
    import os

    import anyio
    from inspect_ai import Task, task
    from inspect_ai.dataset import Sample
    from inspect_ai.scorer import match
    from inspect_ai.solver import solver

    RELEASE = os.environ["COONBENCH_TEST_RELEASE"]
    GAVE_UP = RELEASE + ".gave-up"
    GIVE_UP_S = float(os.environ["COONBENCH_TEST_GIVE_UP_S"])


    @solver
    def wait_for_release():
        async def solve(state, generate):
            with anyio.move_on_after(GIVE_UP_S):
                while state.sample_id == "held" and not os.path.exists(RELEASE):
                    await anyio.sleep(0.05)
            if state.sample_id == "held" and not os.path.exists(RELEASE):
                open(GAVE_UP, "w").close()
            state.output.completion = "a"
            return state

        return solve


    @task
    def piped():
        return Task(dataset=[Sample(input="q", target="a", id=i) for i in ("first", "held")],
                    solver=wait_for_release(), scorer=match())
    """
)


def test_the_documented_recipe_streams_whole_lines(tmp_path: Path) -> None:
    (tmp_path / "piped_task.py").write_text(TASK)
    release = tmp_path / "release"
    log_dir = tmp_path / ("a-log-folder-whose-path-is-longer-than-eighty-columns-" * 2)
    env = _users_shell()
    env.update(COONBENCH_TEST_RELEASE=str(release), COONBENCH_TEST_GIVE_UP_S=str(GIVE_UP_S))
    env.update(PYTHONUNBUFFERED="1", COLUMNS="200")  # the recipe in docs/usage.md, "Piped output"
    proc = subprocess.Popen(
        [str(Path(sys.executable).with_name("inspect")), "eval", "piped_task.py", "--model", "mockllm/model",
         "--display", "plain", "--log-dir", str(log_dir)],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        assert proc.stdout is not None
        before_release: list[str] = []
        for line in proc.stdout:  # each line as the pipe delivers it
            before_release.append(line)
            if "Steps:" in line:
                break
        gave_up = release.with_name(release.name + ".gave-up").exists()
        assert not gave_up and any("Steps:" in line for line in before_release), ("after the run", before_release)
        release.write_text("go")  # only now can the held sample, and so the run, finish
        rest = proc.stdout.read()
        assert proc.wait(timeout=TIMEOUT_S) == 0, "".join(before_release) + rest
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    [log] = list(log_dir.glob("*.eval"))
    printed = [line.strip().removeprefix("Log:").strip() for line in rest.splitlines() if line.strip().startswith("Log:")]
    assert len(printed) == 1 and (tmp_path / printed[0]).resolve() == log.resolve(), rest


FOREIGN = textwrap.dedent(
    """
    import json
    import logging
    import os
    import sys

    from inspect_ai import Task, task
    from inspect_ai.dataset import Sample
    from inspect_ai.scorer import match
    from inspect_ai.solver import solver


    @solver
    def look_around():
        async def solve(state, generate):
            root = logging.getLogger()
            seen = {
                "coonbench loaded": "coonbench._registry" in sys.modules,
                "environment": {k: v for k, v in os.environ.items() if k in ("COLUMNS", "LINES", "PYTHONUNBUFFERED")},
                "stdout line-buffered": getattr(sys.stdout, "line_buffering", None),
                "root logger": [root.level, [type(h).__name__ for h in root.handlers]],
            }
            with open(os.environ["COONBENCH_TEST_SEEN"], "w") as out:
                json.dump(seen, out)
            state.output.completion = "a"
            return state

        return solve


    @task
    def foreign():
        samples = [Sample(input="a question whose line is long " * 4, target="a", id=i) for i in range(3)]
        return Task(dataset=samples, solver=look_around(), scorer=match())
    """
)

# Runs the ``inspect`` program (its console script, as the shell would), with coonbench's entry point hidden from
# ``importlib.metadata`` when COONBENCH_TEST_HIDE is set: a venv without coonbench, as far as Inspect can tell.
RUNNER = textwrap.dedent(
    """
    import importlib.metadata as metadata
    import os
    import runpy
    import sys

    if os.environ.get("COONBENCH_TEST_HIDE"):
        listed = metadata.entry_points

        def entry_points(**params):
            found = listed(**params)
            if params.get("group") == "inspect_ai":
                return metadata.EntryPoints(ep for ep in found if not ep.value.startswith("coonbench"))
            return found

        metadata.entry_points = entry_points
    program = sys.argv[1]
    sys.argv = [program, *sys.argv[2:]]
    runpy.run_path(program, run_name="__main__")
    """
)

VARIABLE = [  # in this order: the id first, whose digits the second would shorten past its pattern
    (re.compile(r"_[A-Za-z0-9]{20,24}\.eval"), "_ID.eval"),  # the log's random id
    (re.compile(r"\d+"), "0"),  # times, durations, dates, token counts of a run
]


def _users_shell() -> dict[str, str]:
    """This environment as a user's shell would have it: no COLUMNS or unbuffered Python, the checkout importable."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "PYTHONUNBUFFERED", "LINES")}
    env["PYTHONPATH"] = str(REPO_ROOT)
    return env


def _run_foreign(tmp_path: Path, hide: bool) -> tuple[str, dict[str, object]]:
    """(the masked output of the foreign task's run piped to a file, what its solver saw of its process)."""
    name = "hidden" if hide else "loaded"
    seen, out_path = tmp_path / f"seen-{name}.json", tmp_path / f"out-{name}.txt"
    env = _users_shell()
    env["COONBENCH_TEST_SEEN"] = str(seen)
    if hide:
        env["COONBENCH_TEST_HIDE"] = "1"
    inspect = str(Path(sys.executable).with_name("inspect"))
    with out_path.open("wb") as out:  # a file, not a terminal: what `inspect eval … > out.txt` gets
        done = subprocess.run(
            [sys.executable, str(tmp_path / "runner.py"), inspect, "eval", "foreign_task.py", "--model",
             "mockllm/model", "--log-dir", "logs"],
            cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT, timeout=TIMEOUT_S,
        )
    text = out_path.read_text(encoding="utf-8", errors="replace")
    assert done.returncode == 0, text
    for pattern, replacement in VARIABLE:
        text = pattern.sub(replacement, text)
    return text, json.loads(seen.read_text())


def test_a_foreign_tasks_piped_output_is_the_same_with_and_without_coonbench(tmp_path: Path) -> None:
    (tmp_path / "foreign_task.py").write_text(FOREIGN)
    (tmp_path / "runner.py").write_text(RUNNER)
    with_us, seen_with = _run_foreign(tmp_path, hide=False)
    without, seen_without = _run_foreign(tmp_path, hide=True)
    assert seen_with.pop("coonbench loaded") is True and seen_without.pop("coonbench loaded") is False
    assert seen_with == seen_without
    assert with_us == without
    assert max(len(line) for line in with_us.splitlines()) <= 120, with_us  # no layout at a forced width
