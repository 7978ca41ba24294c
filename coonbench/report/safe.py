"""Names from logs, made safe where they land: a file name, Markdown text, a CSV cell.

Every category, model, format, task, sample id and question type in a report comes from a log, and logs are
published by anyone. Where such a name becomes a path it is reduced to a plain file name inside the output folder;
where it becomes Markdown it carries no HTML and no line break; where it becomes a spreadsheet cell it cannot be a
formula. (HTML escapes with ``html.escape`` in ``render``; plot labels are drawn without mathtext in ``plots``.)
"""

from __future__ import annotations

import hashlib
import re

import pandas as pd

STEM_CHARS = 80
"""Longest file stem made from a name (a file name has at most 255 bytes; plots add a suffix)."""

_UNSAFE_FILE_CHAR = re.compile(r"[^A-Za-z0-9._-]")
_LINE_BREAKS = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]+")
_MD_ESCAPES = str.maketrans({"\\": "\\\\", "$": "\\$", "&": "&amp;", "<": "&lt;", ">": "&gt;", "[": "\\[", "]": "\\]"})
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def file_stem(name: str, limit: int = STEM_CHARS) -> str:
    """A file name made from ``name``: ASCII letters, digits, ``.``, ``-`` and ``_`` only (no separator, no
    leading dot, so never a path out of its folder), at most ``limit`` characters. A name that had to change
    gets a short hash of itself appended, so two names never share a file (``a/b`` and ``a_b``)."""
    stem = _UNSAFE_FILE_CHAR.sub("_", str(name)).lstrip(".")
    if stem == name and 0 < len(stem) <= limit:
        return stem
    digest = hashlib.sha256(str(name).encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{stem[: limit - 11]}-{digest}"


def md_text(text: object) -> str:
    """Text for one line of Markdown: control characters and line breaks as one space (no new block can start),
    ``& < >`` as entities (no raw HTML, no comment, no autolink), brackets and backslashes escaped (no link or
    image), and ``$`` escaped (no math where a renderer reads ``$…$`` as TeX).
    ``**bold**`` and ``code`` spans stay as they are: they are the only markup the report's sentences use."""
    return _LINE_BREAKS.sub(" ", str(text)).translate(_MD_ESCAPES)


def csv_cell(value: object) -> object:
    """A CSV cell a spreadsheet will not run: text starting with ``= + - @``, a tab or a line break gets a leading
    apostrophe (OWASP's advice); numbers, plain numeric text and a lone ``-`` stay as they are."""
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS):
        return value
    if value == "-" or _NUMBER.fullmatch(value):
        return value
    return "'" + value


def csv_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with every text cell and column name made safe by ``csv_cell``."""
    out = frame.copy()
    out.columns = [csv_cell(str(c)) for c in frame.columns]
    for i, dtype in enumerate(frame.dtypes):
        if not pd.api.types.is_numeric_dtype(dtype):  # text columns (by position: two names may coincide)
            out.isetitem(i, frame.iloc[:, i].map(csv_cell))
    return out
