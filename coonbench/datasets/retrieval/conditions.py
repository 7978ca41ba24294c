"""Data-format conditions of the retrieval task: ``NAME[:option]`` checked against the registry's data formats.

The code tasks' conditions (``coonbench.tasks.conditions``, one parser), for ``kind="data"`` formats:

``NAME``            the format with its short primer (``toon``, ``markdown-kv``, any plug-in's name)
``NAME:noprimer``   no primer (the model reads the format cold); ``NAME-noprimer`` is accepted too
``NAME:full``       the full primer variant
``all``             every registered data format, each with its short primer

The label (``toon``, ``toon-noprimer``, ``toon-fullprimer``) is what sample ids and ``metadata["format"]`` carry.
"""

from __future__ import annotations

from collections.abc import Sequence

from coonbench.tasks.conditions import Condition, ConditionError, format_names, parse_condition
from coonbench.datasets.retrieval.common import DEFAULT_FORMATS
from coonbench.formats import FormatError
from coonbench.tasks.samples import TaskArgumentError, shown, split_param

DataCondition = Condition
"""A registered data format shown with (or without) its primer: the code tasks' ``Condition``, for data formats."""


def data_format_names() -> list[str]:
    """Every registered ``kind="data"`` format (plug-ins included), sorted."""
    return format_names("data")


def parse_conditions(formats: str | Sequence[str] | None) -> list[DataCondition]:
    """``-T formats=a,b:noprimer`` (or ``all``) → conditions; FormatError naming an unknown format (listing the
    registered data formats) or option."""
    entries = list(DEFAULT_FORMATS) if formats is None else split_param(formats) or []
    if entries == ["all"]:
        entries = data_format_names()
    try:
        out = [parse_condition(entry, kind="data") for entry in entries]
    except ConditionError as err:
        raise FormatError(str(err), source=f"-T formats={shown(formats)}") from None
    if not out:
        raise ValueError("formats: at least one format is needed")
    return list(dict.fromkeys(out))


def check_formats_argument(formats: str | Sequence[str] | None) -> None:
    """``-T formats=`` checked before the task builds anything, as the one-line error ``inspect eval`` prints
    (``parse_conditions`` raises FormatError, which Python callers catch)."""
    if formats is None:
        return
    try:
        parse_conditions(formats)
    except (FormatError, ValueError) as err:
        raise TaskArgumentError(str(err).splitlines()[0]) from None


def parse_formats(formats: str | Sequence[str] | None) -> list[str]:
    """The registry names of ``-T formats=`` (options dropped), each checked as in ``parse_conditions``."""
    return list(dict.fromkeys(c.format for c in parse_conditions(formats)))
