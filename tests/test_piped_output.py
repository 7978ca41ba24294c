"""``inspect eval … --display plain | tee run.txt``: progress lines arrive as they are printed, and lines are whole.

A pipe makes stdout block-buffered and rich assumes 80 columns, so a user watching a piped run saw nothing until it
ended and then a log path cut with ``…``. The registry (``coonbench/_registry.py``, Inspect's entry point) makes
stdout line-buffered and rich wide when stdout is no terminal. The run here cannot end before the test lets it:
its second sample waits for a file that the test writes only once it has read a progress line from the pipe, so a
line read first was sent while the run was still going. Should the line never come (a buffered pipe), the sample
gives up after ``GIVE_UP_S``, leaving a file that says so, and the run ends: a test that fails, never one that hangs.
"""

from __future__ import annotations

import os
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


def test_progress_arrives_while_running_and_the_log_path_is_whole(tmp_path: Path) -> None:
    (tmp_path / "piped_task.py").write_text(TASK)
    release = tmp_path / "release"
    log_dir = tmp_path / ("a-log-folder-whose-path-is-longer-than-eighty-columns-" * 2)
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "PYTHONUNBUFFERED")}  # as in a user's shell
    env.update(PYTHONPATH=str(REPO_ROOT), COONBENCH_TEST_RELEASE=str(release), COONBENCH_TEST_GIVE_UP_S=str(GIVE_UP_S))
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
