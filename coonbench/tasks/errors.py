"""Errors a person caused by how they ran a task — a mistyped argument, a missing file or optional package — that
end ``inspect eval`` with one line and no traceback.

Why ``click.ClickException``: ``inspect`` is a click program run in click's standalone mode, which prints any
``ClickException`` that reaches it as ``Error: <message>`` on stderr and exits 1 — the way Inspect's own option
errors read. Inspect's ``PrerequisiteError`` does the same through its exception hook, but it lives in the private
``inspect_ai._util.error`` (exported by no public module), and this project uses public API only. From Python
(``inspect_ai.eval(...)``) these stay ordinary exceptions with their usual traceback.
"""

from __future__ import annotations

import click


class OneLineError(click.ClickException):
    """An error whose one-line message says what to change; a subclass adds the builtin it also is (ValueError,
    RuntimeError), so ``except ValueError`` keeps catching it. Its message must hold no line break."""

    def __init__(self, message: str) -> None:
        super().__init__(message)  # click keeps ``message``; the builtin base keeps ``args``

    def __str__(self) -> str:
        return self.message
