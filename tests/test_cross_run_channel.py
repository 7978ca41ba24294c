"""A channel across runs, the page cache, closed by a private view; and the draw that would make it worthless.

The page cache is shared by every process of the machine. A program may read any file of its read-only view, and
the kernel tells it, deterministically, whether a page it touches had to be read from disk: the process's count of
major faults (``getrusage``; also ``/proc/self/stat``) goes up by one for a page that was not cached and stays for
one that was (with ``MADV_RANDOM`` no neighbour is read ahead). No refused call is involved (``mincore``,
``cachestat``, ``preadv2`` with ``RWF_NOWAIT`` are refused; ``mmap``, ``madvise`` and ``getrusage`` are what any
program uses), and timing the touch would do as well.

The attack, through the real executor, sandbox and feedback message: the grading run of epoch 1 touches one page
of a rarely read library of the jail's view per grading input (page = CRC-32 of the input, mod ``PAGES``); the
feedback run of epoch 2, in a fresh sandbox, finds which pages are cached and returns them as its answer to the
first public test, which the feedback message quotes. The jail's system directories are a tmpfs copy
(``coonbench.execution.view``), whose pages are always in memory: the feedback run sees the same pages cached
whether or not a grading run touched any, so the message carries nothing of it. With the view removed (the
host's directories bound), the marks arrive, exactly epoch 1's grading inputs, and the test fails. Behind it, the
draw: epoch 2's grading set is drawn afresh (``datasets.grading_draw``), so even the marks epoch 1 left would not
name its generated inputs; with the draw removed they name every one and those tests fail. What marks could
carry, the hand-written hidden tests that every draw keeps, is the bound docs/sandbox.md states.
"""

from __future__ import annotations

import asyncio
import json
import mmap
import os
import shutil
import zlib
from pathlib import Path
from typing import Any

import pytest

from coonbench.datasets.correction import problem_by_id
from coonbench.datasets.grading_draw import draw_grading
from coonbench.execution import get_executor
from coonbench.execution.attempts import feedback_problem, grading_problem
from coonbench.execution.isolation import SAFE_PATH
from coonbench.execution.sandbox import LocalLimitedSandbox, LocalSandboxConfig, capabilities
from coonbench.execution.view import VIEW_PROGRAMS, view_files
from coonbench.solvers.correction import feedback_message
from tests.sandboxed import can_become_a_user, pytest_as_ordinary_user

needs_isolation = pytest.mark.skipif(capabilities()["isolation"] != "full", reason="no isolation on this machine")
PROBLEM = "reverse_string"
SAMPLE = "correction-reverse_string-python"
PAGES = 256
PAGE = mmap.PAGESIZE

_PAGE_TOOLS = f"""import json, mmap, os, resource, zlib
PAGES, PAGE = {PAGES}, mmap.PAGESIZE

def _map(path):
    fd = os.open(path, os.O_RDONLY)
    view = mmap.mmap(fd, PAGES * PAGE, prot=mmap.PROT_READ)
    os.close(fd)
    view.madvise(mmap.MADV_RANDOM)  # a fault reads its own page only
    return view

def cached_pages(path):
    view, found = _map(path), []
    for page in range(PAGES):
        before = resource.getrusage(resource.RUSAGE_SELF).ru_majflt
        view[page * PAGE]
        if resource.getrusage(resource.RUSAGE_SELF).ru_majflt == before:
            found.append(page)
    return found

def page_of(args):
    return zlib.crc32(json.dumps(args).encode()) % PAGES
"""


def marker(path: str) -> str:
    """The grading run's program: right on every input, and one page of ``path`` read per input."""
    return _PAGE_TOOLS + f"""
VIEW = _map({path!r})
def reverse_string(s):
    VIEW[page_of([s]) * PAGE]
    return s[::-1]
"""


