"""One executor interface: a target language turns (code, problem) into a classified attempt outcome.

Adding a language = one ``Executor`` subclass registered with ``register_executor``. The executor only builds
files and a worker command; running always goes through Inspect's ``sandbox()`` (docker or coonbench-local).

Grading cannot be gamed from inside the sandbox: the sandbox receives the test *inputs* only (expected outputs
and errors stay here, in ``classify_cases``), the candidate runs in a worker process under
``harness/supervise.py``, and the record (the supervisor's result file, read back as bytes) is accepted only after
``RESULT_MARKER`` followed by a per-run nonce that the host hands to the supervisor on stdin (never in a file,
argument or environment variable). The inputs go as bytes and the record comes back as bytes, so the transcript's
sandbox events show their sizes, never a test input or an answer.
"""

from __future__ import annotations

import abc
import asyncio
import json
import math
import re
import secrets
import uuid
from functools import lru_cache
from dataclasses import asdict, dataclass, field
from enum import Enum
from importlib.resources import files
from typing import Any, ClassVar

from inspect_ai.util import OutputLimitExceededError, SandboxEnvironment, sandbox

from coonbench.execution.harness.supervise import MAX_DEPTH, RESULT_FILE, nesting_depth
from coonbench.execution.problem import Problem, TestCase
from coonbench.execution.types import describe_value, type_mismatch
from coonbench.tasks.samples import TaskArgumentError, did_you_mean

RESULT_MARKER = "@@COONBENCH-RESULT@@"


class Outcome(str, Enum):
    """The Goth error taxonomy plus success."""

    PASS = "PASS"
    PARSE_ERROR = "PARSE_ERROR"
    TYPE_ERROR = "TYPE_ERROR"
    RUNTIME_ERROR = "RUNTIME_ERROR"
    WRONG_OUTPUT = "WRONG_OUTPUT"
    TIMEOUT = "TIMEOUT"


ERROR_TYPES = [o for o in Outcome if o is not Outcome.PASS]


def _unencodable(code: str) -> str | None:
    """Why ``code`` cannot be written as a UTF-8 source file (a lone surrogate), or None."""
    try:
        code.encode("utf-8")
    except UnicodeEncodeError as err:
        line = code.count("\n", 0, err.start) + 1
        column = err.start - (code.rfind("\n", 0, err.start) + 1) + 1
        return f"the program is not valid text: lone surrogate U+{ord(code[err.start]):04X} at line {line}, column {column}"
    return None


class ExecutorUnavailable(RuntimeError):
    """The target cannot run here (e.g. no ``goth`` binary); raised at task creation."""


@dataclass
class AttemptResult:
    """What one attempt did: outcome, the first failing case (fed back to the model) and counts."""

    outcome: Outcome
    message: str = ""
    case_index: int | None = None
    call: str | None = None
    expected: str | None = None
    actual: str | None = None
    passed: int = 0
    total: int = 0
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def parsed(self) -> bool:
        """Did the program parse (Goth's 'parse success')?"""
        return self.outcome is not Outcome.PARSE_ERROR

    def to_record(self) -> dict[str, Any]:
        """JSON-safe record for the store / log."""
        record = asdict(self)
        record["outcome"] = self.outcome.value
        return record


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, dict) or "__fn__" not in value else "<function>"


