"""TeaLeaf accuracy-benchmark task files, loaded unchanged (``tasks/synthetic.json``, ``tasks/real.json``).

Why: users of TeaLeaf's benchmark can bring their task files as they are. The schema follows the benchmark's
README (fields, defaults: complexity ``moderate``, output_type ``analysis``, max_tokens 2048, temperature 0.3);
unknown extra fields (``include_format_hint``, ``grading_rubric``) are kept. ``data_file`` is relative to the task
file. A malformed file raises ``TaskFileError`` naming the file, the task id (or index) and the field; a task whose
data file is absent is rejected with a warning and the others run.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

logger = logging.getLogger(__name__)

FORMAT_HINTS_FILE = "format_hints.json"  # next to the task file; TeaLeaf prepends the hint when a task opts in


class TaskFileError(ValueError):
    """A task file that cannot be used: names file, task and field."""


class ExpectedElement(BaseModel):
    """An element the answer should contain: keyword detection from the description, or a regex."""

    model_config = ConfigDict(extra="allow")

    element_type: str
    description: str
    required: bool = False
    validation_pattern: str | None = None

    @field_validator("validation_pattern")
    @classmethod
    def _compiles(cls, pattern: str | None) -> str | None:
        if pattern is not None:
            try:
                re.compile(pattern)
            except re.error as err:
                raise ValueError(f"invalid regular expression {pattern!r}: {err}") from None
        return pattern


class TeaLeafTask(BaseModel):
    """One analysis task; ``prompt_template`` holds ``{data}`` and optionally ``{format_name}``."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1)
    category: str
    complexity: Literal["simple", "moderate", "complex"] = "moderate"
    output_type: Literal["calculation", "analysis", "recommendation", "summary"] = "analysis"
    prompt_template: str
    data_file: str | None = None
    max_tokens: int = Field(default=2048, gt=0)
    temperature: float = Field(default=0.3, ge=0)
    expected_elements: list[ExpectedElement] = Field(default_factory=list)
    grading_rubric: Any = None
    include_format_hint: dict[str, bool] | None = None

    @field_validator("complexity", "output_type", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.lower() if isinstance(value, str) else value

    @field_validator("prompt_template")
    @classmethod
    def _has_data(cls, template: str) -> str:
        if "{data}" not in template:
            raise ValueError("prompt_template has no {data} placeholder")
        return template


class TeaLeafTaskFile(BaseModel):
    """The file: an optional version/description and the task list."""

    model_config = ConfigDict(extra="allow")

    version: str | None = None
    description: str | None = None
    tasks: list[TeaLeafTask]


@dataclass(frozen=True)
class LoadedTask:
    """A task with its data file resolved (``data_path`` None when the task has no data file)."""

    task: TeaLeafTask
    data_path: Path | None
    source: Path
    format_hints: dict[str, str]

    def load_data(self) -> Any:
        """The task's JSON data (None without a data file); TaskFileError naming the file when unreadable."""
        if self.data_path is None:
            return None
        try:
            return json.loads(self.data_path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as err:
            raise TaskFileError(f"{self.source}: task '{self.task.id}': data_file {self.data_path}: {err}") from err

    def render(self, data_text: str, format_name: str, hint_key: str | None = None) -> str:
        """The prompt: placeholders replaced literally (like TeaLeaf), the opted-in format hint prepended."""
        prompt = self.task.prompt_template.replace("{data}", data_text).replace("{format_name}", format_name)
        opted = (self.task.include_format_hint or {}).get(hint_key or "", False)
        hint = self.format_hints.get(hint_key or "", "") if opted else ""
        return f"{hint}\n\n{prompt}" if hint else prompt


def _field_path(loc: tuple[Any, ...]) -> str:
    return ".".join(str(part) for part in loc) or "<root>"


def load_task_file(path: str | Path) -> list[LoadedTask]:
    """Parse and validate a TeaLeaf task file; TaskFileError naming file, task id and field when malformed."""
    source = Path(path)
    try:
        raw = json.loads(source.read_text(encoding="utf-8"))
    except OSError as err:
        raise TaskFileError(f"{source}: cannot read task file: {err}") from err
    except json.JSONDecodeError as err:
        raise TaskFileError(f"{source}:{err.lineno}:{err.colno}: not valid JSON: {err.msg}") from err
    try:
        parsed = TeaLeafTaskFile.model_validate(raw)
    except ValidationError as err:
        first = err.errors()[0]
        loc = tuple(first["loc"])
        where = "file"
        field = _field_path(loc)
        if len(loc) >= 2 and loc[0] == "tasks" and isinstance(loc[1], int):
            index = loc[1]
            task_raw = raw["tasks"][index] if isinstance(raw, dict) and isinstance(raw.get("tasks"), list) else {}
            task_id = task_raw.get("id") if isinstance(task_raw, dict) else None
            where = f"task '{task_id}' (tasks[{index}])" if task_id else f"task at tasks[{index}] (no id)"
            field = _field_path(loc[2:]) or "<task>"
        raise TaskFileError(f"{source}: {where}: field '{field}': {first['msg']}") from None
    seen: set[str] = set()
    for index, task in enumerate(parsed.tasks):
        if task.id in seen:
            raise TaskFileError(f"{source}: task '{task.id}' (tasks[{index}]): field 'id': duplicate task id")
        seen.add(task.id)
    hints: dict[str, str] = {}
    hints_path = source.parent / FORMAT_HINTS_FILE
    if hints_path.exists():
        try:
            hints = {str(k): str(v) for k, v in json.loads(hints_path.read_text(encoding="utf-8")).items()}
        except (json.JSONDecodeError, AttributeError) as err:
            raise TaskFileError(f"{hints_path}: not a JSON object of format hints: {err}") from err
    return [
        LoadedTask(
            task=task,
            data_path=(source.parent / task.data_file).resolve() if task.data_file else None,
            source=source,
            format_hints=hints,
        )
        for task in parsed.tasks
    ]


def available_tasks(tasks: list[LoadedTask]) -> tuple[list[LoadedTask], list[str]]:
    """Split tasks into runnable ones and rejection messages (data file absent), logging each rejection."""
    ok: list[LoadedTask] = []
    rejected: list[str] = []
    for loaded in tasks:
        if loaded.data_path is not None and not loaded.data_path.is_file():
            message = (
                f"{loaded.source}: task '{loaded.task.id}' rejected: data file {loaded.task.data_file} "
                f"not found at {loaded.data_path}"
            )
            logger.warning(message)
            rejected.append(message)
        else:
            ok.append(loaded)
    return ok, rejected
