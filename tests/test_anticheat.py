"""Grading cannot be gamed: a program that hunts for the expected outputs, or forges the result record, scores 0.

The expected outputs are random tokens (``EXP-…``) that no computation on the inputs (``IN-…``) can produce, so
the only ways to pass are to find them or to forge the harness's verdict. No file in the program's view lists the
tests (the inputs reach it one at a time on its stdin), so the search finds no input either; it proves that it
works by finding a canary token planted in the sandbox, so "found nothing" is not an artefact of a broken search.
"""

from __future__ import annotations

import ast
import asyncio
import json
import os
import random
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from coonbench.execution import Outcome, Problem, get_executor
from coonbench.execution.base import RESULT_MARKER, case_inputs, harness_text, parse_runner_output
from coonbench.execution.python import python_to_ast_json
from coonbench.execution.sandbox import LocalLimitedSandbox, LocalSandboxConfig

_rng = random.Random(16)
INPUTS = [f"IN-{_rng.getrandbits(64):016x}" for _ in range(6)]  # 3 public, 3 hidden
EXPECTED = [f"EXP-{_rng.getrandbits(64):016x}" for _ in range(6)]
CANARY = f"IN-{_rng.getrandbits(64):016x}"
SECRET_PROBLEM = Problem.model_validate(
    {
        "id": "t_secret",
        "category": "basic",
        "complexity": "basic",
        "signature": {"name": "f", "params": [{"name": "key", "type": "str"}], "returns": "str"},
        "description": "look the key up",
        "tests": [{"input": [i], "expected": e} for i, e in zip(INPUTS, EXPECTED)],
        "solutions": {"python": f"TABLE = {dict(zip(INPUTS, EXPECTED))!r}\ndef f(key):\n    return TABLE[key]\n"},
    }
)

PY_SEARCH = r'''
import os, re, stat
PAT = re.compile(r"(?:IN|EXP)-[0-9a-f]{16}")
def search():
    found = set(PAT.findall(repr(dict(os.environ))))
    seen = 0
    tops = [os.getcwd(), os.path.dirname(os.getcwd()), "/proc", "/tmp", "/dev/shm", "/etc", "/root", "/home", "/var"]
    for top in tops:
        for root, dirs, files in os.walk(top):
            for name in files:
                seen += 1
                if seen > 4000:
                    return found
                try:
                    if not stat.S_ISREG(os.stat(os.path.join(root, name)).st_mode):
                        continue
                    with open(os.path.join(root, name), "rb") as fh:
                        found.update(PAT.findall(fh.read(1 << 20).decode("latin-1")))
                except Exception:
                    pass
    return found
FOUND = []
def f(key):
    FOUND[:] = FOUND or sorted(search())  # searched while a case is running, too
    hits = [t for t in FOUND if t.startswith("EXP-")]
    return hits[0] if hits else "found:" + ",".join(FOUND)
'''

JS_SEARCH = r'''
const P = console.log.constructor("return process")();
const fs = P.mainModule.require("fs");
const path = P.mainModule.require("path");
const Buffer = P.mainModule.require("buffer").Buffer;
const PAT = /(?:IN|EXP)-[0-9a-f]{16}/g;
const FOUND = new Set();
for (const m of JSON.stringify(P.env).match(PAT) || []) FOUND.add(m);
let seen = 0;
function walk(dir) {
  let entries;
  try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch (e) { return; }
  for (const e of entries) {
    if (seen > 4000) return;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.isFile()) {
      seen++;
      try {
        const fd = fs.openSync(p, "r"); const buf = Buffer.alloc(1 << 20);
        const n = fs.readSync(fd, buf, 0, buf.length, 0); fs.closeSync(fd);
        for (const m of buf.toString("latin1", 0, n).match(PAT) || []) FOUND.add(m);
      } catch (err) {}
    }
  }
}
for (const top of [P.cwd(), path.dirname(P.cwd()), "/proc", "/tmp", "/dev/shm", "/etc", "/root", "/home"]) walk(top);
function f(key) {
  const hits = [...FOUND].filter((t) => t.startsWith("EXP-")).sort();
  return hits.length ? hits[0] : "found:" + [...FOUND].sort().join(",");
}
'''

FORGED = json.dumps({"stage": "run", "cases": [{"status": "ok", "value": e} for e in EXPECTED]})

