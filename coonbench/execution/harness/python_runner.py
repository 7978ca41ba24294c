"""Worker for Python targets: loads the candidate function, then answers one test input at a time.

Self-contained (stdlib only): it is copied into the sandbox, so nothing from coonbench is importable there.
Usage: ``python3 -I -S python_runner.py {py|pyast|pytyped} SOLUTION NAME CASE_TIMEOUT_S MEMORY_MB``, started by
``supervise.py``. ``pyast`` mode reads a JSON syntax tree in Python's ``ast`` schema
(``{"_type": "FunctionDef", ...}``), rebuilds it with ``ast`` and compiles it. ``pytyped`` is Python source whose
inputs and results cross as ``encode_typed`` data (tuples, sets, any dict keys; HumanEval).
Protocol: one JSON line on the answer channel after loading (``{"stage": "ready"}`` or the parse/load error),
then for each JSON line ``{"input": [...], "then_call": ...}`` on stdin one JSON line with the case result.
The answer channel is a private duplicate of the original stdout; fd 1 and ``sys.stdout`` point to
``/dev/null`` so that the candidate's prints go nowhere. The worker never sees expected outputs.
"""

from __future__ import annotations

import ast
import io
import json
import math
import os
import signal
import sys
from typing import Any

POSITION_FIELDS = ("lineno", "col_offset", "end_lineno", "end_col_offset")
# fields that hold lists (an omitted one defaults to []); IfExp/Lambda bodies and FunctionDef/Lambda `args` are not
LIST_FIELDS = frozenset(
    "body orelse finalbody handlers posonlyargs kwonlyargs kw_defaults defaults decorator_list targets elts keys "
    "values ops comparators keywords generators ifs names bases type_ignores cases patterns kwd_attrs kwd_patterns "
    "items args".split()
)
NOT_LIST = {("IfExp", "body"), ("IfExp", "orelse"), ("Lambda", "body"), ("FunctionDef", "args"),
            ("AsyncFunctionDef", "args"), ("Lambda", "args")}


def _default(cls_name: str, field: str) -> Any:
    """The value of an omitted field: [] for list fields, Load() for ctx, else None."""
    if field == "ctx":
        return ast.Load()
    if field in LIST_FIELDS and (cls_name, field) not in NOT_LIST:
        return []
    return None


