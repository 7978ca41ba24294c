"""Checking a reply that should hold a program: extract, validate, decode with its format, parse the program in
the format's language (``coonbench.languages``: ``Format.language``).

Shared by ``solvers.retry`` (which feeds the error back) and ``scorers.code`` (which scores the final reply), so
both judge a reply the same way. Never raises for bad text: the error and its kind are the result.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from inspect_ai.solver import TaskState

from coonbench.answers.extract import extract_code
from coonbench.formats import Format, FormatError, format_label, get_format, language_of
from coonbench.languages import Language

# error kinds
NO_ANSWER = "NO_ANSWER"
PARSE_ERROR = "PARSE_ERROR"
DECODE_ERROR = "DECODE_ERROR"
WRONG_OUTPUT = "WRONG_OUTPUT"

NO_CODE_FEEDBACK = "no program was found in your reply"



@dataclass
class AnswerCheck:
    """What one reply amounts to: its code, the decoded program, or the first error and its kind."""

    code: str | None
    decoded: str | None = None
    error_kind: str | None = None  # None: the reply decodes to a program of the format's language
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
    language = language_of(fmt)
    e = language.parse_error(decoded)
    if e is not None:
        return AnswerCheck(
            code,
            decoded=decoded,
            error_kind=DECODE_ERROR,
            error=f"it decodes to {language.label} with a syntax error at {_where(e.line, e.column)}{e.message}",
            line=e.line,
            column=e.column,
        )
    if format_name in language.plain_formats and (why := _spelling_error(fmt, code)):
        return AnswerCheck(code, decoded=decoded, error_kind=PARSE_ERROR,
                           error=f"the reply is not {format_label(format_name)}: {why}",
                           expected=f"the program written as {format_label(format_name)}")
    if format_name not in language.plain_formats and _is_untranslated(code, decoded, fmt, language):
        return AnswerCheck(
            code,
            decoded=decoded,
            error_kind=PARSE_ERROR,
            error=f"the reply is plain {language.label}, not {format_label(format_name)}",
            expected=f"the program written in {format_label(format_name)} notation",
        )
    return AnswerCheck(code, decoded=decoded)


def _spelling_error(fmt: Format, code: str) -> str | None:
    try:
        return fmt.spelling_error(code)
    except Exception as err:  # noqa: BLE001 - a checker crash on garbage is the answer's failure
        return f"its layout cannot be read ({err})"


def _is_untranslated(code: str, decoded: str, fmt: Format, language: Language) -> bool:
    """A reply asked for in a notation over the language (COON over Dart) that is just the language: it parses as
    a program and is not the notation's own spelling of that program. Echoing the input must not pass for a
    translation."""
    if language.parse_error(code) is not None:
        return False
    try:
        canonical = fmt.encode(decoded)
    except FormatError:
        return True
    return "".join(canonical.split()) != "".join(code.split())


def answer_format(state: TaskState) -> str:
    """The format a sample's answer is written in."""
    return str(state.metadata.get("answer_format") or state.metadata.get("encoding") or state.metadata["format"])
