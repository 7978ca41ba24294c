"""``coonbench`` command line: formats, encode/decode, token counts, AST diff, task listing and prompt dumps.

Every error is one line naming the file and position, with a non-zero exit and no traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from coonbench.formats import Format, FormatError, get_format, list_formats
from coonbench.languages import Language, UnknownLanguage
from coonbench.tokens import (TokenizerUnavailable, count_tokens, get_tokenizer, install_offline_encodings,
                              tokenizer_names)


class CliError(Exception):
    """A user-facing error: printed as one line, exit status ``code``."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def _read(path: str) -> tuple[str, str]:
    """(display name, text) of FILE or ``-`` (stdin)."""
    if path == "-":
        return "<stdin>", sys.stdin.read()
    p = Path(path)
    if not p.exists():
        raise CliError(f"{path}: no such file")
    if p.is_dir():
        raise CliError(f"{path}: is a directory")
    try:
        return path, p.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise CliError(f"{path}: not UTF-8 text (byte {err.start})") from None


def _source(fmt: Format, name: str, text: str) -> Any:
    """What ``fmt.encode`` takes: Dart text as is, or a JSON value parsed from the file."""
    if fmt.kind == "code":
        return text
    try:
        return get_format("json").decode(text)  # bounded: nesting, integer length (a positioned FormatError)
    except FormatError as err:
        raise CliError(f"{name}:{err.line}:{err.column}: invalid JSON: {err.message}" if err.line is not None
                       else f"{name}: invalid JSON: {err.message}") from None


def _show(value: Any, fmt: Format) -> str:
    if fmt.kind == "code":
        return value if value.endswith("\n") else value + "\n"
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def cmd_formats(args: argparse.Namespace) -> int:
    from coonbench.languages import DEFAULT_LANGUAGE

    kinds = {f.name: f"code ({f.language or DEFAULT_LANGUAGE})" if f.kind == "code" else f.kind for f in list_formats()}
    width = max(len(f.name) for f in list_formats())
    kind_width = max(len(k) for k in kinds.values())
    for fmt in list_formats():
        print(f"{fmt.name:<{width}}  {kinds[fmt.name]:<{kind_width}}  {fmt.description}")
    return 0


def cmd_encode(args: argparse.Namespace) -> int:
    fmt = get_format(args.format)
    name, text = _read(args.file)
    sys.stdout.write(_show_text(fmt.encode(_source(fmt, name, text))))
    return 0