def values_equal(actual: Any, expected: Any, tolerance: float | None) -> bool:
    """Deep equality; numbers with ``tolerance`` (absolute) or math.isclose(rel 1e-9, abs 1e-12)."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(expected, bool) and isinstance(actual, bool) and actual == expected
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        if isinstance(expected, int) and isinstance(actual, int) and tolerance is None:
            return actual == expected
        try:
            if tolerance is not None:
                return abs(actual - expected) <= tolerance
            return math.isclose(actual, expected, rel_tol=1e-9, abs_tol=1e-12)
        except OverflowError:  # an integer too large for a float is no float's neighbour
            return False
    if isinstance(expected, list) and isinstance(actual, list):
        return len(actual) == len(expected) and all(values_equal(a, e, tolerance) for a, e in zip(actual, expected))
    if isinstance(expected, dict) and isinstance(actual, dict):
        return set(actual) == set(expected) and all(values_equal(actual[k], expected[k], tolerance) for k in expected)
    return type(actual) is type(expected) and actual == expected


# Exception types a hidden RUNTIME_ERROR may name (Python's and JavaScript's built-ins, and the supervisor's
# ProcessExit). The worker runs the program's code, so the name it reports is the program's choice: it is checked
# here, on the host, against this fixed list, and any other name is counted as "other" (a program that names its
# exception after the hidden input it was given would otherwise read every hidden input in the feedback).
BUILTIN_ERRORS = (
    "AssertionError", "AttributeError", "IndexError", "KeyError", "MemoryError", "NameError", "OverflowError",
    "RecursionError", "UnboundLocalError", "ValueError", "ZeroDivisionError", "Error", "RangeError",
    "ReferenceError", "ProcessExit",
)
OTHER_ERROR = "other"
HIDDEN_LABELS = (
    *(f"{Outcome.RUNTIME_ERROR.value} ({name})" for name in (*BUILTIN_ERRORS, OTHER_ERROR)),
    Outcome.TYPE_ERROR.value, Outcome.WRONG_OUTPUT.value, Outcome.TIMEOUT.value,
)
"""Every label a hidden failure can be counted under: the hidden part of the feedback is a count per label."""


def hidden_label(outcome: Outcome, res: dict[str, Any]) -> str:
    """How a hidden failure is counted: its error type, and for a raised error that is no type error the
    exception's type when it is one of ``BUILTIN_ERRORS``, else ``other``. Always one of ``HIDDEN_LABELS``."""
    if outcome is Outcome.RUNTIME_ERROR:
        name = res.get("error") if res.get("status") == "error" else None
        return f"{outcome.value} ({name if name in BUILTIN_ERRORS else OTHER_ERROR})"
    return outcome.value if outcome in (Outcome.TYPE_ERROR, Outcome.TIMEOUT) else Outcome.WRONG_OUTPUT.value


def label_outcome(label: str) -> Outcome:
    """The error type a hidden label counts."""
    return Outcome(label.split(" ", 1)[0])


def hidden_outcome(counts: dict[str, int]) -> Outcome:
    """The outcome of an attempt whose public tests pass: the error type with the most hidden failures (ties in
    ``ERROR_TYPES`` order). A function of the counts alone, so it tells nothing about which hidden test failed."""
    per_type: dict[Outcome, int] = {kind: 0 for kind in ERROR_TYPES}
    for label, n in counts.items():
        per_type[label_outcome(label)] += n
    return max(ERROR_TYPES, key=lambda kind: (per_type[kind], -ERROR_TYPES.index(kind)))


