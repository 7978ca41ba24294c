"""Language plug-ins of the code tasks: every module in this package registers one language on import.

``base`` holds the interface (``Language``) and the registry; it imports every other public module of this package
when a language is looked up, then the ``coonbench.languages`` entry points of installed packages.
"""

from coonbench.languages.base import (
    DEFAULT_LANGUAGE,
    AnswerReader,
    AnswerType,
    Corpus,
    Difference,
    EditTask,
    Hole,
    Language,
    LanguageLacks,
    LanguageSyntaxError,
    Question,
    RequirementResult,
    UnknownLanguage,
    default_language,
    get_language,
    language_for_file,
    list_languages,
    register_language,
)

__all__ = [
    "DEFAULT_LANGUAGE",
    "AnswerReader",
    "AnswerType",
    "Corpus",
    "Difference",
    "EditTask",
    "Hole",
    "Language",
    "LanguageLacks",
    "LanguageSyntaxError",
    "Question",
    "RequirementResult",
    "UnknownLanguage",
    "default_language",
    "get_language",
    "language_for_file",
    "list_languages",
    "register_language",
]
