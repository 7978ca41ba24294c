"""Python targets: plain source, the same program as a JSON syntax tree in Python's ``ast`` schema, and in the
layouts of the Python code formats (minified, python-minifier's)."""

from __future__ import annotations

import ast
from typing import ClassVar

from inspect_ai.util import SandboxEnvironment

from coonbench.execution.base import AttemptResult, Executor, Outcome, harness_text, register_executor
from coonbench.execution.problem import Problem
from coonbench.formats import get_format
from coonbench.languages import LanguageSyntaxError
from coonbench.languages.python.ast_json import ast_to_json, module_from_json, python_to_ast_json  # noqa: F401

PYTHON = "python3"  # the sandbox's interpreter; Python 3.11 both locally (/usr/bin) and in the Docker image


class PythonExecutor(Executor):
    """The model writes a Python function."""

    name = "python"
    label = "Python"
    fence = "python"
    extension = "py"
    mode = "py"
    definition = r"(?m)^[ \t]*(?:async[ \t]+)?def[ \t]+{name}[ \t]*\(|^{name}[ \t]*="
    error_rule = "For invalid input, raise ValueError."
    reply_rule = "Reply with the complete function in one ```python code block. Do not add example calls."

    def runner_files(self) -> dict[str, str]:
        """The stdlib-only worker."""
        return {"runner.py": harness_text("python_runner.py")}

    def command(self, solution: str, problem: Problem, case_timeout: float) -> list[str]:
        """``python3 -I -S runner.py MODE SOLUTION NAME TIMEOUT MEMORY_MB`` (mode ``pytyped`` for problems whose
        values cross as typed data, i.e. HumanEval)."""
        mode = "pytyped" if getattr(problem, "typed_values", False) else self.mode
        return [PYTHON, "-I", "-S", "runner.py", mode, solution, problem.signature.name, str(case_timeout), "512"]


def ast_json_to_python(text: str) -> str:
    """JSON syntax-tree text → Python source (via ``ast.unparse``); raises on an invalid tree."""
    return ast.unparse(module_from_json(text))


def _ctx_default_note() -> str:
    return "`ctx` may be omitted when it is Load (it must be given as {\"_type\": \"Store\"} for assignment targets)"


EXAMPLE_SOURCE = '''def count_positive(values: list[int]) -> int:
    total = 0
    for v in values:
        if v > 0:
            total += 1
    return total
'''

COMMON_NODES = (
    "Module Import ImportFrom alias FunctionDef arguments arg Return Assign AugAssign AnnAssign For While If Expr Raise Try ExceptHandler "
    "Pass Break Continue Name Constant BinOp UnaryOp BoolOp Compare Call keyword Attribute Subscript Slice List "
    "Tuple Dict Set ListComp DictComp GeneratorExp comprehension IfExp Lambda JoinedStr FormattedValue "
    "Add Sub Mult Div FloorDiv Mod Pow USub Not And Or Eq NotEq Lt LtE Gt GtE In NotIn Is IsNot Load Store"
).split()


def _node_table() -> str:
    rows = []
    for name in COMMON_NODES:
        cls = getattr(ast, name)
        fields = ", ".join(f for f in cls._fields if f not in ("type_comment",))
        rows.append(f"- {name}({fields})" if fields else f"- {name}")
    return "\n".join(rows)


def build_primer() -> str:
    """The python-ast primer: schema rules, a node/field table read from ``ast`` itself, a worked example."""
    example = python_to_ast_json(EXAMPLE_SOURCE, indent=1)
    return f"""You write Python programs as JSON syntax trees instead of source text.

The JSON follows Python {'.'.join(map(str, __import__('sys').version_info[:2]))}'s `ast` module exactly:
- every node is an object {{"_type": "<ast class name>", <field>: <value>, ...}};
- fields hold nodes, lists of nodes, or plain JSON values (identifiers and constants are strings/numbers/booleans/null);
- omit position fields (lineno, col_offset, ...); fields whose value is None or an empty list may be omitted;
- {_ctx_default_note()};
- operators are nodes too: {{"_type": "Add"}}, comparisons use `ops` and `comparators` lists.
- the top level is {{"_type": "Module", "body": [...]}}.

We rebuild the tree with `ast`, compile it and run it. Node types you will need (fields in order):
{_node_table()}

Example. This Python source:
```python
{EXAMPLE_SOURCE.strip()}
```
is written as:
```json
{example}
```"""


PYTHON_AST_PRIMER = build_primer()


class PythonAstExecutor(PythonExecutor):
    """The model writes the program as JSON in Python's ``ast`` schema; rebuilt and compiled in the sandbox."""

    name = "python-ast"
    label = "Python, written as a JSON syntax tree (Python `ast` schema)"
    fence = "json"
    extension = "json"
    mode = "pyast"
    definition = r'"name"[ \t\r\n]*:[ \t\r\n]*"{name}"'
    reply_rule = ("Reply with the JSON syntax tree (Python `ast` schema) of a module that defines this function, in "
                  "one ```json code block. Do not add example calls.")
    system_primer = PYTHON_AST_PRIMER

    def reference(self, problem: Problem) -> str | None:
        """Derived by code from the Python reference."""
        return python_to_ast_json(problem.solutions["python"])


class LaidOutPythonExecutor(PythonExecutor):
    """The model writes the function in a Python code format's layout (``format_name``: minified Python, Python as
    python-minifier writes it): it runs as Python, and a program not written in that layout is a parse error
    before any test runs (the format's ``spelling_error``), so writing it out plainly does not pass for it. The
    reference is the format's encoding of the Python reference: generation from a description in each Python
    format, scored by the same tests."""

    format_name: ClassVar[str]

    def reference(self, problem: Problem) -> str | None:
        python = problem.solutions.get("python")
        return None if python is None else get_format(self.format_name).encode(python)

    async def run(self, code: str, problem: Problem, case_timeout: float = 2.0,
                  box: SandboxEnvironment | None = None) -> AttemptResult:
        try:
            why = get_format(self.format_name).spelling_error(code)
        except LanguageSyntaxError:
            why = None  # not Python at all: the interpreter's own syntax error says so
        if why is not None:
            return AttemptResult(Outcome.PARSE_ERROR, f"the program is not {self.label}: {why}",
                                 total=len(problem.all_tests))
        return await super().run(code, problem, case_timeout, box)


class MinifiedPythonExecutor(LaidOutPythonExecutor):
    name = "python-minified"
    format_name = "python-minified"
    label = "minified Python"
    reply_rule = ("Reply with the complete function as minified Python (no comments, docstrings or blank lines; each "
                  "indentation level one space) in one ```python code block. Do not add example calls.")


class PythonMinifierExecutor(LaidOutPythonExecutor):
    name = "python-minifier"
    format_name = "python-minifier"
    label = "Python as python-minifier writes it"
    reply_rule = ("Reply with the complete function as python-minifier writes Python (no comments or blank lines, "
                  "each indentation level one space, statements may share a line separated by `;`) in one ```python "
                  "code block. Do not add example calls.")


register_executor(PythonExecutor())
register_executor(PythonAstExecutor())
register_executor(MinifiedPythonExecutor())
register_executor(PythonMinifierExecutor())
