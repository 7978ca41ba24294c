"""Pull the program out of a model reply: fenced blocks, prose around code, several fences.

Shared by every task that asks for code or data in a fence. ``extract_code(text, language)`` returns the body of
the fenced block in the requested language (the last such block; or the last one a caller's ``prefer`` accepts,
e.g. the block that defines the entry point), else the last fenced block of any language,
else — when there is no fence at all — the text itself if it looks like code of that language, else None.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

# ```lang\n ... ``` (also ~~~); an unclosed final fence runs to the end of the text (truncated replies).
# The opener is found by one possessive pattern and its closer by a second search from there, so a reply is
# scanned a bounded number of times (a single backtracking pattern was quadratic on long fence lines).
_OPENER = re.compile(r"(?m)^[ \t]*+(`{3,}+|~{3,}+)([^\n]*+)\n")
_TAG = re.compile(r"[ \t]*+([\w+#.-]*+)")

ALIASES: dict[str, set[str]] = {
    "python": {"python", "py", "python3"},
    "python-ast": {"json"},
    "json": {"json", "jsonc"},
    "javascript": {"javascript", "js", "node", "mjs"},
    "typescript": {"typescript", "ts"},
    "dart": {"dart"},
    "coon": {"coon"},
    "goth": {"goth"},
    "yaml": {"yaml", "yml"},
}

_CODE_HINTS: dict[str, re.Pattern[str]] = {
    "python": re.compile(r"(?m)^[ \t]*(def |class |import |from \w+ import |return\b)"),
    "javascript": re.compile(r"(?m)(\bfunction\b|=>|\bconst |\blet |\breturn\b)"),
    "goth": re.compile(r"╭─|╰─"),
    # Dart: any line a compilation unit can start with (directives, comments, annotations, declarations), or a call
    "dart": re.compile(r"(?m)^[ \t]*(?:(?:library|import|export|part|class|abstract|sealed|base|interface|final|mixin"
                       r"|enum|extension|typedef|const|var|late|void|Widget|return)\b|//|/\*|@[A-Za-z])"
                       r"|\b[A-Z]\w*\("),
    # COON: macros (#m, #B), constructor calls and braces; the validator decides the rest
    "coon": re.compile(r"(?m)^[ \t]*#[A-Za-z]|\b[A-Z]\w*\(|\{"),
}


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """Every fenced block as (language tag lower-cased, body), in order."""
    blocks: list[tuple[str, str]] = []
    pos = 0
    while (opener := _OPENER.search(text, pos)) is not None:
        fence = opener.group(1)
        tag = _TAG.match(opener.group(2)).group(1).lower()  # type: ignore[union-attr]
        closer = re.compile(r"(?m)^[ \t]*+" + re.escape(fence) + r"[ \t]*+$").search(text, opener.end())
        body_end = closer.start() if closer is not None else len(text)
        blocks.append((tag, text[opener.end() : body_end].rstrip("\n")))
        if closer is None:
            break
        pos = closer.end()
    return blocks


def _looks_like(text: str, language: str | None) -> bool:
    stripped = text.strip()
    if not stripped:
        return False
    if language in ("json", "python-ast"):
        start = min((i for i in (stripped.find("{"), stripped.find("[")) if i >= 0), default=-1)
        if start < 0:
            return False
        try:
            json.loads(stripped[start:])
            return True
        except (ValueError, RecursionError):  # deep nesting: let the validator say why
            return stripped.startswith(("{", "["))
    hint = _CODE_HINTS.get(language or "")
    return bool(hint and hint.search(stripped))


def extract_code(text: str, language: str | None = None, prefer: Callable[[str], bool] | None = None) -> str | None:
    """The code in a reply (see module doc); None when the reply holds no code. With ``prefer``, among the
    blocks of the language (else all blocks) the last one ``prefer`` accepts wins, else the last one: a reply
    that defines its function and then shows an "example usage" block is graded on the definition."""
    if not text or not text.strip():
        return None
    blocks = fenced_blocks(text)
    if blocks:
        wanted = ALIASES.get(language, {language}) if language else set()
        matching = [body for tag, body in blocks if tag in wanted] or [body for _, body in blocks]
        preferred = [body for body in matching if prefer(body)] if prefer is not None else []
        chosen = (preferred or matching)[-1]
        return chosen if chosen.strip() else None
    if language in ("json", "python-ast"):
        stripped = text.strip()
        starts = [i for i in (stripped.find("{"), stripped.find("[")) if i >= 0]
        if starts:
            end = max(stripped.rfind("}"), stripped.rfind("]"))
            candidate = stripped[min(starts) : end + 1] if end > min(starts) else stripped[min(starts) :]
            return candidate
        return None
    if language is None or _looks_like(text, language):
        return _strip_prose(text, language)
    return None


def _strip_prose(text: str, language: str | None) -> str:
    """Drop leading prose lines before the first line that looks like code (unfenced replies)."""
    lines = text.strip("\n").splitlines()
    hint = _CODE_HINTS.get(language or "")
    if hint is None:
        return "\n".join(lines)
    for i, line in enumerate(lines):
        if hint.search(line):
            return "\n".join(lines[i:]).strip("\n")
    return "\n".join(lines)
