"""Python targets: plain source, and the same program as a JSON syntax tree in Python's ``ast`` schema."""

from __future__ import annotations

import ast

from coonbench.execution.base import Executor, harness_text, register_executor
from coonbench.execution.problem import Problem
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

    def reference(self, problem: Problem) -> str | None:
        """Derived by code from the Python reference."""
        return python_to_ast_json(problem.solutions["python"])


register_executor(PythonExecutor())
register_executor(PythonAstExecutor())
