"""Upstream's Goth benchmark cases, run with upstream's own reference programs on the built interpreter.

Why: this is the proof that the interpreter built here (upstream's parser, checker and evaluator with our
lexer and command line) is Goth. The rules are upstream's runner's (``benchmark/run_tests.py``, described in
``../shared/reference/goth/README.md``): ``goth FILE ARG…`` (``--from-json`` for a ``json_ast`` suite), a
10-second limit, output starting ``Error:``/``Load error:`` or a non-zero exit meaning an error, ``⊤``/``⊥``
equal to ``true``/``1``/``false``/``0``, numbers by ``math.isclose`` (relative 1e-9, absolute 1e-12, a case's
``tolerance``/``abstol`` the absolute and ``reltol`` the relative one), anything else as stripped text.
``expected_error`` passes when the program fails and the message names the kind (``type_error`` as "type",
``runtime`` as any error; otherwise the word itself).
"""

from __future__ import annotations

import json
import math
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CORE_SUITES = ("basic", "recursion", "algorithms", "higher_order", "numeric", "io", "contracts", "uncertainty")
"""The core suite (55 tests, 176 cases)."""
TIMEOUT_S = 10.0
TRUE_WORDS = ("⊤", "true", "True", "1")
FALSE_WORDS = ("⊥", "false", "False", "0")
ERROR_PREFIXES = ("Error:", "Load error:")
UNIT = "()"
"""An expected unit result: the command line prints nothing for unit (an I/O program's own output is its
effect, not its result), so such a case passes when the program runs without error."""


@dataclass(frozen=True)
class Run:
    """One interpreter call: what it printed and whether that counts as an error."""

    output: str
    error: bool
    timed_out: bool = False


@dataclass
class CaseResult:
    """One case's verdict with its evidence."""

    suite: str
    test: str
    index: int
    passed: bool
    evidence: str = ""


@dataclass
class Conformance:
    """All cases' verdicts."""

    results: list[CaseResult] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    def failures(self) -> list[CaseResult]:
        return [r for r in self.results if not r.passed]


def render_input(value: Any) -> str:
    """A case input as the command-line word upstream's runner passes (``str`` of the JSON value)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def render_inputs(category: str, inputs: list[Any]) -> list[str]:
    """A case's inputs as arguments. The uncertainty suite lists each uncertain argument as two numbers
    (value, uncertainty) while its programs take ``F64 ± F64`` values: each pair is one ``v±u`` word, which the
    command line reads as an uncertain value."""
    words = [render_input(v) for v in inputs]
    if category == "uncertainty" and len(words) % 2 == 0:
        return [f"{words[i]}±{words[i + 1]}" for i in range(0, len(words), 2)]
    return words


def run_goth(binary: str, program: Path, args: list[str], json_ast: bool = False,
             timeout: float = TIMEOUT_S, flags: tuple[str, ...] = ()) -> Run:
    """Call the interpreter once, in the program's folder; ``--from-json``'s ``OK: …`` progress lines are not
    part of the result. ``flags`` go before the file (``--strict``, the grading mode)."""
    program = program.resolve()
    mode = [*flags, "--from-json"] if json_ast else list(flags)
    cmd = [binary, *mode, str(program), *args]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=program.parent)
    except subprocess.TimeoutExpired:
        return Run("timeout", True, True)
    stdout = "\n".join(ln for ln in out.stdout.splitlines() if not (json_ast and ln.startswith("OK: ")))
    stdout, stderr = stdout.strip(), out.stderr.strip()
    error = out.returncode != 0 or stdout.startswith(ERROR_PREFIXES) or stderr.startswith(ERROR_PREFIXES)
    return Run((stderr if error and stderr else stdout) if error else stdout, error)


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def matches(output: str, expected: Any, case: dict[str, Any]) -> bool:
    """Upstream's comparison of a printed result with the expected value."""
    out = output.strip()
    if expected is True or expected == "⊤":
        return out in TRUE_WORDS
    if expected is False or expected == "⊥":
        return out in FALSE_WORDS
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        got = _number(out)
        if got is None:
            return False
        abs_tol = case.get("tolerance", case.get("abstol", 1e-12))
        return math.isclose(got, float(expected), rel_tol=case.get("reltol", 1e-9), abs_tol=abs_tol)
    if isinstance(expected, list):
        return _list_matches(out, expected)
    return out == str(expected).strip()