def classify_cases(problem: Problem, record: dict[str, Any]) -> AttemptResult:
    """Turn a runner's JSON record (parse / load / per-case results) into an AttemptResult.

    Public tests come first in the record. The first failing public test is quoted (call, expected, actual);
    hidden failures are only counted, per label of ``HIDDEN_LABELS``, in ``details["hidden_failures"]``: the
    feedback carries no text the program chose after it saw a hidden input.
    """
    tests = problem.all_tests
    total = len(tests)
    n_public = len(problem.public_tests)
    stage = record.get("stage")
    if stage == "parse":
        return AttemptResult(Outcome.PARSE_ERROR, f"{record.get('error')}: {record.get('message')}", total=total)
    if stage == "load":
        if record.get("status") == "timeout":
            return AttemptResult(Outcome.TIMEOUT, str(record.get("message")), total=total)
        kind = Outcome.TYPE_ERROR if record.get("type_error") else Outcome.RUNTIME_ERROR
        return AttemptResult(kind, f"{record.get('error')}: {record.get('message')}", total=total)
    if stage != "run" or not isinstance(record.get("cases"), list) or len(record["cases"]) != total:
        return AttemptResult(Outcome.RUNTIME_ERROR, f"the runner failed (stage {str(stage)[:40]!r})", total=total)
    first: AttemptResult | None = None
    hidden: dict[str, int] = {}
    passed = 0
    for i, (case, res) in enumerate(zip(tests, record["cases"])):
        res = res if isinstance(res, dict) else {}
        failure = check_case(problem, case, res)
        if failure is None:
            passed += 1
        elif i >= n_public:
            label = hidden_label(failure[0], res)
            hidden[label] = hidden.get(label, 0) + 1
        elif first is None:
            outcome, message, actual = failure
            expected = "an error (invalid input)" if getattr(case, "expected_error", None) else problem.expected_text(case)
            first = AttemptResult(outcome, message, case_index=i, call=problem.call_text(case), expected=expected,
                                  actual=actual, total=total)
    details: dict[str, Any] = {"public": n_public, "hidden": total - n_public, "hidden_failures": hidden}
    if first is None and not hidden:
        return AttemptResult(Outcome.PASS, "all tests passed", passed=passed, total=total, details=details)
    if first is None:
        first = AttemptResult(hidden_outcome(hidden), f"all {n_public} public tests pass", total=total)
    first.passed = passed
    first.details = details
    return first


def check_case(problem: Problem, case: Any, res: dict[str, Any]) -> tuple[Outcome, str, str] | None:
    """None when the case passes, else (outcome, message, actual). Cases with their own ``judge`` (HumanEval's
    assertions) decide themselves; problem-file cases compare by type and value."""
    judge = getattr(case, "judge", None)
    if judge is not None:
        return judge(res)
    ret_type = problem.signature.return_type
    if ret_type.kind == "fn":
        ret_type = ret_type.args[-1]
    return _check_case(problem, case, res, ret_type)


def _check_case(problem: Problem, case: TestCase, res: dict[str, Any], ret_type: Any) -> tuple[Outcome, str, str] | None:
    status = res.get("status")
    if status == "timeout":
        return Outcome.TIMEOUT, "the call exceeded the time limit", "(no result: timed out)"
    if status == "error":
        raised = f"raised {res.get('error')}: {res.get('message')}"
        if case.expected_error is not None and res.get("value_error"):
            return None
        if res.get("type_error"):
            return Outcome.TYPE_ERROR, raised, raised
        return Outcome.RUNTIME_ERROR, raised, raised
    value = res.get("value")
    if case.expected_error is not None:
        return Outcome.WRONG_OUTPUT, "expected an error for invalid input, but the call returned", _show(value)
    mismatch = type_mismatch(value, ret_type)
    if mismatch:
        return Outcome.TYPE_ERROR, f"wrong return type: {mismatch}", f"{_show(value)} ({describe_value(value)})"
    if not values_equal(value, case.expected, case.tolerance):
        tol = f" (tolerance {case.tolerance})" if case.tolerance is not None else ""
        return Outcome.WRONG_OUTPUT, f"wrong result{tol}", _show(value)
    return None


MAX_RECORD_DEPTH = MAX_DEPTH + 4  # a record wraps the supervisor's answers in {"cases": [...]}; deeper is forged
RECORD_BYTES = 2 * 1024 * 1024  # a larger result file is no result (each answer is at most 1 MiB already)
RECORD_CONTAINERS = 65_536
"""A record with more ``[`` and ``{`` than this is no result, counted in its text before it is parsed: each list
or dict costs the host far more than its two bytes (2 MiB of ``[],`` took 0.4 s in one C call of ``json.loads``,
the garbage collector walking every list made so far, then seconds to check and decode). The largest record a
correct program makes holds under a thousand (HumanEval/87's 126 tests; ``tests/test_answer_cost.py``)."""


