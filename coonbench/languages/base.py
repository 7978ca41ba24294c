"""The one plug-in shape every programming language of the code tasks follows, and the registry that holds them.

A code format (``Format.kind == "code"``) shows a program of one language (``Format.language``); everything a code
task needs to know about that language — is a reply a program of it, are two programs the same, which files make
its corpus, which questions can be asked of a file, which edits can be made to it, which requirements a judge can
check, how an answer naming one of its constructs is read, and what the prompts call it — comes from its
``Language``, so that tasks, conditions, answer checks and scorers name no language. Adding a language = one
``Language`` subclass and ``register_language(MyLanguage())``, in a module of ``coonbench/languages/`` (imported
when a language is looked up) or a third-party package's ``coonbench.languages`` entry point.

This layer sits below ``coonbench.formats`` and above the languages' own parsers (``coonbench.dart``): it imports
no format, no task and nothing of Inspect. The records below are plain data the task layers turn into samples.

Everything a language may lack is optional: the base implementation raises ``LanguageLacks`` naming the
language and the capability (a task then refuses the language with that reason, never a crash), or returns the
empty answer where "none" is a valid one (``answer_types``, ``corpus``).

Interface changes (additive only, stated here with their time):
- 2026-12-02 04:24 UTC: first version.
- 2026-12-02 04:42 UTC: ``AnswerType`` (a reader with the reply a trivial baseline gives); ``answer_types`` may
  map a name to one or to a bare ``AnswerReader`` (both are read the same way).
- 2026-12-02 04:42 UTC: ``DEFAULT_LANGUAGE``/``default_language()`` here; ``generated_suffixes`` and ``leaves``
  (mine-edits), ``fragments`` (the structure task's short examples), ``equivalents``, ``mutants`` and
  ``requirement_mutants`` (``coonbench validate``'s code variants). All optional.
- 2026-12-02 20:00 UTC: ``project_noun`` (mined-edit prompts: "a file of a Flutter project"; default "<label>
  project") and ``identifier_kinds``, with which the base ``is_pure_rename`` works on any language's ``leaves``.
"""

from __future__ import annotations

import importlib
import pkgutil
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, ClassVar


class LanguageLacks(NotImplementedError):
    """A capability the language does not have (no edit maker, no corpus…): the task refuses it with this text."""

    def __init__(self, language: str, capability: str) -> None:
        super().__init__(f"language '{language}' has no {capability}")
        self.language = language
        self.capability = capability


