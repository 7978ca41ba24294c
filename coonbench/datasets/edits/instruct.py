"""The instruction of a mined edit: the commit subject where it describes the change, else one derived by code.

``subject_instruction`` keeps a subject that starts with an imperative verb, has no vague or housekeeping word and
names something the change touches (a word of the subject is a word of a changed identifier or string, camelCase
split). The derived instruction is the language's (``Language.derived_instruction``: Dart's reads the difference
of the two programs' code tokens, ``coonbench.dart.instruct``). Nothing is typed by hand.
"""

from __future__ import annotations

import re
from typing import Final

VERBS: Final = frozenset(
    "add allow avoid change convert disable display drop enable ensure extract fix handle hide implement "
    "introduce make migrate move pass prevent refactor remove rename replace return set show simplify support "
    "switch update use wrap".split()
)
VAGUE: Final = frozenset(
    "typo typos lint lints analysis analyzer format formatting cleanup misc various bump roll version versions "
    "dependencies dependency deps merge revert release prepare changelog readme docs doc comment comments license "
    "copyright ci test tests warnings warning deprecated deprecations sdk pubspec".split()
)
STOP: Final = frozenset("the and for from into with that this when then than some more less".split())
MAX_SUBJECT = 120
_PREFIX = re.compile(r"^\s*(?:\[[^\]\n]{0,60}\]\s*|[\w/.-]{1,40}:\s+)")
_PR_SUFFIX = re.compile(r"\s*\(#\d{1,7}\)\s*$")
_CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def clean_subject(subject: str) -> str:
    """The subject without a ``[package]``/``package:`` prefix and a ``(#1234)`` suffix."""
    text = _PR_SUFFIX.sub("", subject.strip())
    for _ in range(2):
        text = _PREFIX.sub("", text, count=1)
    return text.strip()


def words_of(text: str) -> set[str]:
    """Lower-case words of identifiers and prose (camelCase and snake_case split), four letters or more."""
    return {w.lower() for w in _CAMEL.findall(text) if len(w) >= 4} - STOP


def subject_instruction(subject: str, touched: str) -> str | None:
    """The cleaned subject when it describes the change (see the module doc), else None; ``touched`` is the text
    of the changed code."""
    text = clean_subject(subject)
    words = text.split()
    if len(words) < 3 or len(text) > MAX_SUBJECT or words[0].lower().strip(":") not in VERBS:
        return None
    plain = {re.sub(r"[^a-z0-9]", "", w.lower()) for w in words}
    if plain & VAGUE:
        return None
    if not (words_of(text) - VERBS) & words_of(touched):
        return None
    return text if text.endswith((".", "!", "?")) else text + "."