def parse_runner_output(stdout: str, nonce: str) -> dict[str, Any] | None:
    """The JSON record on the line that starts with ``RESULT_MARKER`` + this run's nonce, or None (also when it
    is not JSON, holds more than ``RECORD_CONTAINERS`` lists and dicts, nests deeper than ``MAX_RECORD_DEPTH`` or
    holds a number Python will not read)."""
    tag = RESULT_MARKER + nonce + " "
    for line in stdout.splitlines():
        if line.startswith(tag):
            if line.count("[") + line.count("{") > RECORD_CONTAINERS:  # brackets in strings count too: stricter
                return None
            try:
                record = json.loads(line[len(tag):])
            except (ValueError, RecursionError):
                return None
            if not isinstance(record, dict) or nesting_depth(record, MAX_RECORD_DEPTH) > MAX_RECORD_DEPTH:
                return None
            return record
    return None


def no_result_message(returncode: int, stderr: str) -> str:
    """What the model reads when the run printed no record: one of a few fixed texts. The program may have ended
    the run on purpose after it saw a hidden input, so neither its exit code nor any text of its choosing (a file
    name in a copy error, say) is quoted; the log keeps the stderr tail in the details."""
    if "memory budget" in stderr or returncode == -9:
        why = "killed: the sample's memory budget or a limit was exceeded"
    elif "CPU time limit" in stderr or returncode == -24:
        why = "the CPU time limit was exceeded"
    elif returncode < 0:
        why = "killed by a signal"
    else:
        why = "the supervisor exited"
    return f"the run ended without a result ({why})"


def safe_text(text: str | None) -> str | None:
    """Text that any log writer accepts: lone surrogates (a program can return or raise them) replaced."""
    if text is None:
        return None
    return text.encode("utf-8", "replace").decode("utf-8")


def case_inputs(problem: Problem) -> list[dict[str, Any]]:
    """What the sandbox may see of the tests, public first: the arguments (and ``then_call``), never the expected
    outcome. They reach the supervisor on its stdin and the program one at a time."""
    return [{"input": c.input, **({"then_call": c.then_call} if c.then_call is not None else {})}
            for c in problem.all_tests]


HOST_FILES = ("/etc/passwd", "/etc/group", "/etc/hostname", "/etc/hosts", "/etc/resolv.conf", "/etc/machine-id")
REDACTED = "[host file content redacted]"


@lru_cache(maxsize=1)
def _host_lines() -> tuple[str, ...]:
    lines: set[str] = set()
    for path in HOST_FILES:
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                lines.update(line.strip() for line in fh.read(1 << 20).splitlines() if len(line.strip()) >= 8)
        except OSError:
            continue
    return tuple(sorted(lines, key=len, reverse=True))


def redact_host_files(text: str | None) -> str | None:
    """Feedback goes back to the model: lines of well-known host files are cut out of it (a second line of
    defence where the sandbox could not hide those files; the jail's root view does not contain them)."""
    if not text:
        return text
    for line in _host_lines():
        if line in text:
            text = text.replace(line, REDACTED)
    return text


HIDDEN_REDACTED = "[hidden test data redacted]"
MIN_REDACTED_CHARS = 4  # shorter texts (0, [], "a") are too common to mean a leak


def hidden_secrets(problem: Problem) -> list[str]:
    """The hidden texts feedback must never carry (longest first), less those a public test shows anyway and those
    too short to mean a leak."""
    public = {problem.call_text(c) for c in problem.public_tests} | {problem.expected_text(c) for c in problem.public_tests}
    secrets_ = set(problem.hidden_texts()) - public
    return sorted((s for s in secrets_ if len(s) >= MIN_REDACTED_CHARS), key=len, reverse=True)


def redact_hidden(text: str | None, secrets_: list[str]) -> str | None:
    """Feedback quotes what the program printed or returned. Each attempt starts from an empty sample directory
    (``supervise.forget_earlier_runs``), so a program cannot read hidden inputs noted in an earlier attempt; as a
    second line of defence, any hidden text it echoes is cut out here, host side."""
    if not text:
        return text
    for secret in secrets_:
        if secret in text:
            text = text.replace(secret, HIDDEN_REDACTED)
    return text