class LanguageSyntaxError(ValueError):
    """Source the language's grammar rejects; ``line``/``column`` are 1-based. A language's own parse error
    (``DartParseError``) is a subclass or is converted to this at the seam, so callers catch one type."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"{line}:{column}: {message}")
        self.message = message
        self.line = line
        self.column = column


@dataclass(frozen=True)
class Difference:
    """The first place two programs' syntax trees differ: a readable node path, a short snippet of each side, and
    where it is in the first program (1-based line and column; None when not known). What the lossless check,
    the AST scorers and the refusal reasons print."""

    path: str
    left: str
    right: str
    line: int | None = field(default=None, compare=False)
    column: int | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.path}: {self.left!r} != {self.right!r}"


@dataclass(frozen=True)
class Question:
    """One comprehension question about one source file, with its answer and how to compare answers (the records
    of ``data/comprehension/questions.v1.jsonl``). ``answer_type`` is one of ``coonbench.answers.normalize``'s
    types or one of the language's ``answer_types``."""

    id: str
    sample_id: str
    question_type: str
    subtype: str
    question: str
    answer: str
    answer_type: str
    normalize_options: dict[str, Any] = field(default_factory=dict)

    def to_record(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Corpus:
    """Where a language's built-in corpus lives and how it is banded: ``root/<band>/NNN_name<extension>`` files
    with a ``manifest.json`` of their metrics (``coonbench.datasets.corpus``). ``band_sizes`` (band → number of
    files) is checked when given."""

    root: Path
    bands: tuple[str, ...]
    band_sizes: Mapping[str, int] | None = None


@dataclass(frozen=True)
class Hole:
    """Where a completion task cuts a program: bytes ``[start, end)`` of the UTF-8 source, and the description of
    the missing part the prompt gives (the generation task's ``coon-completion`` kind)."""

    start: int
    end: int
    description: str


@dataclass(frozen=True)
class RequirementResult:
    """Whether one requirement holds in a program, and why not (the judge's and the scorer's record)."""

    requirement: str
    met: bool
    detail: str = ""

    def model_dump(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class EditTask:
    """One edit of one source file, as an edit maker makes it: the kind (``add-widget``…) and subtype, the id
    suffix the sample id ends with, the instruction, the program before and the expected program after, and how
    a reply is judged (``"ast"``: AST-equivalent to ``after``; ``"requirements"``: meets ``requirements``)."""

    kind: str
    subtype: str
    suffix: str
    instruction: str
    before: str
    after: str
    check: str = "ast"
    requirements: list[dict[str, Any]] = field(default_factory=list)


AnswerReader = Callable[[str, bool, Mapping[str, str], str], "tuple[Any, str] | None"]
"""Reads one scalar answer of a language's own type: ``(text, case_sensitive, aliases, context)`` → ``(value
compared, text shown)`` or None when the text holds no such answer. ``aliases`` maps a format's short names to
full ones (``Format.answer_aliases``); ``context`` is the question (a name it mentions is not the answer). Never
raises for model text, and runs in time linear in it (no nested quantifiers)."""


@dataclass(frozen=True)
class AnswerType:
    """A language's own scalar answer type: how an answer is read (``read``, an ``AnswerReader``) and the one
    fixed reply a model that does not read the input gives (``baseline_reply``: the constant baseline's floor).
    Calling it reads, so it stands wherever an ``AnswerReader`` is expected."""

    read: AnswerReader
    baseline_reply: str = ""

    def __call__(
        self, text: str, case_sensitive: bool, aliases: Mapping[str, str], context: str
    ) -> tuple[Any, str] | None:
        return self.read(text, case_sensitive, aliases, context)


def consistent_rename(a: Sequence[tuple[str, str]], b: Sequence[tuple[str, str]], kinds: frozenset[str]) -> bool:
    """True when ``b`` is ``a`` with identifiers (leaves of ``kinds``) renamed consistently — every occurrence of
    each renamed name, one new name per old one — and nothing else changed: a rename, not a self-contained edit."""
    if len(a) != len(b) or list(a) == list(b):
        return False
    mapping: dict[str, str] = {}
    for (ta, xa), (tb, xb) in zip(a, b):
        if (ta, xa) == (tb, xb):
            continue
        if ta != tb or ta not in kinds or mapping.setdefault(xa, xb) != xb:
            return False
    renamed = set(mapping)
    return all(not (t in kinds and x in renamed and x == y) for (t, x), (_, y) in zip(a, b))


class Language(ABC):
    """A language plug-in: subclass, set the class attributes, implement ``parse_error`` and ``ast_diff``; the
    rest is optional (see the module docstring)."""

    name: ClassVar[str]
    """Registry key and what ``Format.language`` names: ``"dart"``."""
    label: ClassVar[str]
    """The language in a sentence: ``"Dart"`` ("the reply is plain Dart")."""
    prompt_name: ClassVar[str]
    """What the prompts call code of this language: ``"Flutter/Dart"`` ("Below is Flutter/Dart code…")."""
    program_noun: ClassVar[str]
    """A whole program of it in a prompt: ``"Flutter program"`` ("Here is a Flutter program in COON")."""
    unit_noun: ClassVar[str]
    """The unit a generation prompt asks for: ``"Flutter widget"`` ("Write a Flutter widget in COON that…")."""
    project_noun: ClassVar[str] = ""
    """What a mined file belongs to: ``"Flutter project"`` ("the file `x` of a Flutter project"); empty: the
    label's ("Python project")."""
    answer_rules: ClassVar[Mapping[str, str]] = {}
    """The answer rule a comprehension prompt gives per answer type where the language words it differently
    (Dart: ``"widget-name"`` → "Answer with a single Flutter widget class name.", and the unordered widget
    lists); other types keep the task's own rule."""
    extensions: ClassVar[tuple[str, ...]]
    """File name endings of its sources, first the usual one: ``(".dart",)`` (``-T corpus=DIR`` reads these)."""
    fence: ClassVar[str]
    """The code-block tag of its plain source in prompts: ``"dart"``."""
    source_format: ClassVar[str]
    """The registered format that shows a program as written (``"dart"``): the token baseline of the code tasks'
    paired comparisons, and the format a program is given in when a prompt shows it plainly."""
    plain_formats: ClassVar[frozenset[str]] = frozenset()
    """Formats whose text is a program of this language (``dart``, ``dart-minified``): an answer in one of them is
    the language by definition, so it is never refused as an untranslated copy."""
    question_types: ClassVar[tuple[str, ...]] = ()
    """The comprehension question types ``generate_questions`` makes, in report order."""
    edit_kinds: ClassVar[tuple[str, ...]] = ()
    """The modification kinds ``make_edits`` can make, in task order (empty: no edit maker)."""
    generated_suffixes: ClassVar[tuple[str, ...]] = ()
    """File name endings of generated sources (Dart: ``.g.dart``…), which ``mine-edits`` leaves out."""
    identifier_kinds: ClassVar[frozenset[str]] = frozenset()
    """The ``leaves`` kinds that are identifiers (what a rename changes); empty: no rename detector."""

    # --- parsing and the lossless check ------------------------------------------------------------------

    @abstractmethod
    def parse_error(self, source: str) -> LanguageSyntaxError | None:
        """The first syntax error of ``source`` (None when it is a valid program): how an answer check tells a
        decoded reply that is a program from one that is not. Bounded in time on any text; never raises."""

    def check_syntax(self, source: str) -> None:
        """Raise ``LanguageSyntaxError`` when ``source`` is not a valid program (``parse_error``, raised)."""
        error = self.parse_error(source)
        if error is not None:
            raise error

    @abstractmethod
    def ast_diff(self, a: str, b: str) -> Difference | None:
        """The first difference between the syntax trees of two programs, None when they are equivalent (layout
        and comments ignored): the lossless check of every lossless format, and the AST scorers. Raises
        ``LanguageSyntaxError`` when either does not parse."""

    def ast_equivalent(self, a: str, b: str) -> bool:
        """Whether two programs are AST-equivalent (``ast_diff`` is None)."""
        return self.ast_diff(a, b) is None

    def normalise_program(self, source: str) -> str:
        """``source`` in a canonical spelling where equivalent spellings differ in the tree (Dart: quote style),
        for comparisons that accept either (a completion's hole, an edit's result). Default: unchanged."""
        return source

    # --- corpus ------------------------------------------------------------------------------------------

    def corpus(self) -> Corpus | None:
        """The built-in corpus and its bands, or None when the language ships none (then only ``-T corpus=DIR``)."""
        return None

    def measure(self, source: str) -> dict[str, Any]:
        """The corpus metrics of one file: at least ``loc`` (int), ``cyclomatic`` (int) and ``gci`` (float, the
        general complexity index in [0, 1] that bands a user's corpus); more keys are the language's own (Dart:
        ``widgets``, ``widget_types``, ``max_depth``, ``classes``, ``features``). Raises ``LanguageSyntaxError``
        when the file does not parse."""
        raise LanguageLacks(self.name, "corpus metrics")

    # --- comprehension -----------------------------------------------------------------------------------

    def generate_questions(self, sample_id: str, source: str, *, seed: int = 0) -> list[Question]:
        """The comprehension questions of one file, with answers computed from its tree (deterministic for a
        seed; ids stable: ``<sample_id>-<question key>``)."""
        raise LanguageLacks(self.name, "question generator")

    def answer_types(self) -> Mapping[str, AnswerType | AnswerReader]:
        """The language's own scalar answer types (Dart: ``"widget-name"``) and how each is read; none by default.
        Names are global (``coonbench.answers.normalize`` reads every language's): two languages giving the same
        name must mean the same reading. A format's ``answer_aliases`` and the question as context apply to
        these types."""
        return {}

    # --- generation --------------------------------------------------------------------------------------

    def completion_hole(self, sample_id: str, source: str) -> Hole | None:
        """The part of ``source`` a completion task removes (chosen deterministically from ``sample_id``), or
        None when the file has no describable part."""
        raise LanguageLacks(self.name, "completion hole maker")

    def derive_requirements(self, source: str) -> list[dict[str, Any]]:
        """Requirements ``source`` meets, read off its tree (JSON records, deterministic, a few): the natural-
        language generation task's specification and the judge's checklist."""
        raise LanguageLacks(self.name, "requirement derivation")

    def describe_requirement(self, requirement: Mapping[str, Any]) -> str:
        """One requirement record in words ("a Text widget showing 'Hi'"), for the prompt and the judge."""
        raise LanguageLacks(self.name, "requirement derivation")

    def check_requirements(self, source: str, requirements: Sequence[Mapping[str, Any]]) -> list[RequirementResult]:
        """Each requirement record checked against a program (one result per record, in order). Raises
        ``LanguageSyntaxError`` when the program does not parse; a malformed record raises ``ValueError``."""
        raise LanguageLacks(self.name, "requirement checker")

    def contains_expression(self, source: str, expression: str) -> bool:
        """Whether ``expression`` (normalised) occurs in ``source``: the completion scorer's "the removed part is
        present" hint. False by default."""
        return False

    # --- modification ------------------------------------------------------------------------------------

    def make_edits(self, sample_id: str, source: str, kinds: Sequence[str]) -> list[EditTask]:
        """Every edit of ``kinds`` (a subset of ``edit_kinds``) the file allows, at most one per kind and subtype,
        in kind order; a file that allows none gives none."""
        raise LanguageLacks(self.name, "edit maker")

    def edit_overlap(self, before: str, after: str, reply: str) -> float:
        """How much of the edit ``before → after`` a reply made, in [0, 1] (leaf-level; the edit scorer's partial
        credit). Raises ``LanguageSyntaxError`` when one does not parse."""
        raise LanguageLacks(self.name, "edit overlap measure")

    def is_pure_rename(self, before: str, after: str) -> bool:
        """Whether an edit only renames identifiers (``mine-edits`` leaves those out): ``consistent_rename`` of the
        two programs' ``leaves`` over ``identifier_kinds``."""
        if not self.identifier_kinds:
            raise LanguageLacks(self.name, "rename detector")
        return consistent_rename(self.leaves(before), self.leaves(after), self.identifier_kinds)

    def derived_instruction(self, before: str, after: str) -> str | None:
        """An instruction read off a mined edit's two sides ("Wrap … in …"), or None when none can be said."""
        return None

    def leaves(self, source: str) -> list[tuple[str, str]]:
        """(node kind, text) of every leaf of the program's tree in document order, comments left out (what a
        mined edit changed; a version bump changes only quoted version strings). Raises ``LanguageSyntaxError``."""
        raise LanguageLacks(self.name, "leaf listing")

    # --- the structure task and the validity check -----------------------------------------------------

    def fragments(self, source: str) -> list[str]:
        """Self-contained expressions of a program, in source order (Dart: what each ``build`` method returns):
        short valid examples of a format. None by default."""
        return []

    def equivalents(self, *, normalised: bool) -> Mapping[str, Callable[[str], str | None]]:
        """Rewrites that give the same program (same tree) spelled otherwise, by name (comments added, trailing
        commas, layout; with ``normalised``, what ``normalise_program`` evens out too): a code scorer must accept
        each. A rewrite returns None where it does not apply. None by default."""
        return {}

    def mutants(self) -> Mapping[str, Callable[[str], str | None]]:
        """Edits that change a program in one named way (a string, a number, an argument dropped…): a code scorer
        must refuse each. A mutant returns None where the program offers no place for it. None by default."""
        return {}

    def requirement_mutants(self, source: str, requirements: Sequence[Mapping[str, Any]]) -> dict[str, str | None]:
        """Per requirement, a program that breaks it (by name), for the requirement scorer's validity check."""
        return {}


DEFAULT_LANGUAGE = "dart"
"""The language of a code format that names none (``Format.language``), and of a code task that names none."""

_REGISTRY: dict[str, Language] = {}
_LOADED = False


def register_language(language: Language) -> Language:
    """Add a language instance to the registry (called at import time by each plug-in module)."""
    if language.name in _REGISTRY and type(_REGISTRY[language.name]) is not type(language):
        raise ValueError(f"language name '{language.name}' registered twice")
    _REGISTRY[language.name] = language
    return language


def _load_plugins() -> None:
    """Import every module of ``coonbench.languages`` (but ``base`` and ``_`` names), then third-party
    ``coonbench.languages`` entry points."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    package = importlib.import_module("coonbench.languages")
    for info in pkgutil.iter_modules(package.__path__):
        if not info.name.startswith("_") and info.name != "base":
            importlib.import_module(f"coonbench.languages.{info.name}")
    for ep in entry_points(group="coonbench.languages"):
        ep.load()


class UnknownLanguage(LookupError):
    """No language of that name is registered; the message names the known ones."""


def get_language(name: str) -> Language:
    """The registered language called ``name``; ``UnknownLanguage`` naming the known ones otherwise."""
    if name not in _REGISTRY:
        _load_plugins()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownLanguage(f"unknown language '{name}' (known: {known})") from None


def default_language() -> Language:
    """The registered ``DEFAULT_LANGUAGE`` (Dart)."""
    return get_language(DEFAULT_LANGUAGE)


def list_languages() -> list[Language]:
    """Every registered language, sorted by name."""
    _load_plugins()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def language_for_file(path: Path | str) -> Language | None:
    """The language whose ``extensions`` the file name ends with (first registered name wins), or None."""
    text = str(path)
    return next((lang for lang in list_languages() if text.endswith(lang.extensions)), None)
