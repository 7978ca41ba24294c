"""Data-format conditions of the retrieval task: ``NAME[:option]`` checked against the registry's data formats.

Same syntax and labels as the code tasks' conditions (``coonbench.conditions``), for ``kind="data"`` formats:

``NAME``            the format with its short primer (``toon``, ``markdown-kv``, any plug-in's name)
``NAME:noprimer``   no primer (the model reads the format cold); ``NAME-noprimer`` is accepted too
``NAME:full``       the full primer variant
``all``             every registered data format, each with its short primer

The label (``toon``, ``toon-noprimer``, ``toon-fullprimer``) is what sample ids and ``metadata["format"]`` carry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from coonbench.datasets.retrieval.common import DEFAULT_FORMATS
from coonbench.formats import FormatError, get_format, list_formats
from coonbench.samples import split_param

PrimerMode = Literal["none", "short", "full"]
OPTIONS: dict[str, PrimerMode] = {"noprimer": "none", "short": "short", "primer": "short", "full": "full"}
LABEL_SUFFIX: dict[PrimerMode, str] = {"none": "-noprimer", "short": "", "full": "-fullprimer"}


@dataclass(frozen=True)
class DataCondition:
    """One registered data format shown with (or without) its primer."""

    format: str
    primer: PrimerMode = "short"

    @property
    def label(self) -> str:
        return self.format + LABEL_SUFFIX[self.primer]

    def primer_text(self) -> str | None:
        """The primer line shown before the data, or None for ``:noprimer``."""
        if self.primer == "none":
            return None
        return get_format(self.format).primer(self.primer)


def data_format_names() -> list[str]:
    """Every registered ``kind="data"`` format (plug-ins included), sorted."""
    return [f.name for f in list_formats() if f.kind == "data"]


def _check(name: str, known: list[str]) -> None:
    if name in known:
        return
    try:
        kind = get_format(name).kind
    except FormatError:
        kind = None
    what = f"'{name}' is a {kind} format" if kind else f"unknown format '{name}'"
    raise FormatError(f"{what}: retrieval takes a registered data format", expected=f"one of {', '.join(known)}",
                      source="-T formats")


def parse_conditions(formats: str | Sequence[str] | None) -> list[DataCondition]:
    """``-T formats=a,b:noprimer`` (or ``all``) → conditions; FormatError naming an unknown format (listing the
    registered data formats) or option."""
    entries = list(DEFAULT_FORMATS) if formats is None else split_param(formats) or []
    known = data_format_names()
    if entries == ["all"]:
        entries = known
    out: list[DataCondition] = []
    for entry in entries:
        name, _, option = entry.partition(":")
        if not option and name not in known and name.endswith("-noprimer"):
            name, option = name.removesuffix("-noprimer"), "noprimer"
        _check(name, known)
        if option and option not in OPTIONS:
            raise FormatError(f"unknown option '{option}' in '{entry}'", expected=f"one of {', '.join(OPTIONS)}",
                              source="-T formats")
        out.append(DataCondition(name, OPTIONS[option] if option else "short"))
    if not out:
        raise ValueError("formats: at least one format is needed")
    return list(dict.fromkeys(out))


def parse_formats(formats: str | Sequence[str] | None) -> list[str]:
    """The registry names of ``-T formats=`` (options dropped), each checked as in ``parse_conditions``."""
    return list(dict.fromkeys(c.format for c in parse_conditions(formats)))
