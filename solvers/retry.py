"""Feedback retries: a model that writes an invalid program is told where it went wrong and may try again.

After each reply the code is extracted (``coonbench.extract.extract_code``), validated and decoded with the
answer's format (``metadata["answer_format"]``, else ``metadata["format"]``), and the decoded Dart is parsed.
On failure the error (line, column, what was expected) goes back as a user message and the model regenerates, up
to ``max_retries`` times. Every attempt is recorded in the store under ``ATTEMPTS_KEY`` (also in the log).
Only syntax is fed back, never correctness: the scorer alone knows the reference.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from inspect_ai.model import ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver

from coonbench.dart import DartParseError, parse_dart
from coonbench.extract import extract_code
from coonbench.formats import FormatError, get_format

ATTEMPTS_KEY = "coonbench_attempts"

# error kinds (shared with scorers/code.py)
NO_ANSWER = "NO_ANSWER"
PARSE_ERROR = "PARSE_ERROR"
DECODE_ERROR = "DECODE_ERROR"
WRONG_OUTPUT = "WRONG_OUTPUT"

FEEDBACK_PROMPT = """Your reply is not a valid {format_label} program: {error}
Reply again with the complete, corrected program in one ```{fence} code block."""

NO_CODE_FEEDBACK = "no program was found in your reply"

FORMAT_LABELS: dict[str, str] = {"coon": "COON", "dart": "Dart", "dart-minified": "minified Dart"}
DART_FORMATS = frozenset({"dart", "dart-minified"})  # answers in these are Dart by definition


@dataclass
class AnswerCheck:
    """What one reply amounts to: its code, the decoded Dart, or the first error and its kind."""

    code: str | None
    decoded: str | None = None
    error_kind: str | None = None  # None: the reply decodes to a Dart program
    error: str = ""
    line: int | None = None
    column: int | None = None
    expected: str | None = None

    @property
    def ok(self) -> bool:
        return self.error_kind is None

    def record(self, attempt: int) -> dict[str, Any]:
        out = asdict(self)
        out.pop("decoded")
        out["attempt"] = attempt
        return out


def _where(line: int | None, column: int | None) -> str:
    if line is None:
        return ""
    return f"line {line}" + (f", column {column}" if column is not None else "") + ": "


def check_answer(text: str | None, format_name: str) -> AnswerCheck:
    """Extract, validate, decode and parse one reply; never raises for bad text."""
    fmt = get_format(format_name)
    try:
        code = extract_code(text or "", fmt.fence)
    except Exception as err:  # noqa: BLE001 - a garbage reply must not crash the eval
        return AnswerCheck(None, error_kind=NO_ANSWER, error=f"could not read the reply ({err})")
    if code is None or not code.strip():
        return AnswerCheck(code, error_kind=NO_ANSWER, error=NO_CODE_FEEDBACK)
    try:
        errors = fmt.validate(code)
    except Exception as err:  # noqa: BLE001 - a validator crash on garbage is the answer's failure
        errors = [FormatError(f"validator failed: {err}")]
    if errors:
        e = errors[0]
        msg = _where(e.line, e.column) + e.message + (f" (expected {e.expected})" if e.expected else "")
        return AnswerCheck(code, error_kind=PARSE_ERROR, error=msg, line=e.line, column=e.column, expected=e.expected)
    try:
        decoded = fmt.decode(code)
    except FormatError as e:
        msg = _where(e.line, e.column) + e.message + (f" (expected {e.expected})" if e.expected else "")
        return AnswerCheck(code, error_kind=DECODE_ERROR, error=msg, line=e.line, column=e.column, expected=e.expected)
    except Exception as err:  # noqa: BLE001
        return AnswerCheck(code, error_kind=DECODE_ERROR, error=f"decoder failed: {err}")
    if not isinstance(decoded, str):
        return AnswerCheck(code, error_kind=DECODE_ERROR, error="the reply does not decode to source code")
    try:
        parse_dart(decoded)
    except DartParseError as e:
        return AnswerCheck(
            code,
            decoded=decoded,
            error_kind=DECODE_ERROR,
            error=f"it decodes to Dart with a syntax error at {_where(e.line, e.column)}{e.message}",
            line=e.line,
            column=e.column,
        )
    if format_name not in DART_FORMATS and _is_untranslated_dart(code, decoded, fmt):
        return AnswerCheck(
            code,
            decoded=decoded,
            error_kind=PARSE_ERROR,
            error=f"the reply is plain Dart, not {FORMAT_LABELS.get(format_name, format_name)}",
            expected=f"the program written in {FORMAT_LABELS.get(format_name, format_name)} notation",
        )
    return AnswerCheck(code, decoded=decoded)


def _is_untranslated_dart(code: str, decoded: str, fmt: Any) -> bool:
    """A reply asked for in a Dart-superset notation (COON) that is just Dart: it parses as a Dart program and is
    not the notation's own spelling of that program. Echoing the input must not pass for a translation."""
    try:
        parse_dart(code)
    except DartParseError:
        return False
    try:
        canonical = fmt.encode(decoded)
    except FormatError:
        return True
    return "".join(canonical.split()) != "".join(code.split())


def answer_format(state: TaskState) -> str:
    """The format a sample's answer is written in."""
    return str(state.metadata.get("answer_format") or state.metadata.get("encoding") or state.metadata["format"])


@solver(name="coonbench/retry_generate")
def retry_generate(max_retries: int = 2) -> Solver:
    """Generate; while the reply does not validate and decode, feed the error back (at most ``max_retries``)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        fmt_name = answer_format(state)
        fmt = get_format(fmt_name)
        attempts: list[dict[str, Any]] = []
        for attempt in range(1, max_retries + 2):
            state = await generate(state)
            check = check_answer(state.output.completion if state.output else "", fmt_name)
            attempts.append(check.record(attempt))
            state.store.set(ATTEMPTS_KEY, attempts)
            if check.ok or attempt > max_retries or state.completed:
                break
            state.messages.append(
                ChatMessageUser(
                    content=FEEDBACK_PROMPT.format(
                        format_label=FORMAT_LABELS.get(fmt_name, fmt_name), error=check.error, fence=fmt.fence
                    )
                )
            )
        return state

    return solve
