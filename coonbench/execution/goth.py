"""Goth target: runs the real Goth interpreter (``coonbench goth-setup`` builds upstream's offline; else ``goth`` on
PATH); without one the task refuses to start. We do not fake one. The call
convention follows upstream's benchmark runner: ``goth FILE ARG…`` per test case, output printed as text,
``Error:``/``Load error:`` or a non-zero exit meaning failure. We classify failures by their message (parse /
type / otherwise runtime). Argument and result rendering for lists and strings is best effort (upstream's
suite uses numbers and booleans). The binary must be executable by any user (the local sandbox runs it as the
sample's dedicated uid, with the binary's directory bound read-only into the jail); the Docker image does not
contain it. Each case is one process given its inputs only; the expected outputs stay in this process.
"""

from __future__ import annotations

import json
import math
from typing import Any

from inspect_ai.util import OutputLimitExceededError, SandboxEnvironment, sandbox

from coonbench.execution.base import (
    AttemptResult,
    Executor,
    ExecutorUnavailable,
    Outcome,
    _redacted,
    _unencodable,
    classify_cases,
    register_executor,
)
from coonbench.execution.goth_build import binary_path, find_binary
from coonbench.execution.goth_build.conformance import ERROR_PREFIXES
from coonbench.execution.problem import Problem
from coonbench.resources import DATA_DIR

GOTH_PRIMER = """Goth is a functional language written with Unicode symbols and De Bruijn indices.
- A function is declared as `╭─ name : T₁ → T₂ → R` followed by `╰─ body`.
- Parameters have no names: `₀` is the last parameter, `₁` the one before, and so on
  (for f : A → B → C, `₁` is the A argument and `₀` the B argument).
- Types: I64, F64, Bool, String; arrays [n]I64.
- Operators: + - × / % = < > ≤ ≥ ∧ ∨ ¬ ; booleans ⊤ (true) and ⊥ (false).
- Conditionals: `if c then a else b`; recursion calls the function by name.
- The entry point is `main`."""

GOTH_JSON_PRIMER = GOTH_PRIMER + """
Here you write the program as its JSON AST (what `goth --to-json` prints, which `goth --from-json` runs): an object
{"name": ..., "decls": [{"Fn": {"name", "type_params": [], "signature", "effects": [], "constraints": [],
"preconditions": [], "postconditions": [], "body"}}]}. Types: {"Prim": "I64"}, a function type
{"Fn": [argument, result]}. Expressions: {"Idx": 0} (₀), {"Name": "f"}, {"Lit": {"Int": 1}} ({"Float": 1.5},
"True", "False"), {"BinOp": ["Add", a, b]} (Sub, Mul, Div, Mod, Eq, Neq, Lt, Gt, Leq, Geq, And, Or),
{"If": {"cond": c, "then_": a, "else_": b}}, {"App": [function, argument]} (one argument each: f x y is
{"App": [{"App": [f, x]}, y]})."""


def render_arg(value: Any) -> str:
    """A test input as a Goth command-line argument."""
    if isinstance(value, bool):
        return "⊤" if value else "⊥"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return value
    return json.dumps(value)


def parse_output(text: str) -> Any:
    """A printed Goth value as JSON-like data (⊤/⊥ as booleans, numbers, else the stripped text)."""
    out = text.strip()
    if out in ("⊤", "true", "True"):
        return True
    if out in ("⊥", "false", "False"):
        return False
    try:
        return json.loads(out)
    except ValueError:
        return out


UNSUPPORTED_TOKENS = {"RefEq": "referential equality ≣/=== (LLM_SPEC.md: reserved)"}
"""Tokens the language reference documents that upstream's parser never accepts (its lexer reads them, its
parser has no rule): a program that uses one is "unsupported by this interpreter", not the model's parse error.
docs/goth.md lists them with the lexed-but-undocumented ones (class, impl, ∃, ∞, ⇒, @, ::), which stay parse
errors."""
GOLD_DIR = DATA_DIR / "correction"
"""Our Goth reference programs: ``goth/<problem>.goth`` and their JSON ASTs ``goth-json/<problem>.json``."""


def unsupported_feature(message: str) -> str | None:
    """The documented feature a parse error shows the interpreter lacks (``Unexpected token: Some(RefEq)``)."""
    for token, feature in UNSUPPORTED_TOKENS.items():
        if f"Some({token})" in message:
            return feature
    return None