def reader(path: str, first_public: str) -> str:
    """The feedback run's program: which pages are cached, returned as the first public test's answer."""
    return _PAGE_TOOLS + f"""
MARKS = ";".join(f"p{{p}}" for p in cached_pages({path!r}))
def reverse_string(s):
    return "marks:" + MARKS if s == {first_public!r} else s[::-1]
"""


def page_of(args: list[Any]) -> int:
    return zlib.crc32(json.dumps(args).encode()) % PAGES


def _evict(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def _cached_here(path: Path) -> list[int]:
    """The same probe in this process (it reads every page it finds absent: evict again afterwards)."""
    namespace: dict[str, Any] = {}
    exec(_PAGE_TOOLS, namespace)  # noqa: S102 - the probe the programs use
    return namespace["cached_pages"](str(path))


def mark_file() -> Path | None:
    """A library of the jail's view (what a program sees at that path, with the view or without it) of at least
    ``PAGES`` pages that no process keeps cached: after eviction none of its pages is resident on the host (the
    probe itself is the check), else the next candidate."""
    programs = [found for name in VIEW_PROGRAMS if (found := shutil.which(name, path=SAFE_PATH))]
    candidates = sorted(Path(path) for path, target in view_files(programs).items()
                        if target is None and ".so" in path and os.stat(path).st_size >= PAGES * PAGE)
    for path in candidates:
        try:
            _evict(path)
            if not _cached_here(path):
                _evict(path)
                return path
        except OSError:
            continue
    return None


async def _run(code: str, problem: Any) -> Any:
    box = LocalLimitedSandbox(LocalSandboxConfig())
    try:
        return await get_executor("python").run(code, problem, 2.0, box)
    finally:
        box.close()


SALTS = ("a" * 32, "b" * 32)  # two grading runs' salts (the scorer draws one per run with secrets.token_hex(16))


def draws(problem: Any, epoch: int, salt: str) -> list[Any]:
    drawn = draw_grading(problem, SAMPLE, epoch, salt)
    return problem.grading_tests if drawn is None else drawn


def _quoted(path: Path, problem: Any) -> set[int]:
    """A feedback run's reading of the cached pages of ``path``, as the feedback message quotes it."""
    public = problem.public_tests[0].input[0]
    result = asyncio.run(_run(reader(str(path), public), feedback_problem(problem)))
    message = feedback_message(result, get_executor("python"))
    actual = next(line for line in message.splitlines() if line.startswith("Actual: "))
    marks = json.loads(actual.removeprefix("Actual: ")).removeprefix("marks:")
    return {int(m[1:]) for m in marks.split(";") if m}


@pytest.fixture(scope="module")
def leak() -> tuple[set[int], set[int], Any, list[Any]]:
    """A feedback run's reading before any grading run (the control), and after epoch 1's grading run (first
    salt) marked its inputs: (control, after, the problem, the grading set that was marked)."""
    if capabilities()["isolation"] != "full":
        pytest.skip("no isolation on this machine")
    path = mark_file()
    if path is None:
        pytest.skip(f"no library of {PAGES} pages in the jail's view that stays out of the page cache")
    problem = problem_by_id(PROBLEM)
    first = draws(problem, 1, SALTS[0])
    _evict(path)
    control = _quoted(path, problem)
    _evict(path)
    graded = asyncio.run(_run(marker(str(path)), grading_problem(problem, first)))
    assert graded.outcome.value == "PASS", graded
    after = _quoted(path, problem)
    _evict(path)
    return control, after, problem, first


def _named(leaked: set[int], problem: Any, grading: list[Any]) -> tuple[int, int]:
    """(generated inputs of ``grading`` on a marked page, generated inputs of ``grading``)."""
    fixed = {json.dumps(c.input) for c in problem.tests[3:]}  # hand-written hidden tests: graded in every draw
    fresh = [c for c in grading if json.dumps(c.input) not in fixed]
    return sum(page_of(c.input) in leaked for c in fresh), len(fresh)


@needs_isolation
def test_a_grading_run_leaves_nothing_in_the_page_cache_for_a_later_run(
        leak: tuple[set[int], set[int], Any, list[Any]]) -> None:
    """The feedback run reads the same cached pages after epoch 1's grading run as before it: the view's pages
    are always in memory, so its message quotes nothing of the grading inputs (on the host's directories it
    would quote exactly the pages of epoch 1's grading inputs)."""
    control, after, _, first = leak
    graded_first = {page_of(c.input) for c in first}
    assert len(graded_first) >= 10
    assert after == control, (sorted(after ^ control), sorted(graded_first))
    assert not graded_first <= after - control


@needs_isolation
def test_marks_would_be_worth_nothing_to_the_next_grade(leak: tuple[set[int], set[int], Any, list[Any]]) -> None:
    """The next epoch of the same sample: its grading set is another draw, so even the pages epoch 1 marked (all
    a channel could carry) name its generated inputs by chance only."""
    _, _, problem, first = leak
    marked = {page_of(c.input) for c in first}
    named, fresh = _named(marked, problem, draws(problem, 2, SALTS[0]))
    # a fresh input lands on a marked page only by chance (|marks| / PAGES each): the marks do not name them
    assert fresh >= 10 and named <= fresh // 4, (named, fresh)


@needs_isolation
def test_the_same_sample_and_epoch_graded_again_is_another_draw(
        leak: tuple[set[int], set[int], Any, list[Any]]) -> None:
    """The same sample and epoch graded again (``inspect eval-retry``, a second evaluation on this machine): the
    scorer's fresh salt makes it another draw, so the marks of the first do not name its inputs either."""
    _, _, problem, first = leak
    named, fresh = _named({page_of(c.input) for c in first}, problem, draws(problem, 1, SALTS[1]))
    assert fresh >= 10 and named <= fresh // 4, (named, fresh)


@pytest.mark.slow  # ~40 s: pytest again, as uid 65534
@pytest.mark.skipif(not can_become_a_user(), reason="needs root, unshare(1) and setpriv(1) to become an ordinary user")
def test_the_cross_run_channel_as_an_ordinary_user() -> None:
    proc = pytest_as_ordinary_user("-k", "later_run or next_grade or graded_again or shared_place", __file__)
    assert proc.returncode == 0 and " passed" in proc.stdout, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "skipped" not in proc.stdout, proc.stdout[-3000:]


@needs_isolation
def test_each_evaluation_grades_on_its_own_draw_and_records_its_salt(monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    """Two evaluations of the same sample and epoch (the gold program): the scorer draws with a fresh salt each
    time, records it in the score, and the draw it graded on is the one that salt reproduces; both score 1."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, get_model

    from coonbench.evals.correction import correction
    from coonbench.scorers import correction as scoring

    problem = problem_by_id(PROBLEM)
    used: list[tuple[str, list[Any] | None]] = []

    def noting(*args: Any) -> list[Any] | None:
        drawn = draw_grading(*args)
        used.append((args[-1], drawn))
        return drawn

    monkeypatch.setattr(scoring, "draw_grading", noting)
    gold = f"```python\n{problem.solutions['python']}\n```"

    def respond(messages, tools, tool_choice, config):  # type: ignore[no-untyped-def]
        return ModelOutput.from_content(model="mockllm/model", content=gold)

    salts = []
    for _ in range(2):
        task = correction(target="python", problems=PROBLEM, max_retries=0, sandbox="local")
        [log] = inspect_eval(task, model=get_model("mockllm/model", custom_outputs=respond), display="none",
                             log_dir=str(tmp_path))
        assert log.status == "success", log.error
        [sample] = log.samples or []
        score = next(iter((sample.scores or {}).values()))
        assert score.value["correct"] == 1.0, score.explanation
        salts.append(score.metadata["grading_salt"])
    assert [salt for salt, _ in used] == salts and salts[0] != salts[1] and len(salts[0]) == 32
    assert used[0][1] != used[1][1]
    assert used[0][1] == draw_grading(problem, str(log.samples[0].id), 1, salts[0])


_LEAVE = r"""
import ctypes, errno, os, socket
left = {}
for path in ("/tmp/coonbench-mark", "/coonbench-mark", "/dev/shm/coonbench-mark", "/var/tmp/coonbench-mark",
             "/usr/coonbench-mark", "/proc/coonbench-mark", "/sandbox/../coonbench-mark"):
    try:
        with open(path, "w") as fh:
            fh.write("mark")
        left[path] = "written"
    except OSError as exc:
        left[path] = errno.errorcode.get(exc.errno, str(exc.errno))
try:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind("\0coonbench-mark")
    s.listen(1)
    left["abstract socket"] = "bound"
except OSError as exc:
    left["abstract socket"] = errno.errorcode.get(exc.errno, str(exc.errno))
libc = ctypes.CDLL(None, use_errno=True)
left["sysv queue"] = "made" if libc.msgget(0x5EED, 0o1666) >= 0 else errno.errorcode.get(ctypes.get_errno(), "?")
print(left)
"""

_FIND = r"""
import ctypes, os, socket
found = [p for p in ("/tmp/coonbench-mark", "/coonbench-mark", "/dev/shm/coonbench-mark", "/var/tmp/coonbench-mark",
                     "/usr/coonbench-mark", "/proc/coonbench-mark") if os.path.exists(p)]
try:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect("\0coonbench-mark")
    found.append("abstract socket")
except OSError:
    pass
libc = ctypes.CDLL(None, use_errno=True)
if libc.msgget(0x5EED, 0o666) >= 0:
    found.append("sysv queue")
print("FOUND", found)
"""


@needs_isolation
def test_no_mark_a_run_leaves_in_a_shared_place_reaches_the_next_run() -> None:
    """The channels that need no timing: a file outside the sample directory, ``/dev/shm``, an abstract socket, a
    SysV queue. A run tries each; a fresh run finds none (the root view is read-only, ``/dev/shm`` absent,
    ``socket`` and ``msgget`` refused besides their own namespaces)."""
    from tests.sandboxed import run_program

    left = run_program(_LEAVE)
    assert left.returncode == 0, left.stderr
    assert "written" not in left.stdout and "bound" not in left.stdout and "made" not in left.stdout, left.stdout
    found = run_program(_FIND)
    assert found.returncode == 0 and "FOUND []" in found.stdout, found.stdout + found.stderr


def test_docs_state_the_bound_the_data_gives() -> None:
    """docs/sandbox.md's bound across runs: the tests every draw keeps, counted from the data."""
    from coonbench.datasets.correction import load_problems
    from coonbench.datasets.correction_tests import _finite_domain
    from coonbench.resources import REPO_ROOT

    docs = " ".join((REPO_ROOT / "docs" / "sandbox.md").read_text(encoding="utf-8").split())
    problems = load_problems()
    kept = [len(p.tests[3:]) for p in problems]
    assert f"({min(kept)} to {max(kept)} per problem, {sum(kept)} over the {len(problems)} problems)" in docs
    enumerated = sorted(p.id for p in problems if _finite_domain(p) is not None)
    words = ("no", "one", "two", "three", "four", "five", "six")
    assert f"the {words[len(enumerated)]} problems whose whole domain is enumerated" in docs
    assert all(f"`{pid}`" in docs for pid in enumerated)
    try:
        from coonbench.datasets.humaneval import load_humaneval

        humaneval, _ = load_humaneval("amplified")
    except ImportError:
        return
    own = sum(p.base_hidden or 0 for p in humaneval)
    share = round(100 * own / sum(len(p.grading_tests) for p in humaneval))
    assert f"HumanEval's own tests ({own:,} over {len(humaneval)} problems" in docs
    assert f"{share}% of `suite=humaneval`'s grading tests" in docs
