"""Python, the second language of the code tasks: the standard library's ``ast`` behind the ``Language`` seam.

Modules: ``parse`` (bounded ``ast.parse``, one error type), ``equivalence`` (the lossless check: trees equal,
docstrings aside), ``minify`` (Pan et al.'s formatting removal), ``ast_json`` (the JSON syntax-tree schema),
``metrics`` (the corpus's measures), ``edits`` (the modification task's edits), ``requirements`` (the generation task's specification
and the judge's checklist), ``corpus`` (where ``data/python/`` is and its bands), ``questions``
(comprehension questions read off the tree), ``variants`` (``coonbench validate``'s equivalents and mutants). Nothing here imports a format, a task or Inspect; the formats are
``coonbench.formats.python``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from coonbench.languages.base import (
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
from coonbench.languages.python import corpus, edits, metrics, questions, requirements, variants
from coonbench.languages.python.equivalence import ast_diff
from coonbench.languages.python.parse import syntax_error, tokens


class PythonLanguage(Language):
    """Python 3 as ``ast`` reads it (the running interpreter's grammar)."""

    name = "python"
    label = "Python"
    prompt_name = "Python"
    program_noun = "Python program"
    unit_noun = "Python function"
    answer_rules = {
        "csv-list-unordered": "Answer with a comma-separated list of names, in any order.",
        "csv-list-ordered": "Answer with a comma-separated list of names, in order.",
    }
    extensions = (".py",)
    fence = "python"
    source_format = "python"
    plain_formats = frozenset({"python", "python-minified", "python-minifier"})
    question_types = (*questions.QUESTION_TYPES, "output_prediction")
    """The tree's question types, and ``output_prediction``: questions whose answers came from running the corpus's
    functions in the sandbox (``coonbench.datasets.output_prediction``, committed as data)."""
    edit_kinds = edits.EDIT_KINDS
    identifier_kinds = frozenset({"NAME"})

    def parse_error(self, source: str) -> LanguageSyntaxError | None:
        return syntax_error(source)

    def ast_diff(self, a: str, b: str) -> Difference | None:
        return ast_diff(a, b)

    def corpus(self) -> Corpus | None:
        return Corpus(corpus.CORPUS_DIR, corpus.BANDS, corpus.BAND_SIZES)

    def measure(self, source: str) -> dict[str, Any]:
        return metrics.measure(source)

    def generate_questions(self, sample_id: str, source: str, *, seed: int = 0) -> list[Question]:
        return questions.generate_questions(sample_id, source, seed=seed)

    def fragments(self, source: str) -> list[str]:
        return edits.fragments(source)

    def completion_hole(self, sample_id: str, source: str) -> Hole | None:
        return edits.completion_hole(sample_id, source)

    def derive_requirements(self, source: str) -> list[dict[str, Any]]:
        return requirements.derive_requirements(source)

    def describe_requirement(self, requirement: Mapping[str, Any]) -> str:
        return requirements.describe_requirement(requirement)

    def check_requirements(self, source: str, reqs: Sequence[Mapping[str, Any]]) -> list[RequirementResult]:
        return requirements.check_requirements(source, reqs)

    def make_edits(self, sample_id: str, source: str, kinds: Sequence[str]) -> list[EditTask]:
        return edits.make_edits(sample_id, source, kinds)

    def edit_overlap(self, before: str, after: str, reply: str) -> float:
        return edits.edit_overlap(before, after, reply)

    def leaves(self, source: str) -> list[tuple[str, str]]:
        return tokens(source)

    def equivalents(self, *, normalised: bool) -> Mapping[str, Callable[[str], str | None]]:
        return variants.EQUIVALENTS

    def mutants(self) -> Mapping[str, Callable[[str], str | None]]:
        return variants.MUTANTS


PYTHON = register_language(PythonLanguage())
