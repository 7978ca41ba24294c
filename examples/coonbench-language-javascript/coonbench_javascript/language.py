"""The JavaScript ``Language``: what coonbench's code tasks need of it, behind the seam
(``coonbench.languages.base``). Registered on import (the ``coonbench.languages`` entry point)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from coonbench.languages.base import Corpus, Difference, Language, LanguageSyntaxError, Question, register_language
from coonbench_javascript import questions, syntax

CORPUS_DIR = Path(__file__).resolve().parent / "corpus"
BANDS: tuple[str, ...] = ("short", "long")


class JavaScriptLanguage(Language):
    """JavaScript (ECMAScript, as tree-sitter-javascript reads it)."""

    name = "javascript"
    label = "JavaScript"
    prompt_name = "JavaScript"
    program_noun = "JavaScript program"
    unit_noun = "JavaScript function"
    answer_rules = {
        "csv-list-unordered": "Answer with a comma-separated list of names, in any order.",
        "csv-list-ordered": "Answer with a comma-separated list of names, in order.",
    }
    extensions = (".js", ".mjs", ".cjs")
    fence = "javascript"
    source_format = "javascript"
    plain_formats = frozenset({"javascript", "javascript-minified"})
    question_types = questions.QUESTION_TYPES

    def parse_error(self, source: str) -> LanguageSyntaxError | None:
        return syntax.syntax_error(source)

    def ast_diff(self, a: str, b: str) -> Difference | None:
        return syntax.ast_diff(a, b)

    def corpus(self) -> Corpus | None:
        return Corpus(CORPUS_DIR, BANDS)

    def measure(self, source: str) -> dict[str, Any]:
        return questions.measure(source)

    def generate_questions(self, sample_id: str, source: str, *, seed: int = 0) -> list[Question]:
        return questions.generate_questions(sample_id, source, seed=seed)


JAVASCRIPT = register_language(JavaScriptLanguage())