FEEDBACK_CHARS = 2000  # of what a program printed, raised or returned, per field of the feedback


def _bounded(text: str | None) -> str | None:
    """A program can answer with a megabyte (straight on the answer channel): the model reads its start."""
    if text is None or len(text) <= FEEDBACK_CHARS:
        return text
    return f"{text[:FEEDBACK_CHARS]}… [{len(text) - FEEDBACK_CHARS} more characters]"


def _redacted(problem: Problem, result: AttemptResult) -> AttemptResult:
    secrets_ = hidden_secrets(problem)
    for name in ("message", "actual"):  # cut after redaction, so that no secret is cut in two first
        setattr(result, name, _bounded(safe_text(redact_hidden(redact_host_files(getattr(result, name)), secrets_))))
    for name in ("expected", "call"):
        setattr(result, name, safe_text(redact_host_files(getattr(result, name))))
    return result


def harness_text(name: str) -> str:
    """Source of a runner program shipped in ``coonbench/execution/harness``."""
    return files("coonbench.execution.harness").joinpath(name).read_text(encoding="utf-8")


class Executor(abc.ABC):
    """A target language: how to prompt for it, where its code sits in a reply, how to run it."""

    name: ClassVar[str]  # target name (-T target=…)
    label: ClassVar[str]  # human name used in prompts
    fence: ClassVar[str]  # code-fence language the model should use
    extension: ClassVar[str]
    # how a block of this language defines the entry point: a regular expression with ``{name}`` for its name
    definition: ClassVar[str | None] = None
    # it runs a program of this machine (Goth's interpreter) that the Docker image lacks: local sandbox only
    host_binary: ClassVar[bool] = False
    # what the correction prompt says of it: how to fail on invalid input, how to reply (``{name}``: the function),
    # the system message it comes with, and how its signature is written (``python``, ``javascript``, ``goth``)
    error_rule: ClassVar[str] = "For invalid input, fail with an error."
    reply_rule: ClassVar[str] = ""
    system_primer: ClassVar[str | None] = None
    signature_style: ClassVar[str] = "python"

    def defines(self, code: str, name: str) -> bool:
        """Does ``code`` define the function ``name``? (Chooses the graded block among several.)"""
        return self.definition is not None and re.search(self.definition.format(name=re.escape(name)), code) is not None

    def check_available(self) -> None:
        """Raise ExecutorUnavailable when this target cannot run here."""

    def covers(self, problem: Problem) -> bool:
        """Whether this target asks ``problem`` (Goth only where a verified reference program exists)."""
        return True

    @abc.abstractmethod
    def command(self, solution: str, problem: Problem, case_timeout: float) -> list[str]:
        """The worker command (paths relative to the run directory); it speaks ``supervise.py``'s protocol."""

    @abc.abstractmethod
    def runner_files(self) -> dict[str, str]:
        """Worker files to place next to the solution."""

    def reference(self, problem: Problem) -> str | None:
        """This target's reference program (the gold reply's code), when one exists."""
        return problem.solutions.get(self.name)  # type: ignore[call-overload]

    def gold_reply(self, problem: Problem) -> str | None:
        """The reply of a perfect model: the reference in one fenced block."""
        code = self.reference(problem)
        return None if code is None else f"```{self.fence}\n{code.strip()}\n```"

    async def write_solution(self, box: SandboxEnvironment, code: str) -> tuple[str, str]:
        """A fresh run folder in ``box`` with the program in it: (the folder, the program's file name in it)."""
        run_dir = f"run-{uuid.uuid4().hex[:12]}"
        solution = f"solution.{self.extension}"
        await box.write_file(f"{run_dir}/{solution}", code)
        return run_dir, solution

    async def run(
        self, code: str, problem: Problem, case_timeout: float = 2.0, box: SandboxEnvironment | None = None
    ) -> AttemptResult:
        """Run every test case in the sandbox (default: the sample's) and classify the outcome.

        Never raises because of the code itself: bad code is an outcome.
        """
        box = box or sandbox()
        total = len(problem.all_tests)
        unencodable = _unencodable(code)
        if unencodable:
            return AttemptResult(Outcome.PARSE_ERROR, unencodable, total=total)
        run_dir, solution = await self.write_solution(box, code)
        files_ = {"supervise.py": harness_text("supervise.py"), **self.runner_files()}
        for fname, text in files_.items():
            await box.write_file(f"{run_dir}/{fname}", text)
        nonce = secrets.token_hex(16)
        wall = math.ceil((case_timeout + 1.0) * total + 15.0)
        supervisor = ["python3", "-I", "-S", "supervise.py", str(case_timeout), "--"]
        # bytes: the transcript's sandbox event shows their size, not the test inputs
        stdin = "".join(json.dumps(c) + "\n" for c in [nonce, *case_inputs(problem)]).encode("utf-8")
        try:
            result = await box.exec(
                supervisor + self.command(solution, problem, case_timeout),
                input=stdin,
                cwd=run_dir,
                timeout=wall,
                timeout_retry=False,
            )
        except TimeoutError:
            return AttemptResult(Outcome.TIMEOUT, f"the program exceeded the {wall} s time limit", total=total)
        except OutputLimitExceededError as exc:
            return AttemptResult(Outcome.RUNTIME_ERROR, f"the run wrote too much output ({exc.limit_str})", total=total)
        text = await _result_text(box, f"{run_dir}/{RESULT_FILE}")
        # The program's answers are read, decoded and compared in a worker thread, off the event loop every
        # other sample of the run shares: their cost is bounded (a record of at most RECORD_BYTES, sets and dict
        # keys of at most MAX_SAME_HASH elements per hash, no recursion past MAX_RECORD_DEPTH), and what remains
        # of it is paid here, by this attempt, not by the samples beside it (tests/test_answer_cost.py).
        return await asyncio.to_thread(judge_record, problem, text, nonce, result.returncode, result.stderr or "")