class AstJsonError(ValueError):
    """A JSON document that is not a valid Python syntax tree; ``path`` says where."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(f"{message} (at {path})")
        self.path = path


def json_to_ast(node: Any, path: str = "$") -> Any:
    """Rebuild ``ast`` nodes from ``{"_type": ...}`` dicts; omitted fields default to None."""
    if isinstance(node, list):
        return [json_to_ast(item, f"{path}[{i}]") for i, item in enumerate(node)]
    if isinstance(node, dict):
        if "_type" not in node:
            raise AstJsonError("object without '_type'", path)
        name = node["_type"]
        cls = getattr(ast, str(name), None)
        if not (isinstance(cls, type) and issubclass(cls, ast.AST)) or name.startswith("_"):
            raise AstJsonError(f"unknown node type {name!r}", path)
        unknown = set(node) - set(cls._fields) - set(cls._attributes) - {"_type"}
        if unknown:
            raise AstJsonError(f"{name} has no field(s) {sorted(unknown)}; its fields are {list(cls._fields)}", path)
        fields = {f: json_to_ast(node[f], f"{path}.{f}") if f in node else _default(name, f) for f in cls._fields}
        result = cls(**fields)
        for attr in POSITION_FIELDS:
            if attr in node and attr in cls._attributes:
                setattr(result, attr, node[attr])
        return result
    if node is None or isinstance(node, (str, int, float, bool)):
        return node
    raise AstJsonError(f"unsupported JSON value {node!r}", path)


def module_from_json(text: str) -> ast.Module:
    """A Module from JSON text: a Module, a single statement, or a list of statements."""
    data = json.loads(text)
    tree = json_to_ast(data)
    if isinstance(tree, list):
        tree = ast.Module(body=tree, type_ignores=[])
    elif isinstance(tree, ast.stmt):
        tree = ast.Module(body=[tree], type_ignores=[])
    if not isinstance(tree, ast.Module):
        raise AstJsonError(f"top level must be a Module or statement(s), got {type(tree).__name__}", "$")
    if tree.type_ignores is None:
        tree.type_ignores = []
    return ast.fix_missing_locations(tree)


BLOCKED_EVENTS = frozenset(
    {"socket.connect", "socket.bind", "socket.getaddrinfo", "socket.sendto", "subprocess.Popen", "os.system",
     "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "pty.spawn"}
)


def _audit(event: str, args: Any) -> None:
    """Defence in depth (the sandbox is the real boundary): no sockets, no new processes from user code."""
    if event in BLOCKED_EVENTS:
        raise PermissionError(f"{event} is not allowed in the sandbox")


class CaseTimeout(BaseException):
    """Raised by the alarm; a BaseException so that ``except Exception`` in user code does not swallow it."""


def _on_alarm(signum: int, frame: Any) -> None:
    raise CaseTimeout()


def encode(value: Any, depth: int = 0) -> Any:
    """JSON-safe form of a returned value (tuples as lists; other objects marked unrepresentable)."""
    if depth > 50:
        return {"__unrepresentable__": "too deep"}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"__unrepresentable__": f"float {value}"}
    if isinstance(value, (list, tuple)):
        return [encode(v, depth + 1) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {k: encode(v, depth + 1) for k, v in value.items()}
        return {"__unrepresentable__": "dict with non-string keys", "repr": repr(value)[:200]}
    if callable(value):
        return {"__fn__": True}
    return {"__unrepresentable__": type(value).__name__, "repr": repr(value)[:200]}


def encode_typed(value: Any, depth: int = 0) -> Any:
    """Lossless data form of a value for hosts that compare with Python's own ``==`` (HumanEval): tuples, sets,
    dicts with any keys and non-finite floats are tagged objects; only exact built-in types are data, so an
    object of another class (an ``int`` subclass, an always-equal object) crosses as ``unrepresentable``."""
    kind = type(value)
    if depth > 50:
        return {"__t__": "unrepresentable", "type": "too deep"}
    if value is None or kind in (bool, int, str):
        return value
    if kind is float:
        return value if math.isfinite(value) else {"__t__": "float", "v": repr(value)}
    if kind is list:
        return [encode_typed(v, depth + 1) for v in value]
    if kind in (tuple, set, frozenset):
        return {"__t__": kind.__name__, "v": [encode_typed(v, depth + 1) for v in value]}
    if kind is dict:
        return {"__t__": "dict", "v": [[encode_typed(k, depth + 1), encode_typed(v, depth + 1)] for k, v in value.items()]}
    if callable(value):
        return {"__t__": "function"}
    return {"__t__": "unrepresentable", "type": kind.__name__[:80]}


class Unrepresentable:
    """A value that crossed as ``unrepresentable``: equal to nothing, not even itself."""

    def __init__(self, what: str) -> None:
        self.what = what

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"<unrepresentable {self.what}>"


MAX_SAME_HASH = 64  # elements of one set (keys of one dict) that may share a hash value


def crowded(items: list[Any]) -> bool:
    """Would a set of ``items`` (or a dict keyed by them) hold more than ``MAX_SAME_HASH`` elements of one hash
    value? A set a worker encoded has distinct elements; many with one hash (``k * (2**61 - 1)`` all hash to 0)
    make each insertion compare with all before it: quadratic time in the host that decodes the answer. The hashes
    are sorted, not counted in a dict, so this check is O(n log n) whatever the data. Unhashable items are
    skipped (building the set fails on them anyway)."""
    hashes = []
    for item in items:
        try:
            hashes.append(hash(item))
        except TypeError:
            continue
    hashes.sort()
    run = 0
    for i, h in enumerate(hashes):
        run = run + 1 if i and hashes[i - 1] == h else 1
        if run > MAX_SAME_HASH:
            return True
    return False


def decode_typed(data: Any, depth: int = 0) -> Any:
    """The value ``encode_typed`` wrote, rebuilt from built-in types only, at a cost linear (up to a log) in its
    size: a set or dict whose elements crowd one hash value (``crowded``) is rebuilt as ``Unrepresentable``."""
    if depth > 60:
        raise ValueError("typed value nested too deeply")
    if data is None or type(data) in (bool, int, float, str):
        return data
    if type(data) is list:
        return [decode_typed(v, depth + 1) for v in data]
    if type(data) is not dict:
        raise ValueError(f"not a typed value: {type(data).__name__}")
    tag, items = data.get("__t__"), data.get("v")
    if tag == "float" and items in ("nan", "inf", "-inf"):
        return float(items)
    try:  # a set of lists, a dict keyed by a list: data a worker may send, that Python cannot build
        if tag in ("tuple", "set", "frozenset") and type(items) is list:
            seq = [decode_typed(v, depth + 1) for v in items]
            if tag != "tuple" and crowded(seq):
                return Unrepresentable(f"{tag} whose elements share one hash")
            return {"tuple": tuple, "set": set, "frozenset": frozenset}[tag](seq)
        if tag == "dict" and type(items) is list and all(type(kv) is list and len(kv) == 2 for kv in items):
            pairs = [(decode_typed(k, depth + 1), decode_typed(v, depth + 1)) for k, v in items]
            if crowded([k for k, _ in pairs]):
                return Unrepresentable("dict whose keys share one hash")
            return dict(pairs)
    except TypeError:
        return Unrepresentable(f"unhashable {tag} element")
    if tag == "function":
        return Unrepresentable("function")
    return Unrepresentable(str(data.get("type", tag))[:80])


def error_record(exc: BaseException) -> dict[str, Any]:
    """Kind flags for the host's classifier."""
    return {
        "status": "error",
        "error": type(exc).__name__,
        "message": str(exc)[:500],
        "type_error": isinstance(exc, TypeError),
        "value_error": isinstance(exc, ValueError),
    }


