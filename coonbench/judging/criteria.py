"""Judge criteria as data: an accuracy list (constraints) and a completeness list (features), each criterion a
sentence with a weight.

Why a module of its own: the same criteria come from two places — EPAM AI/RUN's YAML files (both schemas: plain
strings, and ``{criteria|criterion: text, weight: float}``) and per-sample dicts a loader puts in
``Sample.metadata["criteria"]`` — and a malformed file must fail loudly, naming the file, the entry and the field,
before any judge is paid to read it.

Accepted shapes (one function, ``parse_criteria``, validates them all)::

    evaluation_steps:                # AI/RUN layout (the wrapper is optional for per-sample dicts)
      accuracy:
        - Verify ...                 # v1: a plain string, weight 1.0
        - criteria: Ensure ...       # weighted: `criteria` (framework <= 9ab5598) ...
          weight: 1.0
        - criterion: Check ...       # ... or `criterion` (framework >= 413df89); weight defaults to 1.0
      completeness: [...]
    metadata: {...}                  # optional, kept as-is
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

CRITERIA_KEY = "criteria"
"""Sample metadata key the judge scorer reads (``state.metadata["criteria"]``)."""

LISTS: tuple[Literal["accuracy"], Literal["completeness"]] = ("accuracy", "completeness")
TEXT_KEYS = ("criterion", "criteria")  # AI/RUN renamed `criteria` → `criterion` in 413df89; accept both
ENTRY_KEYS = {*TEXT_KEYS, "weight"}
TOP_KEYS = {"evaluation_steps", "metadata", *LISTS}


class CriteriaError(ValueError):
    """A malformed criteria file or dict: says which file, which entry (list + index), which field, which line."""

    def __init__(
        self,
        message: str,
        *,
        source: str,
        entry: str | None = None,
        field: str | None = None,
        line: int | None = None,
    ) -> None:
        self.source = source
        self.entry = entry
        self.field = field
        self.line = line
        where = source + (f":{line}" if line is not None else "")
        if entry is not None:
            where += f", entry {entry}"
        if field is not None:
            where += f", field '{field}'"
        super().__init__(f"{where}: {message}")


class Criterion(BaseModel):
    """One criterion: the sentence the judge checks and its weight in the list's score."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str = Field(min_length=1)
    weight: float = Field(default=1.0, ge=0.0)

    @field_validator("text")
    @classmethod
    def _strip(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("must be a non-empty sentence")
        return value

    @field_validator("weight")
    @classmethod
    def _finite(cls, value: float) -> float:
        if not math.isfinite(value):
            raise ValueError("must be a finite number")
        return value


class CriteriaSet(BaseModel):
    """Both lists of one scenario or sample; a list may be empty, not both."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    accuracy: tuple[Criterion, ...] = ()
    completeness: tuple[Criterion, ...] = ()
    metadata: dict[str, Any] = Field(default_factory=dict)
    source: str = "<dict>"

    def items(self) -> list[tuple[str, tuple[Criterion, ...]]]:
        """The non-empty lists, in the order the judge asks about them (accuracy, then completeness)."""
        return [(name, getattr(self, name)) for name in LISTS if getattr(self, name)]

    def to_metadata(self) -> dict[str, list[dict[str, Any]]]:
        """The JSON-safe dict form for ``Sample.metadata["criteria"]`` (round-trips through ``parse_criteria``)."""
        return {name: [{"criterion": c.text, "weight": c.weight} for c in getattr(self, name)] for name in LISTS}


def _line_index(document: str) -> dict[tuple[str, ...], int]:
    """1-based YAML line of each node path ('evaluation_steps', 'accuracy', '3'), for error messages."""
    lines: dict[tuple[str, ...], int] = {}
    try:
        root = yaml.compose(document)
    except yaml.YAMLError:
        return lines

    def walk(node: yaml.Node | None, path: tuple[str, ...]) -> None:
        if node is None:
            return
        lines[path] = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                name = str(key.value)
                lines[(*path, name)] = key.start_mark.line + 1
                walk(value, (*path, name))
                lines[(*path, name)] = key.start_mark.line + 1
        elif isinstance(node, yaml.SequenceNode):
            for index, value in enumerate(node.value):
                walk(value, (*path, str(index)))

    walk(root, ())
    return lines


def _entry(
    raw: Any, *, source: str, list_name: str, index: int, prefix: tuple[str, ...], lines: dict[tuple[str, ...], int]
) -> Criterion:
    """Validate one list entry (string or mapping) into a Criterion, or raise naming entry and field."""
    entry = f"{list_name}[{index}]"
    path = (*prefix, list_name, str(index))
    line = lines.get(path)

    def fail(message: str, field: str | None = None) -> CriteriaError:
        return CriteriaError(
            message, source=source, entry=entry, field=field, line=lines.get((*path, field), line) if field else line
        )

    if isinstance(raw, str):
        text, weight = raw, 1.0
    elif isinstance(raw, dict):
        unknown = sorted(str(k) for k in raw if k not in ENTRY_KEYS)
        if unknown:
            raise fail(f"unknown key(s) {unknown}; expected 'criterion' (or 'criteria') and 'weight'", unknown[0])
        present = [k for k in TEXT_KEYS if k in raw]
        if not present:
            raise fail("missing the criterion text ('criterion' or 'criteria')", "criterion")
        if len(present) == 2 and raw["criterion"] != raw["criteria"]:
            raise fail("both 'criterion' and 'criteria' given with different texts", "criteria")
        field = present[0]
        text = raw[field]
        if not isinstance(text, str):
            raise fail(f"must be a string, got {type(text).__name__}", field)
        weight = raw.get("weight", 1.0)
        if isinstance(weight, bool) or not isinstance(weight, int | float):
            raise fail(f"must be a number, got {weight!r}", "weight")
    else:
        raise fail(f"must be a string or a mapping with 'criterion' and 'weight', got {type(raw).__name__}")
    if not text.strip():
        raise fail("the criterion text is empty", "criterion" if isinstance(raw, dict) else None)
    if not math.isfinite(float(weight)) or float(weight) < 0:
        raise fail(f"must be a finite number >= 0, got {weight!r}", "weight")
    return Criterion(text=text, weight=float(weight))


def parse_criteria(
    data: Any, *, source: str = "<dict>", lines: dict[tuple[str, ...], int] | None = None
) -> CriteriaSet:
    """Validate criteria in any accepted shape (see the module docstring) into a ``CriteriaSet``.

    ``source`` names the file or sample in error messages. Raises ``CriteriaError`` naming entry and field.
    """
    lines = lines or {}
    if isinstance(data, CriteriaSet):
        return data
    if not isinstance(data, dict):
        raise CriteriaError(f"criteria must be a mapping, got {type(data).__name__}", source=source, line=lines.get(()))
    unknown = sorted(str(k) for k in data if k not in TOP_KEYS)
    if unknown:
        raise CriteriaError(
            f"unknown top-level key(s) {unknown}; expected 'evaluation_steps' (or 'accuracy'/'completeness') "
            "and optional 'metadata'",
            source=source,
            field=unknown[0],
            line=lines.get((unknown[0],)),
        )
    prefix: tuple[str, ...] = ()
    steps: Any = data
    if "evaluation_steps" in data:
        if any(name in data for name in LISTS):
            raise CriteriaError(
                "give the lists either under 'evaluation_steps' or at the top level, not both",
                source=source,
                field="evaluation_steps",
            )
        steps, prefix = data["evaluation_steps"], ("evaluation_steps",)
        if not isinstance(steps, dict):
            raise CriteriaError(
                f"must be a mapping with 'accuracy' and 'completeness', got {type(steps).__name__}",
                source=source,
                field="evaluation_steps",
                line=lines.get(prefix),
            )
        extra = sorted(str(k) for k in steps if k not in LISTS)
        if extra:
            raise CriteriaError(
                f"unknown list(s) {extra}; expected 'accuracy' and 'completeness'",
                source=source,
                field=f"evaluation_steps.{extra[0]}",
                line=lines.get((*prefix, extra[0])),
            )
    parsed: dict[str, tuple[Criterion, ...]] = {}
    for name in LISTS:
        raw_list = steps.get(name) or []
        if not isinstance(raw_list, list | tuple):
            raise CriteriaError(
                f"must be a list of criteria, got {type(raw_list).__name__}",
                source=source,
                field=".".join((*prefix, name)),
                line=lines.get((*prefix, name)),
            )
        parsed[name] = tuple(
            _entry(item, source=source, list_name=name, index=i, prefix=prefix, lines=lines)
            for i, item in enumerate(raw_list)
        )
    if not parsed["accuracy"] and not parsed["completeness"]:
        raise CriteriaError(
            "no criteria: both 'accuracy' and 'completeness' are empty or missing", source=source, line=lines.get(())
        )
    for name, items in parsed.items():
        if items and sum(c.weight for c in items) <= 0:
            raise CriteriaError(
                "the weights of a list must not all be 0", source=source, field=".".join((*prefix, name))
            )
    metadata = data.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise CriteriaError(
            f"must be a mapping, got {type(metadata).__name__}", source=source, field="metadata",
            line=lines.get(("metadata",)),
        )
    return CriteriaSet(
        accuracy=parsed["accuracy"], completeness=parsed["completeness"], metadata=metadata, source=source
    )


def load_criteria(path: str | Path) -> CriteriaSet:
    """Load an AI/RUN criteria YAML file (v1 unweighted or weighted, `criteria` or `criterion` keys)."""
    path = Path(path)
    source = str(path)
    try:
        document = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CriteriaError(f"cannot read: {exc}", source=source) from exc
    try:
        data = yaml.safe_load(document)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise CriteriaError(
            f"not valid YAML: {getattr(exc, 'problem', exc)}",
            source=source,
            line=mark.line + 1 if mark is not None else None,
        ) from exc
    return parse_criteria(data, source=source, lines=_line_index(document))


def criteria_from_dict(data: Any, *, source: str = "<dict>") -> CriteriaSet:
    """Criteria from a Python dict, e.g. ``Sample.metadata["criteria"]`` (same validation as files)."""
    return parse_criteria(data, source=source)


def sample_criteria(
    accuracy: list[str | tuple[str, float] | dict[str, Any]] | None = None,
    completeness: list[str | tuple[str, float] | dict[str, Any]] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """Build (and validate) the per-sample value of ``metadata["criteria"]`` that the judge scorer reads.

    Items are sentences (weight 1.0), ``(sentence, weight)`` pairs, or ``{"criterion": ..., "weight": ...}``.
    """

    def norm(items: list[str | tuple[str, float] | dict[str, Any]] | None) -> list[Any]:
        out: list[Any] = []
        for item in items or []:
            if isinstance(item, tuple):
                text, weight = item
                out.append({"criterion": text, "weight": weight})
            else:
                out.append(item)
        return out

    return parse_criteria(
        {"accuracy": norm(accuracy), "completeness": norm(completeness)}, source="sample_criteria()"
    ).to_metadata()
