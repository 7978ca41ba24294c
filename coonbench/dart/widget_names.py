"""Reading a Flutter widget class name from a model's answer: Dart's ``widget-name`` answer type.

``Text('Hi')`` → Text, "the Scaffold widget" → Scaffold, an abbreviation through the format's aliases (COON's
``T`` → Text), and a sentence that names exactly one class in code spans besides those the question names. Every
pattern is linear in the answer (no nested quantifiers): it runs on model text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_CALL = re.compile(r"^([A-Za-z_$][\w$.]*+)[ \t]*+(?:<[^<>]*+>[ \t]*+)?\(.*\)$", re.DOTALL)
_ARTICLE = re.compile(r"^(?:the|a|an)[ \t]+", re.IGNORECASE)
_CODE_NAME = re.compile(r"`([A-Za-z_$][A-Za-z0-9_$]*)(?:\([^`]*\))?`")  # `Text` or `Text('a')`: one pass, linear

BASELINE_WIDGET = "Container"
"""The constant baseline's reply to a widget-name question (the most common widget of Flutter code)."""


def read_widget_name(text: str, case_sensitive: bool, aliases: Mapping[str, str], context: str) -> tuple[Any, str] | None:
    """A class name; ``Text('Hi')`` → Text, "the Scaffold widget" → Scaffold, aliases map abbreviations."""
    name = text.strip()
    if name[-6:].lower() == "widget" and name[:-6] != name[:-6].rstrip():  # "the Scaffold widget"
        name = name[:-6].rstrip()
    name = _ARTICLE.sub("", name, count=1)
    if m := _CALL.match(name):
        name = m.group(1)
    name = name.strip("`*\"' ")
    if not name:
        return None
    if any(ch.isspace() for ch in name):
        return _widget_in_sentence(text, case_sensitive, aliases, context)
    name = aliases.get(name, name)
    return (name if case_sensitive else name.casefold(), name)


def _widget_in_sentence(
    text: str, case_sensitive: bool, aliases: Mapping[str, str], context: str
) -> tuple[Any, str] | None:
    """A sentence naming one class in code spans besides those the question names ("The `build` method of
    `GreetingText` returns a `Text` widget." → Text); none, or several different ones, is no answer."""
    named = {m.group(1) for m in _CODE_NAME.finditer(context)}
    found: dict[str, str] = {}
    for m in _CODE_NAME.finditer(text):
        raw = m.group(1)
        if raw in named or not raw[:1].isupper():
            continue
        full = aliases.get(raw, raw)
        found[full if case_sensitive else full.casefold()] = full
    if len(found) != 1:
        return None
    key, full = next(iter(found.items()))
    return (key, full)