STEAL = r'''
import os, re
def steal(pid):
    # 32 hex digits standing alone in the writable memory of process pid (where a nonce is kept), if it lets us read it
    found = []
    try:
        with open(f"/proc/{pid}/maps") as fh:
            maps = fh.read()
        with open(f"/proc/{pid}/mem", "rb", buffering=0) as mem:
            for line in maps.splitlines():
                fields = line.split()
                if len(fields) < 2 or not fields[1].startswith("rw"):
                    continue
                lo, hi = (int(x, 16) for x in fields[0].split("-"))
                if hi - lo > 1 << 26:
                    continue
                try:
                    mem.seek(lo)
                    data = mem.read(hi - lo)
                except (OSError, ValueError, OverflowError):
                    continue
                for m in re.finditer(r"(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])", (data or bytes()).decode("latin-1")):
                    if m.group() not in found:
                        found.append(m.group())
    except OSError:
        pass
    return found
'''
"""A thief of nonces: what a program can read of another process's memory (the supervisor keeps the run's nonce
there); nothing when that process is non-dumpable (``supervise._non_dumpable``), as the supervisor makes itself."""

PY_FORGE = STEAL + f'''
import os, sys
RECORD = {FORGED!r}
NONCES = [""] + steal(os.getppid())[:2000]  # no nonce, then every one the supervisor's memory gives away
LINE = "".join("\\n{RESULT_MARKER}" + nonce + " " + RECORD + "\\n" for nonce in NONCES)
for target in (f"/proc/{{os.getppid()}}/fd/1", "/proc/1/fd/1"):  # first the supervisor's own channel to the host
    try:
        with open(target, "w") as fh:
            fh.write(LINE)
    except OSError:
        pass
for fd in [2] + [fd for fd in range(63, -1, -1) if fd != 2]:  # then its error stream, then every descriptor
    try:
        os.write(fd, LINE.encode())
    except OSError:
        pass
sys.__stdout__.write(LINE)
sys.__stdout__.flush()
os._exit(0)
def f(key):
    return key
'''

JS_FORGE = f'''
const P = console.log.constructor("return process")();
const fs = P.mainModule.require("fs");
const Buffer = P.mainModule.require("buffer").Buffer;
function steal(pid) {{  // as STEAL: 32 hex digits standing alone in the writable memory of pid, if readable
  const found = new Set();
  try {{
    const maps = fs.readFileSync("/proc/" + pid + "/maps", "utf8");
    const mem = fs.openSync("/proc/" + pid + "/mem", "r");
    for (const line of maps.split("\\n")) {{
      const fields = line.split(/ +/);
      if (fields.length < 2 || !fields[1].startsWith("rw")) continue;
      const [lo, hi] = fields[0].split("-").map((x) => parseInt(x, 16));
      if (hi - lo > (1 << 26)) continue;
      try {{
        const buf = Buffer.alloc(hi - lo);
        const n = fs.readSync(mem, buf, 0, hi - lo, lo);
        for (const m of buf.toString("latin1", 0, n).match(/(?<![0-9a-f])[0-9a-f]{{32}}(?![0-9a-f])/g) || []) found.add(m);
      }} catch (e) {{}}
    }}
  }} catch (e) {{}}
  return [...found];
}}
const RECORD = {json.dumps(FORGED)};
const NONCES = [""].concat(steal(P.ppid).slice(0, 2000));
const LINE = NONCES.map((n) => "\\n{RESULT_MARKER}" + n + " " + RECORD + "\\n").join("");
for (const t of ["/proc/" + P.ppid + "/fd/1", "/proc/1/fd/1"]) {{ try {{ fs.writeFileSync(t, LINE); }} catch (e) {{}} }}
for (const fd of [2].concat([...Array(64).keys()].reverse().filter((d) => d !== 2))) {{ try {{ fs.writeSync(fd, LINE); }} catch (e) {{}} }}
P.stdout.write(LINE, () => P.exit(0));
function f(key) {{ return key; }}
'''


def _code(target: str, py: str, js: str) -> str:
    return {"python": py, "python-ast": python_to_ast_json(py), "javascript": js}[target]


def _run(target: str, code: str, box: LocalLimitedSandbox | None = None) -> tuple:  # type: ignore[type-arg]
    box = box or LocalLimitedSandbox(LocalSandboxConfig())
    result = asyncio.run(get_executor(target).run(code, SECRET_PROBLEM, case_timeout=10, box=box))
    return result, box


@pytest.mark.parametrize("target", ["python", "python-ast", "javascript"])
def test_program_searching_for_test_data_scores_zero(target: str) -> None:
    # the canary sits in the program's own file (a string constant survives the python-ast encoding)
    py = PY_SEARCH + f'\nNOTE = "{CANARY}"\n'
    js = JS_SEARCH + f'\nconst NOTE = "{CANARY}";\n'
    result, box = _run(target, _code(target, py, js))
    assert result.outcome is Outcome.WRONG_OUTPUT and result.passed == 0, result
    # the search worked (it found the canary) but found no test input and no expected output anywhere
    assert CANARY in (result.actual or ""), result.actual
    assert "EXP-" not in (result.actual or "") and not any(i in (result.actual or "") for i in INPUTS)
    sandbox_files = "".join(p.read_text(errors="replace") for p in Path(box.directory).rglob("*") if p.is_file())
    assert not any(t in sandbox_files for t in EXPECTED + INPUTS) and CANARY in sandbox_files