def load(mode: str, solution_path: str, name: str, case_timeout: float) -> tuple[dict[str, Any], Any]:
    """Compile and define the solution: (the ready or parse/load record, the function or None)."""
    with open(solution_path, encoding="utf-8") as fh:
        source = fh.read()
    try:
        if mode == "pyast":
            code = compile(module_from_json(source), "solution.py", "exec")
        else:
            code = compile(source, "solution.py", "exec")
    except SyntaxError as exc:
        return {"stage": "parse", "error": "SyntaxError", "message": f"{exc.msg} (line {exc.lineno}, column {exc.offset})"}, None
    except json.JSONDecodeError as exc:
        return {"stage": "parse", "error": "JSONDecodeError", "message": str(exc)}, None
    except (AstJsonError, TypeError, ValueError, RecursionError, MemoryError) as exc:
        return {"stage": "parse", "error": type(exc).__name__, "message": str(exc)[:500]}, None
    namespace: dict[str, Any] = {"__name__": "solution"}
    sys.addaudithook(_audit)
    try:
        signal.setitimer(signal.ITIMER_REAL, case_timeout)
        try:
            exec(code, namespace)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except CaseTimeout:
        return {"stage": "load", "status": "timeout", "message": "defining the module timed out"}, None
    except BaseException as exc:  # noqa: BLE001 - any failure of user code is data
        return {"stage": "load", **error_record(exc)}, None
    fn = namespace.get(name)
    if not callable(fn):
        return {"stage": "load", "status": "error", "error": "NameError", "type_error": False,
                "value_error": False, "message": f"no function named {name!r} is defined"}, None
    return {"stage": "ready"}, fn


def run_case(fn: Any, case: dict[str, Any], case_timeout: float, typed: bool = False) -> dict[str, Any]:
    """Call the function on one input (and the returned function on ``then_call``) under the alarm.

    ``typed``: inputs and the result use ``encode_typed`` (HumanEval), else plain JSON (``encode``)."""
    try:
        args = [decode_typed(a) for a in case["input"]] if typed else case["input"]
        signal.setitimer(signal.ITIMER_REAL, case_timeout)
        try:
            value = fn(*args)
            if case.get("then_call") is not None:
                if not callable(value):
                    raise TypeError(f"expected a function to call, got {type(value).__name__}")
                value = value(*case["then_call"])
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        return {"status": "ok", "value": encode_typed(value) if typed else encode(value)}
    except CaseTimeout:
        return {"status": "timeout"}
    except RecursionError as exc:
        return {**error_record(exc), "message": "maximum recursion depth exceeded"}
    except BaseException as exc:  # noqa: BLE001
        return error_record(exc)


def main(argv: list[str]) -> None:
    """Set up the answer channel and limits, load, then serve cases until stdin closes."""
    mode, solution_path, name, case_timeout_text, memory_mb = argv[1:6]
    case_timeout = float(case_timeout_text)
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    sys.stdout = open(os.devnull, "w", encoding="utf-8")
    try:
        import resource

        limit = int(memory_mb) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):
        pass
    signal.signal(signal.SIGALRM, _on_alarm)
    inputs = sys.stdin
    record, fn = load(mode, solution_path, name, case_timeout)
    answers.write(json.dumps(record) + "\n")
    answers.flush()
    if fn is None:
        return
    for line in inputs:
        result = run_case(fn, json.loads(line), case_timeout, typed=mode == "pytyped")
        try:
            text = json.dumps(result)
        except (TypeError, ValueError, RecursionError) as exc:
            text = json.dumps(error_record(exc))
        answers.write(text + "\n")
        answers.flush()


if __name__ == "__main__":
    main(sys.argv)
