"""Trusted side of a run inside the sandbox: feeds test inputs to a worker process, reports its answers.

Self-contained (stdlib only): it is copied into the sandbox, so nothing from coonbench is importable there.
Usage: ``python3 -I -S supervise.py CASE_TIMEOUT_S -- WORKER_COMMAND…``; stdin holds JSON lines: first a
per-run secret (nonce) chosen by the host, then one test input per line (public tests first). No file in the
run directory lists the tests. The result record goes to the file ``RESULT_FILE`` of the run directory, not to
stdout: the host reads it back as bytes, so that neither the inputs (stdin, sent as bytes) nor the answers appear
in the transcript's sandbox events, which show bytes as a size only.

Why a separate process: the candidate code runs in the worker, never in this process. The worker gets the
inputs one case at a time on its stdin (it never holds the others) and answers one JSON line per case on its stdout; its stdout and stderr
are pipes to this process only. This process makes itself non-dumpable (the worker, same uid, can neither
ptrace it nor open ``/proc/<pid>/fd`` or ``/proc/<pid>/mem``), reads the nonce before the worker exists and
writes the result record after ``RESULT_MARKER`` + nonce — a line the worker can neither write nor forge.
Expected outputs are never in the sandbox: the host compares. A case the worker does not answer in time
(alarm ignored, C-level loop) is a timeout: the worker is killed and restarted for the next case.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from typing import Any

RESULT_MARKER = "@@COONBENCH-RESULT@@"
RESULT_FILE = "result"  # in the run directory; replaced whole (a name the program made there is overwritten)
GRACE_S = 1.0  # beyond the worker's own per-case alarm
START_S = 10.0  # interpreter start + module load, beyond the case timeout
MAX_LINE = 1024 * 1024  # one answer line; more is a protocol violation
MAX_DEPTH = 200  # nesting of one answer (the workers cut values at depth 50; typed values take 3 levels per level)
STDERR_TAIL = 600
PR_SET_DUMPABLE = 4


def _non_dumpable() -> None:
    try:
        import ctypes

        ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (ImportError, OSError, AttributeError):
        pass


class Worker:
    """One worker process and a line reader over its stdout with deadlines."""

    def __init__(self, command: list[str]) -> None:
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
        )
        self.buffer = b""
        self.stderr = b""
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        while chunk := self.proc.stderr.read1(65536):
            self.stderr = (self.stderr + chunk)[-STDERR_TAIL:]

    def send(self, message: dict[str, Any]) -> bool:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write((json.dumps(message) + "\n").encode())
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def read_line(self, timeout: float) -> tuple[str, Any]:
        """("ok", decoded JSON) | ("timeout", None) | ("exit", None) | ("bad", reason)."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        end = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            if len(self.buffer) > MAX_LINE:
                return "bad", f"the program wrote more than {MAX_LINE} bytes as one answer"
            left = end - time.monotonic()
            if left <= 0:
                return "timeout", None
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                return "exit", None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):
            return "bad", "the worker's answer was not JSON (the program wrote to the answer channel?)"
        if nesting_depth(value) > MAX_DEPTH:
            return "bad", f"the worker's answer nests deeper than {MAX_DEPTH} levels"
        return "ok", value

    def exit_text(self) -> str:
        """How the worker ended, with the tail of its stderr."""
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.proc.wait()
        how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
        tail = self.stderr.decode("utf-8", errors="replace").strip()
        return f"the program ended the process ({how})" + (f": {tail}" if tail else "")

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        self.proc.kill()


def nesting_depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deeply lists and dicts nest in ``value`` (iterative, so any depth is measured without recursion;
    stops counting past ``limit``). The host checks the record with the same function."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return deepest


def _crash(message: str) -> dict[str, Any]:
    return {"status": "error", "error": "ProcessExit", "message": message[:500], "type_error": False,
            "value_error": False}


def start(command: list[str], case_timeout: float) -> tuple[Worker, dict[str, Any] | None]:
    """A worker that loaded the solution, or the parse/load record that ends the run."""
    worker = Worker(command)
    status, value = worker.read_line(case_timeout + START_S)
    if status == "ok" and isinstance(value, dict) and value.get("stage") == "ready":
        return worker, None
    if status == "ok" and isinstance(value, dict) and value.get("stage") in ("parse", "load"):
        worker.kill()
        return worker, value
    if status == "timeout":
        worker.kill()
        return worker, {"stage": "load", "status": "timeout", "message": "defining the module timed out"}
    worker.kill()
    reason = value if status == "bad" else worker.exit_text()
    return worker, {"stage": "load", **_crash(f"while loading: {reason}")}


def run(cases: list[dict[str, Any]], case_timeout: float, command: list[str]) -> dict[str, Any]:
    """Every case through a worker; returns the run record the host classifies."""
    worker, failed = start(command, case_timeout)
    if failed is not None:
        return failed
    results: list[dict[str, Any]] = []
    for case in cases:
        if worker.proc.poll() is not None or worker.buffer:
            worker.kill()
            worker, failed = start(command, case_timeout)
            if failed is not None:
                results.append(_crash(str(failed.get("message"))))
                continue
        if not worker.send(case):
            results.append(_crash(worker.exit_text()))
            continue
        status, value = worker.read_line(case_timeout + GRACE_S)
        if status == "ok" and isinstance(value, dict) and value.get("status") in ("ok", "error", "timeout"):
            results.append(value)
        elif status == "timeout":
            worker.kill()
            results.append({"status": "timeout"})
        elif status == "exit":
            results.append(_crash(worker.exit_text()))
        else:
            worker.kill()
            results.append(_crash(str(value) if status == "bad" else f"malformed answer {value!r}"))
    worker.kill()
    return {"stage": "run", "cases": results}


def forget_earlier_runs() -> None:
    """Empty the sample directory but for this run's own directory, before the worker exists.

    Files persist between a sample's attempts: without this, a program could save the hidden inputs it is given
    in one attempt and quote them (in an error on a public test) in the next, and the model would read them.
    """
    here = os.path.abspath(os.getcwd())
    parent = os.path.dirname(here)
    for name in os.listdir(parent):
        path = os.path.join(parent, name)
        if path == here:
            continue
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                os.unlink(path)
            except OSError:
                pass


def deliver(line: str) -> None:
    """Write the marked record to ``RESULT_FILE``: into a fresh file of a random name (``O_EXCL``, nothing
    followed), then renamed over whatever the program may have left under that name."""
    temporary = f".result-{os.urandom(8).hex()}"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        data = line.encode("utf-8")
        while data:
            data = data[os.write(fd, data):]
    finally:
        os.close(fd)
    os.replace(temporary, RESULT_FILE)


def main(argv: list[str]) -> None:
    """Read the nonce, become non-dumpable, clear earlier attempts' files, run, write the marked record."""
    nonce = str(json.loads(sys.stdin.readline()))
    _non_dumpable()
    forget_earlier_runs()
    cases = [json.loads(line) for line in sys.stdin if line.strip()]
    sys.stdin.close()
    case_timeout = float(argv[1])
    command = argv[argv.index("--") + 1:]
    try:
        record = run(cases, case_timeout, command)
    except Exception as exc:  # noqa: BLE001 - the host must get a record, not a traceback
        record = {"stage": "harness", "message": f"{type(exc).__name__}: {exc}"}
    deliver(f"{RESULT_MARKER}{nonce} {json.dumps(record)}\n")


if __name__ == "__main__":
    main(sys.argv)