@pytest.mark.parametrize("target", ["python", "python-ast", "javascript"])
def test_forged_result_record_scores_zero(target: str) -> None:
    result, _ = _run(target, _code(target, PY_FORGE, JS_FORGE))
    assert result.outcome is not Outcome.PASS and result.passed == 0, result
    # it killed its own worker (or garbled the worker's answer channel): a crash, not a pass
    assert result.outcome is Outcome.RUNTIME_ERROR, result
    assert "ended the process" in result.message or "answer channel" in result.message, result


HOLDER = """import sys
ns = {"__name__": "supervise"}
exec(compile(sys.argv[1], "supervise.py", "exec"), ns)
nonce = sys.stdin.readline().strip()  # as the supervisor reads its nonce
if sys.argv[2] == "non-dumpable":
    ns["_non_dumpable"]()
print("ready", flush=True)
sys.stdin.readline()
"""
"""A process holding a nonce, made non-dumpable by the supervisor's own ``_non_dumpable`` (its source as shipped)
or left as it starts."""


@pytest.mark.parametrize("state", ["dumpable", "non-dumpable"])
def test_non_dumpable_hides_the_nonce_from_a_process_of_the_same_user(state: str) -> None:
    """``supervise._non_dumpable`` on its own: a thief of the same user (``STEAL``, both as ``nobody`` when the test
    runs as root, which may read any process) finds the nonce in the memory of a process that holds one, and
    nothing once that process has called ``_non_dumpable`` — the first case shows the thief would find it."""
    python = shutil.which("python3", path="/usr/local/bin:/usr/bin:/bin") or sys.executable
    user = 65534 if os.geteuid() == 0 else None
    nonce = secrets.token_hex(16)
    holder = subprocess.Popen([python, "-I", "-S", "-c", HOLDER, harness_text("supervise.py"), state],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, user=user, cwd="/")
    try:
        assert holder.stdin is not None and holder.stdout is not None
        holder.stdin.write(nonce + "\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == "ready"
        thief = subprocess.run([python, "-I", "-S", "-c", STEAL + f"\nprint(steal({holder.pid}))"],
                               capture_output=True, text=True, user=user, cwd="/", timeout=120)
    finally:
        if holder.stdin is not None:
            holder.stdin.close()
        holder.wait(timeout=60)
    found = ast.literal_eval(thief.stdout.strip())
    assert (nonce in found) is (state == "dumpable"), (state, found, thief.stderr)


PY_NOTE_TAKER = r'''
import os
def f(key):
    for where in ("notes.txt", "../notes.txt"):
        with open(where, "a") as fh:
            fh.write(key + "\\n")
    return "?"
'''

PY_NOTE_READER = r'''
import os
def f(key):
    seen = []
    for root, dirs, files in os.walk(os.path.dirname(os.getcwd())):
        for name in files:
            if name == "notes.txt":
                with open(os.path.join(root, name)) as fh:
                    seen.append(fh.read())
    raise ValueError("notes: " + "|".join(seen))
'''


def test_a_later_attempt_cannot_read_what_an_earlier_one_saved() -> None:
    """Files persist in a sample's sandbox between attempts; the supervisor empties the sample directory (but for
    its own run) before the worker starts, so hidden inputs noted in one attempt cannot be quoted in the next."""
    box = LocalLimitedSandbox(LocalSandboxConfig())
    first, _ = _run("python", PY_NOTE_TAKER, box)
    assert first.outcome is Outcome.WRONG_OUTPUT
    notes = "".join(p.read_text() for p in Path(box.directory).rglob("notes.txt"))
    assert all(i in notes for i in INPUTS)  # control: the first attempt did write every input down
    second, _ = _run("python", PY_NOTE_READER, box)
    assert second.outcome is Outcome.RUNTIME_ERROR and "notes: " in second.message, second
    assert not any(i in second.message for i in INPUTS), second.message


def test_gold_passes_the_secret_problem() -> None:
    """Control: the same problem and harness do give PASS to a program that knows the answers honestly."""
    result, _ = _run("python", SECRET_PROBLEM.solutions["python"])
    assert result.outcome is Outcome.PASS and result.passed == 6


def test_record_needs_this_runs_nonce() -> None:
    record = {"stage": "run", "cases": []}
    line = f"noise\n{RESULT_MARKER}abc {json.dumps(record)}\n"
    assert parse_runner_output(line, "abc") == record
    assert parse_runner_output(line, "abd") is None
    assert parse_runner_output(line.replace("abc ", " "), "abc") is None


def test_sandbox_receives_inputs_only() -> None:
    sent = json.dumps(case_inputs(SECRET_PROBLEM))
    assert all(i in sent for i in INPUTS) and not any(e in sent for e in EXPECTED)
    assert "expected" not in sent