class GothExecutor(Executor):
    """Goth syntax, run by the Goth interpreter (``coonbench goth-setup``), one process per test case."""

    name = "goth"
    label = "Goth"
    reply_rule = ("Reply with the complete Goth program in one ```goth code block, no explanation; its `main` takes "
                  "the function's arguments in order and returns its result.")
    system_primer = GOTH_PRIMER
    signature_style = "goth"
    fence = "goth"
    extension = "goth"
    flags: tuple[str, ...] = ("--strict",)
    """``--strict``: a file the parser stops reading before its end (Go, prose, text after the last declaration)
    is a parse error, where upstream's parser takes what it read and ignores the rest."""
    binary: str | None = None
    host_binary = True

    def check_available(self) -> None:
        """Refuse clearly when there is no binary."""
        found = find_binary()
        if found is None:
            raise ExecutorUnavailable(
                f"target '{self.name}' needs the Goth interpreter: none at {binary_path()} ($COONBENCH_GOTH) or on "
                "PATH. Build it with `coonbench goth-setup` (offline, from ../shared/reference/goth or your own Goth "
                "checkout: docs/goth.md); coonbench does not emulate Goth."
            )
        self.binary = found

    def reference(self, problem: Problem) -> str | None:
        """Our Goth program for the problem (verified on every test by tests/test_goth_correction.py), if any."""
        path = GOLD_DIR / self.name / f"{problem.id}.{self.extension}"
        return path.read_text(encoding="utf-8") if path.is_file() else None

    def covers(self, problem: Problem) -> bool:
        """Only problems with a verified Goth program are asked in Goth."""
        return (GOLD_DIR / self.name / f"{problem.id}.{self.extension}").is_file()

    def runner_files(self) -> dict[str, str]:
        """No runner: the binary is called once per case."""
        return {}

    def command(self, solution: str, problem: Problem, case_timeout: float) -> list[str]:
        """The interpreter's command for one case (its arguments follow)."""
        return [self.binary or "goth", *self.flags, solution]

    def result_text(self, stdout: str) -> str:
        """The printed result (``--from-json`` prints progress lines first)."""
        return stdout.strip()

    async def run(
        self, code: str, problem: Problem, case_timeout: float = 10.0, box: SandboxEnvironment | None = None
    ) -> AttemptResult:
        """One ``goth FILE ARGS…`` call per test case; only inputs enter the sandbox, grading stays here."""
        self.check_available()
        box = box or sandbox()
        total = len(problem.all_tests)
        unencodable = _unencodable(code)
        if unencodable:
            return AttemptResult(Outcome.PARSE_ERROR, unencodable, total=total)
        run_dir, solution = await self.write_solution(box, code)
        records: list[dict[str, Any]] = []
        for case in problem.all_tests:
            try:
                res = await box.exec(
                    [*self.command(solution, problem, case_timeout), *map(render_arg, case.input)],
                    cwd=run_dir,
                    timeout=math.ceil(case_timeout),
                    timeout_retry=False,
                )
            except TimeoutError:
                records.append({"status": "timeout"})
                continue
            except OutputLimitExceededError as exc:
                records.append({"status": "error", "error": "GothError", "message": f"output over {exc.limit_str}"})
                continue
            out = self.result_text(res.stdout or "")
            err = (res.stderr or "").strip()
            if res.success and not out.startswith(ERROR_PREFIXES) and not err.startswith(ERROR_PREFIXES):
                records.append({"status": "ok", "value": parse_output(out)})
                continue
            message = (out + "\n" + err).strip()[-500:]
            low = message.lower()
            if "parse error" in low or "invalid json ast" in low or err.startswith("Load error:"):
                feature = unsupported_feature(message)
                if feature is not None:
                    return _redacted(problem, AttemptResult(
                        Outcome.RUNTIME_ERROR, f"unsupported by this interpreter: {feature}: {message}",
                        total=total, details={"unsupported": feature}))
                return _redacted(problem, AttemptResult(Outcome.PARSE_ERROR, message, total=total))
            records.append({"status": "error", "error": "GothError", "message": message,
                            "type_error": "type error" in low, "value_error": True})
        return _redacted(problem, classify_cases(problem, {"stage": "run", "cases": records}))


class GothJsonExecutor(GothExecutor):
    """Goth's JSON AST (the seed's second form), run by the same interpreter with ``--from-json``."""

    name = "goth-json"
    label = "Goth JSON AST"
    error_rule = "For invalid input, fail with an error (for example a precondition)."
    reply_rule = ("Reply with the complete Goth program as its JSON AST in one ```json code block, no explanation; "
                  "its `main` takes the function's arguments in order and returns its result.")
    system_primer = GOTH_JSON_PRIMER
    fence = "json"
    extension = "json"
    flags = ("--from-json",)

    def result_text(self, stdout: str) -> str:
        """Without ``--from-json``'s ``OK: parsed N declaration(s)`` line."""
        return "\n".join(ln for ln in stdout.splitlines() if not ln.startswith("OK: ")).strip()


register_executor(GothExecutor())
register_executor(GothJsonExecutor())
