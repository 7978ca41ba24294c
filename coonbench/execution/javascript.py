"""JavaScript target: Node.js runs the function in a fresh ``vm`` context with a per-call timeout."""

from __future__ import annotations

import shutil

from coonbench.execution.base import Executor, ExecutorUnavailable, harness_text, register_executor
from coonbench.execution.problem import Problem

HEAP_MB = 256  # V8 old-space limit; the sandbox's address-space limit must leave ~1 GiB for V8's reservations


class JavaScriptExecutor(Executor):
    """The model writes a JavaScript function (the same name as the language-neutral signature)."""

    name = "javascript"
    label = "JavaScript"
    error_rule = "For invalid input, throw an Error (e.g. `throw new Error(\"...\")`)."
    reply_rule = ("Reply with the complete function (a `function {name}(...)` declaration) in one ```javascript code "
                  "block. Do not add example calls, require() or module exports.")
    signature_style = "javascript"
    fence = "javascript"
    extension = "js"
    definition = r"\bfunction[ \t]*\*?[ \t]*{name}[ \t]*\(|\b(?:const|let|var)[ \t]+{name}\b|\bexports\.{name}[ \t]*="

    def check_available(self) -> None:
        """Node must be installed (in the Docker image it always is)."""
        try:  # isolation.py holds the machine checks (sandbox.py re-exported them before it existed)
            from coonbench.execution.isolation import SAFE_PATH, docker_available
        except ImportError:
            from coonbench.execution.sandbox import SAFE_PATH, docker_available  # type: ignore[attr-defined]

        if shutil.which("node", path=SAFE_PATH) is None and not docker_available():
            raise ExecutorUnavailable("target 'javascript' needs Node.js: no 'node' in /usr/local/bin, /usr/bin, /bin")

    def runner_files(self) -> dict[str, str]:
        """The Node worker."""
        return {"runner.js": harness_text("js_runner.js")}

    def command(self, solution: str, problem: Problem, case_timeout: float) -> list[str]:
        """``node --max-old-space-size=N runner.js SOLUTION NAME TIMEOUT``."""
        return ["node", f"--max-old-space-size={HEAP_MB}", "runner.js", solution, problem.signature.name, str(case_timeout)]


register_executor(JavaScriptExecutor())
