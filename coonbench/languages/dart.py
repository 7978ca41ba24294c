"""Dart (Flutter), the first language of the code tasks: ``coonbench.dart``'s parser, trees and generators behind
the ``Language`` seam.

Only this module, the Dart formats (``coonbench.formats.dart``, ``coonbench.formats.coon``) and ``coonbench.dart``
itself import ``coonbench.dart`` or tree-sitter (an import-linter contract, ``pyproject.toml``); every task reaches
Dart through ``get_language("dart")``. Dart's own parse error becomes the seam's ``LanguageSyntaxError`` here, and
its records (questions, edits, requirement results) the seam's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from typing import Any

from coonbench.dart import edit_diff, instruct, metrics, mutants
from coonbench.dart.edits import EDIT_KINDS, make_edits
from coonbench.dart.equivalence import ast_diff as _dart_ast_diff
from coonbench.dart.generation import completion_hole, derive_requirements
from coonbench.dart.parse import DartParseError, parse_dart
from coonbench.dart.query import build_returns
from coonbench.dart.questions import QUESTION_TYPES, generate_questions
from coonbench.dart.requirements import (
    check_requirements,
    contains_expression,
    dump_requirements,
    normalise_program,
    parse_requirements,
)
from coonbench.dart.widget_names import BASELINE_WIDGET, read_widget_name
from coonbench.languages.base import (
    AnswerReader,
    AnswerType,
    Corpus,
    Difference,
    EditTask,
    Hole,
    Language,
    LanguageSyntaxError,
    Question,
    RequirementResult,
    register_language,
)
from coonbench.resources import DATA_DIR

WIDGET_NAME = AnswerType(read_widget_name, baseline_reply=BASELINE_WIDGET)
CORPUS = Corpus(
    root=DATA_DIR / "dart",
    bands=("simple", "composed", "stateful", "complex", "edge"),
    band_sizes={"simple": 20, "composed": 30, "stateful": 20, "complex": 15, "edge": 15},
)
GENERATED_SUFFIXES = (".g.dart", ".freezed.dart", ".mocks.dart", ".gr.dart", ".pb.dart", ".pbenum.dart",
                      ".pbjson.dart", ".pbserver.dart", ".config.dart", ".gen.dart")


@contextmanager
def _seam_errors() -> Iterator[None]:
    """Dart's parse error as the seam's (same message, line and column)."""
    try:
        yield
    except DartParseError as err:
        raise LanguageSyntaxError(err.message, err.line, err.column) from err


class DartLanguage(Language):
    """Dart with Flutter's widgets: tree-sitter-dart trees (``coonbench.dart``)."""

    name = "dart"
    label = "Dart"
    prompt_name = "Flutter/Dart"
    program_noun = "Flutter program"
    unit_noun = "Flutter widget"
    project_noun = "Flutter project"
    identifier_kinds = edit_diff.IDENTIFIER_TYPES
    answer_rules = {
        "widget-name": "Answer with a single Flutter widget class name.",
        "csv-list-unordered": "Answer with a comma-separated list of Flutter widget class names, in any order.",
    }
    extensions = (".dart",)
    fence = "dart"
    source_format = "dart"
    plain_formats = frozenset({"dart", "dart-minified"})
    question_types = QUESTION_TYPES
    edit_kinds = EDIT_KINDS
    generated_suffixes = GENERATED_SUFFIXES

    def parse_error(self, source: str) -> LanguageSyntaxError | None:
        try:
            parse_dart(source)
        except DartParseError as err:
            return LanguageSyntaxError(err.message, err.line, err.column)
        return None

    def ast_diff(self, a: str, b: str) -> Difference | None:
        with _seam_errors():
            diff = _dart_ast_diff(a, b)
        if diff is None:
            return None
        return Difference(diff.path, diff.left, diff.right, diff.line, diff.column)

    def normalise_program(self, source: str) -> str:
        with _seam_errors():
            return normalise_program(source)

    def corpus(self) -> Corpus:
        return CORPUS

    def measure(self, source: str) -> dict[str, Any]:
        with _seam_errors():
            return metrics.measure(source)

    def generate_questions(self, sample_id: str, source: str, *, seed: int = 0) -> list[Question]:
        with _seam_errors():
            return [Question(**asdict(q)) for q in generate_questions(sample_id, source, seed=seed)]

    def answer_types(self) -> Mapping[str, AnswerType | AnswerReader]:
        return {"widget-name": WIDGET_NAME}

    def completion_hole(self, sample_id: str, source: str) -> Hole | None:
        with _seam_errors():
            found = completion_hole(sample_id, source)
        return None if found is None else Hole(*found)

    def derive_requirements(self, source: str) -> list[dict[str, Any]]:
        with _seam_errors():
            return dump_requirements(derive_requirements(source))

    def describe_requirement(self, requirement: Mapping[str, Any]) -> str:
        return str(parse_requirements([dict(requirement)])[0].describe())

    def check_requirements(self, source: str, requirements: Sequence[Mapping[str, Any]]) -> list[RequirementResult]:
        with _seam_errors():
            results = check_requirements(source, parse_requirements([dict(r) for r in requirements]))
        return [RequirementResult(r.requirement, r.met, r.detail) for r in results]

    def contains_expression(self, source: str, expression: str) -> bool:
        return contains_expression(source, expression)

    def make_edits(self, sample_id: str, source: str, kinds: Sequence[str]) -> list[EditTask]:
        with _seam_errors():
            made = make_edits(sample_id, source, kinds)
        return [EditTask(*m[:-1], requirements=list(m.requirements)) for m in made]

    def edit_overlap(self, before: str, after: str, reply: str) -> float:
        with _seam_errors():
            return edit_diff.edit_overlap(before, after, reply)

    def derived_instruction(self, before: str, after: str) -> str | None:
        with _seam_errors():
            return instruct.derived_instruction(before, after)

    def leaves(self, source: str) -> list[tuple[str, str]]:
        with _seam_errors():
            return edit_diff.leaves(source)

    def fragments(self, source: str) -> list[str]:
        with _seam_errors():
            return build_returns(source)

    def equivalents(self, *, normalised: bool) -> Mapping[str, Callable[[str], str | None]]:
        return mutants.equivalents(normalised)

    def mutants(self) -> Mapping[str, Callable[[str], str | None]]:
        return mutants.MUTANTS

    def requirement_mutants(self, source: str, requirements: Sequence[Mapping[str, Any]]) -> dict[str, str | None]:
        return mutants.requirement_mutants(source, list(requirements))


DART = register_language(DartLanguage())