def judge_record(problem: Problem, text: str, nonce: str, returncode: int, stderr: str) -> AttemptResult:
    """The attempt's result from the supervisor's result file: its record (``parse_runner_output``) classified
    and redacted, or a RUNTIME_ERROR when there is no record. Pure computation on bounded data: ``Executor.run``
    calls it in a worker thread."""
    record = parse_runner_output(text, nonce)
    if record is None:
        return AttemptResult(Outcome.RUNTIME_ERROR, no_result_message(returncode, stderr),
                             total=len(problem.all_tests),
                             details={"returncode": returncode, "stderr": safe_text(stderr[-600:])})
    return _redacted(problem, classify_cases(problem, record))


async def _result_text(box: SandboxEnvironment, path: str) -> str:
    """The supervisor's result file, read as bytes (the transcript records its size only, not the answers it
    holds); empty when it is missing, not a file, or larger than ``RECORD_BYTES``."""
    try:
        data = await box.read_file(path, text=False)
    except (OSError, OutputLimitExceededError, UnicodeDecodeError):
        return ""
    return data.decode("utf-8", errors="replace") if len(data) <= RECORD_BYTES else ""


_EXECUTORS: dict[str, Executor] = {}


def register_executor(executor: Executor) -> Executor:
    """Make a target available by name."""
    _EXECUTORS[executor.name] = executor
    return executor


def get_executor(name: str) -> Executor:
    """The executor for a target; TaskArgumentError (a ValueError) lists the known ones."""
    if name not in _EXECUTORS:
        known = sorted(_EXECUTORS)
        raise TaskArgumentError(
            f"-T target={name}: unknown target '{name}'{did_you_mean(name, known)} (expected one of {', '.join(known)})"
        )
    return _EXECUTORS[name]


def list_executors() -> list[str]:
    """Registered target names."""
    return sorted(_EXECUTORS)
