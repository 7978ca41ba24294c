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
import uuid
from typing import Any

from inspect_ai.util import SandboxEnvironment, sandbox

from coonbench.execution.base import (
    AttemptResult,
    Executor,
    ExecutorUnavailable,
    Outcome,
    classify_cases,
    register_executor,
)
from coonbench.execution.goth_build import binary_path, find_binary
from coonbench.execution.problem import Problem

GOTH_PRIMER = """Goth is a functional language written with Unicode symbols and De Bruijn indices.
- A function is declared as `╭─ name : T₁ → T₂ → R` followed by `╰─ body`.
- Parameters have no names: `₀` is the last parameter, `₁` the one before, and so on
  (for f : A → B → C, `₁` is the A argument and `₀` the B argument).
- Types: I64, F64, Bool, String; arrays [n]I64.
- Operators: + - × / % = < > ≤ ≥ ∧ ∨ ¬ ; booleans ⊤ (true) and ⊥ (false).
- Conditionals: `if c then a else b`; recursion calls the function by name.
- The entry point is `main`."""


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


class GothExecutor(Executor):
    """Goth syntax, run by an external ``goth`` binary."""

    name = "goth"
    label = "Goth"
    fence = "goth"
    extension = "goth"
    binary: str | None = None

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

    def runner_files(self) -> dict[str, str]:
        """No runner: the binary is called once per case."""
        return {}

    def command(self, solution: str, problem: Problem, case_timeout: float) -> list[str]:
        """Unused (see ``run``)."""
        return [self.binary or "goth", solution]

    async def run(
        self, code: str, problem: Problem, case_timeout: float = 10.0, box: SandboxEnvironment | None = None
    ) -> AttemptResult:
        """One ``goth FILE ARGS…`` call per test case."""
        self.check_available()
        box = box or sandbox()
        run_dir = f"run-{uuid.uuid4().hex[:12]}"
        await box.write_file(f"{run_dir}/solution.goth", code)
        total = len(problem.all_tests)
        records: list[dict[str, Any]] = []
        for case in problem.all_tests:
            try:
                res = await box.exec(
                    [self.binary or "goth", "solution.goth", *map(render_arg, case.input)],
                    cwd=run_dir,
                    timeout=math.ceil(case_timeout),
                    timeout_retry=False,
                )
                out = (res.stdout or "").strip()
                if not res.success or out.startswith(("Error:", "Load error:")):
                    message = (out + "\n" + res.stderr).strip()[-500:]
                    low = message.lower()
                    if "parse" in low or "syntax" in low or "load error" in low:
                        return AttemptResult(Outcome.PARSE_ERROR, message, total=total)
                    records.append({"status": "error", "error": "GothError", "message": message,
                                    "type_error": "type" in low, "value_error": True})
                else:
                    records.append({"status": "ok", "value": parse_output(out)})
            except TimeoutError:
                records.append({"status": "timeout"})
        return classify_cases(problem, {"stage": "run", "cases": records})


register_executor(GothExecutor())