def printed_structure(out: str) -> Any:
    """A printed array or tuple (``[1 2 3]``, ``[⟨1, 0⟩ ⟨2, 1⟩]``) as nested lists of words, or None when it
    is not one. Iterative (a stack), so a deeply nested output cannot exhaust the recursion limit."""
    text = out.replace("⟨", " [ ").replace("⟩", " ] ").replace("[", " [ ").replace("]", " ] ").replace(",", " ")
    stack: list[list[Any]] = [[]]
    for word in text.split():
        if word == "[":
            stack.append([])
        elif word == "]":
            if len(stack) == 1:
                return None
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(word)
    top = stack[0]
    return top[0] if len(stack) == 1 and len(top) == 1 and isinstance(top[0], list) else None


def _list_matches(out: str, expected: list[Any]) -> bool:
    """A printed array against a JSON list, element by element (tuples ``⟨a, b⟩`` as lists); an extension of
    upstream's text comparison, which no printed Goth array could meet (Goth prints ``[1 2 3]``)."""
    got = printed_structure(out)
    pending = [(got, expected)]
    while pending:
        g, e = pending.pop()
        if isinstance(e, list):
            if not isinstance(g, list) or len(g) != len(e):
                return False
            pending.extend(zip(g, e))
        elif isinstance(g, list) or not matches(g, e, {}):
            return False
    return True


def error_matches(message: str, kind: str) -> bool:
    """Whether an error message is the kind of error a case expects."""
    low = message.lower()
    if kind == "runtime":
        return True
    return ("type" if kind == "type_error" else kind.lower()) in low


def check_case(binary: str, root: Path, suite: str, test: dict[str, Any], index: int,
               json_ast: bool = False, category: str = "", flags: tuple[str, ...] = ()) -> CaseResult:
    """Run one case of ``test`` with its reference program under ``root`` (upstream's repository layout)."""
    case = test["cases"][index]
    program = root / test["file"]
    name = f"{suite}/{test['name']}#{index}"
    if not program.is_file():
        return CaseResult(suite, test["name"], index, False, f"{name}: reference program {test['file']} absent")
    args = render_inputs(category, case["input"])
    run = run_goth(binary, program, args, json_ast, flags=flags)
    shown = f"{name}: goth {test['file']} {' '.join(args)} -> {run.output[:300]!r}"
    if "expected_error" in case:
        ok = run.error and error_matches(run.output, case["expected_error"])
        return CaseResult(suite, test["name"], index, ok, f"{shown}; expected an error ({case['expected_error']})")
    expected = case.get("expected")
    if expected == UNIT:
        ok = not run.error
        return CaseResult(suite, test["name"], index, ok, f"{shown}; expected unit (a run without error)")
    ok = not run.error and matches(run.output, expected, case)
    return CaseResult(suite, test["name"], index, ok, f"{shown}; expected {case.get('expected')!r}")


def run_suites(binary: str, reference: Path, suites: tuple[str, ...] = CORE_SUITES,
               flags: tuple[str, ...] = ()) -> Conformance:
    """Every case of ``suites`` (files ``benchmark/tests/<suite>.json`` under ``reference``), whose programs lie
    under ``reference/upstream``, run with ``flags``."""
    result = Conformance()
    for suite in suites:
        data = json.loads((reference / "benchmark" / "tests" / f"{suite}.json").read_text(encoding="utf-8"))
        for test in data["tests"]:
            for i in range(len(test["cases"])):
                result.results.append(check_case(binary, reference / "upstream", suite, test, i,
                                                 bool(data.get("json_ast")), data.get("category", suite), flags))
    return result


TRIALS = {
    "devstral": ("benchmark/devstral/DIAGNOSTIC.md", "upstream/benchmark/devstral/goth", ".goth"),
    "devstral2": ("benchmark/devstral2/DIAGNOSTIC.md", "upstream/benchmark/devstral2/goth", ".goth"),
    "grok-expert/goth": ("benchmark/grok-expert/goth/DIAGNOSTIC.md", "upstream/benchmark/grok-expert/goth", ".goth"),
    "grok-expert/json": ("benchmark/grok-expert/json/DIAGNOSTIC.md", "upstream/benchmark/grok-expert/json", ".json"),
}
"""Upstream's model trials: (diagnostic, folder of the programs the model wrote, extension)."""
TRIAL_INPUT = "5"
"""The one input upstream's diagnostics ran each program on (factorial 120, fibonacci 5, square 25)."""
DATED_SPELLINGS = ("`==`", "`mod`")
"""Spellings a diagnostic calls unknown that upstream's lexer at the reference commit reads (``==`` is structural
equality, ``mod`` is ``%``): a row whose note names one, or whose program uses one as a word, records an older
interpreter, so a disagreement there is dated."""