def _show_text(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def cmd_decode(args: argparse.Namespace) -> int:
    fmt = get_format(args.format)
    name, text = _read(args.file)
    sys.stdout.write(_show(fmt.decode(text), fmt))
    return 0


def cmd_tokens(args: argparse.Namespace) -> int:
    fmt = get_format(args.format)
    name, text = _read(args.file)
    if args.encoding == "all":
        return _tokens_per_tokenizer(fmt, name, text)
    try:
        get_tokenizer(args.encoding)
    except ValueError as err:
        raise CliError(str(err), code=2) from None
    encoded = fmt.encode(_source(fmt, name, text))
    before, after = count_tokens(text, args.encoding), count_tokens(encoded, args.encoding)
    saving = (before - after) / before * 100 if before else 0.0
    print(f"encoding: {args.encoding}")
    print(f"original: {before} tokens")
    print(f"{fmt.name}: {after} tokens")
    print(f"saving: {saving:.1f}%")
    return 0


def _tokens_per_tokenizer(fmt: Format, name: str, text: str) -> int:
    """``NAME TOKENS`` of the file in ``fmt``, one line per registered tokenizer; one whose package is missing is
    named on stderr with what to install (the command still succeeds: the others are counted)."""
    encoded = fmt.encode(_source(fmt, name, text))
    for tokenizer in tokenizer_names():
        try:
            print(f"{tokenizer} {count_tokens(encoded, tokenizer)}")
        except TokenizerUnavailable as err:
            print(f"{tokenizer}: unavailable: {err}", file=sys.stderr)
    return 0


def cmd_ast_diff(args: argparse.Namespace) -> int:
    from coonbench.languages import LanguageSyntaxError, UnknownLanguage, get_language, language_for_file

    try:
        language = get_language(args.language) if args.language else language_for_file(args.a) or _default_language()
    except UnknownLanguage as err:
        raise CliError(f"--language: {err}", code=2) from None
    sources = [_read(p) for p in (args.a, args.b)]
    try:
        diff = language.ast_diff(sources[0][1], sources[1][1])
    except LanguageSyntaxError as err:
        bad = sources[0][0] if language.parse_error(sources[0][1]) is not None else sources[1][0]
        raise CliError(f"{bad}:{err.line}:{err.column}: {err.message}", code=2) from None
    if diff is None:
        print("equivalent")
        return 0
    print(f"different at {diff.path}: {diff.left!r} != {diff.right!r}")
    return 1


def _default_language() -> Language:
    from coonbench.languages import default_language

    return default_language()


def _task_function(name: str) -> Callable[..., Any]:
    """The @task function ``name`` (``evals/<name>.py`` defines ``<name>()``), importing that module only."""
    module = importlib.import_module(f"coonbench.evals.{name}")
    return getattr(module, name)  # type: ignore[no-any-return]


def _task_summaries() -> dict[str, str]:
    """Task name → first docstring line, read from the syntax of ``evals/*.py`` (importing them takes seconds)."""
    import ast

    import coonbench.evals

    out: dict[str, str] = {}
    for path in sorted(Path(coonbench.evals.__path__[0]).glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name == path.stem:
                doc = (ast.get_docstring(node) or "").strip().splitlines()
                out[node.name] = doc[0] if doc else ""
    return out


def cmd_list_tasks(args: argparse.Namespace) -> int:
    from coonbench.resources import CHECKOUT

    for name, doc in _task_summaries().items():
        where = f"evals/{name}.py  " if CHECKOUT else ""  # an installed wheel has no evals/ folder to point to
        print(f"coonbench/{name:<14} {where}{doc}")
    return 0


def task_args(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise CliError(f"-T {pair}: expected NAME=VALUE")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


class _Captured(Exception):
    """Raised by the capturing generate() once the prompt is known."""


async def prompt_messages(task: Any, sample: Any) -> list[Any]:
    """Run the task's solvers on ``sample`` up to the first generate call and return the messages sent."""
    from inspect_ai.model import ChatMessageUser
    from inspect_ai.scorer import Target
    from inspect_ai.solver import TaskState

    messages = [ChatMessageUser(content=sample.input)] if isinstance(sample.input, str) else list(sample.input)
    state = TaskState(
        model="coonbench/dump-prompts",  # type: ignore[arg-type]
        sample_id=sample.id,
        epoch=1,
        input=sample.input,
        messages=messages,
        target=Target(sample.target),
        metadata=dict(sample.metadata or {}),
    )
    captured: list[Any] = []

    async def generate(state: TaskState, *args: Any, **kwargs: Any) -> TaskState:
        captured.extend(state.messages)
        raise _Captured

    try:
        await task.solver(state, generate)
    except _Captured:
        pass
    return captured or list(state.messages)


def task_function(spec: str) -> tuple[str, Callable[..., Any]]:
    """(name, @task function) of ``spec``: ``comprehension``, ``coonbench/comprehension``, or its ``evals/`` file
    by any path, relative or absolute (``/abs/path/evals/comprehension.py``)."""
    tasks = _task_summaries()
    name = Path(spec).stem if spec.endswith(".py") else spec.removeprefix("coonbench/").removeprefix("evals/")
    if name not in tasks:
        raise CliError(f"{spec}: unknown task (expected one of {', '.join(sorted(tasks))})")
    return name, _task_function(name)


def load_task(spec: str, pairs: list[str]) -> Any:
    """The Task that ``spec`` and the ``-T NAME=VALUE`` arguments ``pairs`` make."""
    return task_function(spec)[1](**task_args(pairs))


def cmd_dump_prompts(args: argparse.Namespace) -> int:
    import asyncio

    task = load_task(args.task, args.task_arg)
    out = Path(args.output)
    written = 0
    for sample in task.dataset:
        if args.limit is not None and written >= args.limit:
            break
        messages = asyncio.run(prompt_messages(task, sample))
        fmt = str((sample.metadata or {}).get("format", "default"))
        path = out / fmt / f"{sample.id}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            "".join(f"=== {m.role} ===\n{m.text}\n\n" for m in messages).rstrip("\n") + "\n", encoding="utf-8"
        )
        written += 1
    print(f"wrote {written} prompts under {out}")
    return 0


PLUGGED_IN = ("coonbench.report.cli", "coonbench.validity.cli", "coonbench.plan.cli", "coonbench.datasets.edits.cli",
              "coonbench.execution.goth_build.cli")
"""Modules that add their own subcommands (``register(subparsers)``); the report's imports pandas, so they are
imported only when the command is not one of this module's own."""


def build_parser(command: str | None = None, argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The full parser; given one of this module's own subcommands, without the plugged-in ones (import time)."""
    parser = argparse.ArgumentParser(prog="coonbench", description=__doc__)
    parser.add_argument("--version", action="version", version=f"coonbench {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("formats", help="list formats").set_defaults(fn=cmd_formats)
    for name, fn, help_ in (
        ("encode", cmd_encode, "encode a Dart or JSON file in a format"),
        ("decode", cmd_decode, "decode a document back to Dart or JSON"),
    ):
        p = sub.add_parser(name, help=help_)
        p.add_argument("--format", "-f", required=True)
        p.add_argument("file", nargs="?", default="-")
        p.set_defaults(fn=fn)
    p = sub.add_parser("tokens", help="token counts of a file and its encoding")
    p.add_argument("--encoding", default="o200k_base", metavar="NAME",
                   help="a tokenizer (o200k_base, cl100k_base, tekken, mistral-v3, qwen, deepseek, smollm2, "
                   "plug-ins), or all: one line NAME TOKENS of the file in --format per tokenizer")
    p.add_argument("--format", "-f", required=True)
    p.add_argument("file", nargs="?", default="-")
    p.set_defaults(fn=cmd_tokens)
    p = sub.add_parser("ast-diff", help="compare two source files by syntax tree (exit 0 same, 1 different, 2 error)")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--language", default=None,
                   help="the files' language (default: the one whose file extension the first file has, else dart)")
    p.set_defaults(fn=cmd_ast_diff)
    sub.add_parser("list-tasks", help="list the Inspect tasks").set_defaults(fn=cmd_list_tasks)
    p = sub.add_parser("dump-prompts", help="write the exact prompts of a task without calling a model")
    p.add_argument("task")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--limit", type=int)
    p.add_argument("-T", dest="task_arg", action="append", default=[], help="task argument NAME=VALUE")
    p.set_defaults(fn=cmd_dump_prompts)
    if command not in sub.choices and "--version" not in (argv or ()):
        for module in PLUGGED_IN:
            importlib.import_module(module).register(sub)
    return parser


def _version() -> str:
    from coonbench import __version__

    return __version__


def _command(argv: list[str]) -> str | None:
    """The subcommand ``argv`` names (its first word that is not an option), if any."""
    return next((word for word in argv if not word.startswith("-")), None)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(_command(argv), argv).parse_args(argv)
    install_offline_encodings()  # a command runs: tiktoken must work offline (never done at import)
    try:
        return int(args.fn(args))
    except CliError as err:
        print(f"coonbench: {err}", file=sys.stderr)
        return err.code
    except FormatError as err:
        where = getattr(args, "file", None)
        if where is not None and err.source is None:
            err = err.with_source("<stdin>" if where == "-" else where)
        print(f"coonbench: {err}", file=sys.stderr)
        return 2
    except (ValueError, OSError, TokenizerUnavailable, UnknownLanguage) as err:  # a missing package names its install
        line = next((ln.strip() for ln in str(err).splitlines() if ln.strip()), type(err).__name__)
        print(f"coonbench: {line}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
