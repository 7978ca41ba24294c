"""The one plug-in shape every format follows, and the registry that holds them.

A format turns a source (Dart text for ``kind="code"``, a JSON value for ``kind="data"``) into the text a
model sees, and back where the format is lossless. Validation returns positioned errors so that a model
(and a user) learns exactly where a document went wrong.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from abc import ABC, abstractmethod
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, ClassVar, Literal

from coonbench.formats._claims import Claim
from coonbench.formats._design import DesignThresholds
from coonbench.languages.base import DEFAULT_LANGUAGE, Language, get_language

FormatKind = Literal["code", "data"]


@dataclass
class FormatError(ValueError):
    """The one documented error type of every format operation: what went wrong, and where."""

    message: str
    line: int | None = None
    column: int | None = None
    expected: str | None = None
    source: str | None = None

    def __post_init__(self) -> None:
        super().__init__(str(self))

    def __hash__(self) -> int:
        """Hashable like every exception (Inspect collects the exceptions of a failure in a set), consistent with
        the field-wise equality the dataclass gives."""
        return hash((type(self), self.message, self.line, self.column, self.expected, self.source))

    def __str__(self) -> str:
        where = self.source or "<input>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        text = f"{where}: {self.message}"
        if self.expected:
            text += f" (expected {self.expected})"
        return text

    def with_source(self, source: str) -> FormatError:
        """The same error, naming the file it came from."""
        return FormatError(self.message, self.line, self.column, self.expected, source)


class Format(ABC):
    """A format plug-in: subclass, set the class attributes, implement ``encode``/``decode``/``validate``."""

    name: ClassVar[str]
    description: ClassVar[str]
    kind: ClassVar[FormatKind]
    fence: ClassVar[str]
    lossless: ClassVar[bool] = True
    language: ClassVar[str | None] = None
    label: ClassVar[str | None] = None
    """The format's name in a sentence ("not COON", a retrieval prompt's "in JSON compact"); None: the caller's
    fallback (the registry name, or its upper case in retrieval)."""
    prompt_label: ClassVar[str | None] = None
    """How a code task's prompt names the format where it says more than ``label`` ("COON (a compressed notation
    for Dart)"); None: ``label``."""
    """A code format's language (``coonbench.languages``: ``"dart"``): what its decoded text is a program of. A
    code format that names none is taken as Dart, the one language code formats had before languages were
    plug-ins (``language_of``); a data format has none."""

    @abstractmethod
    def encode(self, source: Any) -> str:
        """Source (Dart text or a JSON value) → this format's text. Raises FormatError."""

    def decode(self, text: str) -> Any:
        """This format's text → source (Dart text or a JSON value). Raises FormatError."""
        raise FormatError(f"format '{self.name}' is not decodable (lossy)")

    def validate(self, text: str) -> list[FormatError]:
        """Positioned errors in ``text``; empty when it is valid. Never raises for bad text."""
        try:
            self.decode(text)
        except FormatError as err:
            return [err]
        return []

    def spelling_error(self, text: str) -> str | None:
        """Why ``text``, which decodes, is not written the way this format writes (a minified format's reply that
        keeps comments), or None. Only a format whose text is already its language's program needs one (a copy of
        the source must not pass for it); None by default."""
        return None

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        """What a model is told about this format before it sees a document in it."""
        return f"The following is {self.description}."

    def answer_aliases(self) -> dict[str, str]:
        """Short names a reader of this format may answer with → the full names (COON's widget abbreviations), for
        scorers that accept them; none by default."""
        return {}

    def design_thresholds(self) -> DesignThresholds | None:
        """The success criteria of this format's own design document (accuracy, gap to its baseline, efficiency
        gain), which ``coonbench report`` and the comprehension task's ``verdict`` metric judge it by; None (the
        default): the format gets paired comparisons, never a verdict."""
        return None

    def claims(self) -> tuple[Claim, ...]:
        """Published claims about this format (``_claims``: Pan et al.'s on a minified language), each decided by
        ``coonbench report`` on the paired interval against its baseline; none by default."""
        return ()

    def legend(self, source: Any, *, economise: bool = True, tokenizer: str = "o200k_base") -> tuple[str, str] | None:
        """``source`` encoded for a legend, and the legend: a primer of only what that one document uses (COON's
        ``-T primer=legend``; ``economise`` False: the plain encoding). None when the format has none: conditions
        then show its encoding and short primer. What pays for its line is judged in ``tokenizer``, the one the
        samples are counted in."""
        return None


_REGISTRY: dict[str, Format] = {}
_LOADED = False


def register(fmt: Format) -> Format:
    """Add a format instance to the registry (called at import time by each plug-in module)."""
    if fmt.name in _REGISTRY and type(_REGISTRY[fmt.name]) is not type(fmt):
        raise ValueError(f"format name '{fmt.name}' registered twice")
    _REGISTRY[fmt.name] = fmt
    return fmt


def _load_plugins() -> None:
    """Import every module of this package, then third-party ``coonbench.formats`` entry points."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    package = importlib.import_module("coonbench.formats")
    for info in pkgutil.iter_modules(package.__path__):
        if not info.name.startswith("_") and info.name != "base":
            importlib.import_module(f"coonbench.formats.{info.name}")
    for ep in entry_points(group="coonbench.formats"):
        ep.load()


def _import_builtin(module: str) -> None:
    """Import ``coonbench.formats.<module>`` when this package has a public module of that name."""
    if module.isidentifier() and not module.startswith("_") and module != "base":
        if importlib.util.find_spec(f"coonbench.formats.{module}") is not None:
            importlib.import_module(f"coonbench.formats.{module}")


def get_format(name: str) -> Format:
    """The registered format called ``name``; FormatError naming the known ones otherwise.

    A built-in format is found by importing the module named like it (``dart-minified`` → ``dart``) first, so that
    a command using one format does not import every plug-in (and their libraries)."""
    if name not in _REGISTRY and not _LOADED:
        _import_builtin(name.split("-", 1)[0])
    if name not in _REGISTRY:
        _load_plugins()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise FormatError(f"unknown format '{name}'", expected=f"one of {known}", source="--format") from None


def format_label(name: str, default: str | None = None, *, prompt: bool = False) -> str:
    """How a sentence names the format ``name`` (``Format.label``; with ``prompt``, ``Format.prompt_label`` first),
    else ``default`` (else ``name`` itself), also for a name no format is registered under."""
    try:
        fmt = get_format(name)
    except FormatError:
        fmt = None
    found = (fmt.prompt_label or fmt.label if prompt else fmt.label) if fmt is not None else None
    return found or (name if default is None else default)


def language_of(fmt: Format | str) -> Language:
    """The language a code format's programs are written in (``Format.language``, Dart when it names none);
    ``FormatError`` for a data format, ``UnknownLanguage`` for a language nobody registered."""
    fmt = get_format(fmt) if isinstance(fmt, str) else fmt
    if fmt.kind != "code":
        raise FormatError(f"format '{fmt.name}' is a data format: it has no programming language", source="--format")
    return get_language(fmt.language or DEFAULT_LANGUAGE)


def list_formats() -> list[Format]:
    """Every registered format, sorted by name."""
    _load_plugins()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]