@dataclass
class TrialRow:
    """One program of a model trial: what upstream's diagnostic says and what the interpreter does here."""

    trial: str
    name: str
    status: str
    note: str
    output: str = ""
    agrees: bool | None = None
    """True/False where the diagnostic is checkable (a parse error, an error message, or a PASS with its printed
    value); None else."""
    dated: bool = False


def diagnostic_rows(text: str) -> list[tuple[str, str, str]]:
    """The (file, status, note) rows of a DIAGNOSTIC.md's result tables."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 3 and cells[1] and not set(cells[0]) <= set("-: "):
            if cells[0].lower() != "file" and (cells[1].startswith(("PASS", "FAIL"))):
                rows.append((cells[0], cells[1], cells[2]))
    return rows


def expected_kind(status: str, note: str) -> str:
    """What a diagnostic row records: ``parse``, ``value`` (a PASS with its output) or ``other``."""
    if "(parse)" in status or note.lower().startswith("parse error"):
        return "parse"
    if status == "PASS":
        return "value"
    if note.startswith(("Error:", "Undefined name:")):
        return "error"
    return "other"


def recorded_value(note: str) -> str:
    """The printed value of a PASS row (``Output: 5``, ``<partial/2> (needs args)``)."""
    value = note.removeprefix("Output:").strip()
    return value.split(" (", 1)[0].strip()


def run_trials(binary: str, reference: Path) -> list[TrialRow]:
    """Every row of every trial's diagnostic, with the interpreter's treatment of that program here."""
    rows: list[TrialRow] = []
    for trial, (diag, folder, ext) in TRIALS.items():
        text = (reference / diag).read_text(encoding="utf-8")
        programs = {p.stem: p for p in sorted((reference / folder).rglob(f"*{ext}"))}
        for name, status, note in diagnostic_rows(text):
            row = TrialRow(trial, name, status, note)
            rows.append(row)
            program = programs.get(name)
            if program is None:
                row.output = "(no program of that name)"
                continue
            run = run_goth(binary, program, [TRIAL_INPUT], json_ast=ext == ".json")
            row.output = run.output.splitlines()[0][:200] if run.output else ""
            kind = expected_kind(status, note)
            if kind == "parse":
                row.agrees = run.error and "parse error" in run.output.lower()
            elif kind == "value":
                row.agrees = not run.error and run.output.strip() == recorded_value(note)
            elif kind == "error":
                row.agrees = run.error and note.removeprefix("Error: ") in run.output
            source = program.read_text(encoding="utf-8", errors="replace")
            row.dated = any(s in note or s.strip("`") in source.split() for s in DATED_SPELLINGS)
    return rows


DIAGNOSTIC_SUITES = {
    "grok_expert_json": ("upstream", "benchmark/grok-expert/", "benchmark/grok-expert/"),
    "grok_expert": ("upstream/benchmark/grok-expert/goth", "benchmark/grok-expert/", ""),
}
"""The diagnostic suites on Grok's trial programs: (programs' root, prefix of ``file``, its replacement).
``grok_expert.json``'s paths miss the ``goth/`` folder at the reference commit (README), hence the root."""


def run_diagnostic_suite(binary: str, reference: Path, suite: str) -> Conformance:
    """A diagnostic suite's cases; a case named "(expected fail - mod keyword)" that now passes is dated."""
    root, prefix, replacement = DIAGNOSTIC_SUITES[suite]
    data = json.loads((reference / "benchmark" / "tests" / f"{suite}.json").read_text(encoding="utf-8"))
    result = Conformance()
    for test in data["tests"]:
        test = {**test, "file": test["file"].replace(prefix, replacement, 1)}
        for i in range(len(test["cases"])):
            result.results.append(check_case(binary, reference / root, suite, test, i, bool(data.get("json_ast")),
                                             data.get("category", suite)))
    return result


def is_dated(result: CaseResult) -> bool:
    """A diagnostic case that expects ``mod`` to fail, which the reference commit's lexer reads as ``%``."""
    return "mod keyword" in result.test
