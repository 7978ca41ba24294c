"""The round trip the COON tests check: COON made WITHOUT the encoder's self-check, its decode read by Dart's
scanner (``coonbench.dart.scan``, written from the language specification, independent of tree-sitter and of the
verifier) and compared with the source. A wrong encoder or decoder fails these tests instead of being refused by
the very check the tests would otherwise repeat. ``tree_difference`` reads with tree-sitter instead, for output the
encoder (or the minifier) has already checked with that scanner."""

from __future__ import annotations

from coonbench.dart import ast_diff
from coonbench.dart.equivalence import ATOMIC_TYPES, CLOSERS, Token, unit_scan
from coonbench.dart.parse import DartParseError, parse_unit
from coonbench.dart.scan import first_difference
from coonbench.dart.strings import string_parts
from coonbench.formats.coon import decode, encode


def token_difference(source: str, back: str, *, comments: bool = False) -> str | None:
    """None when ``back`` has ``source``'s tokens (``scan.comparable``), else where and how it differs."""
    found = first_difference(source, back, comments=comments)
    return None if found is None else f"offset {found[0]}: {found[1]!r} came back as {found[2]!r}"


def unverified_roundtrip(source: str, *, keep_comments: bool = False) -> tuple[str, str | None]:
    """(COON of ``source`` made with verification off, how its decode differs from ``source``: None if it does not)."""
    coon = encode(source, keep_comments=keep_comments, verify=False)
    return coon, token_difference(source, decode(coon), comments=keep_comments)


def tree_difference(source: str, back: str, *, comments: bool = False) -> str | None:
    """None when tree-sitter reads ``back`` as it reads ``source``, else how they differ: the same tree
    (``ast_diff``: whitespace, comments and trailing commas aside), the same token texts (tree-sitter's leaves, a
    ``...`` and a ``?`` that touch glued into Dart's one token ``...?``, trailing commas aside) and, with
    ``comments``, the same comments in order.

    Why a second reader: ``encode`` and ``minify`` check their own output with ``coonbench.dart.scan``
    (``first_difference``), so a test that checks with it too can only agree with them. tree-sitter owes nothing
    to that scanner: where the scanner and a codec are wrong together, this still sees another program. It is
    blind where the grammar is (``(int,)`` and ``(int)`` as record types), which the scanner's tests cover. On a
    text past tree-sitter's parse budget (10,000-deep hostile input) only the scanner can read, and is asked."""
    try:
        found = ast_diff(source, back)
        read = [unit_scan(parse_unit(text)) for text in (source, back)]
    except DartParseError as err:
        if err.no_tree and "gave up" in str(err):  # past tree-sitter's parse budget: no reader but the scanner
            return token_difference(source, back, comments=comments)
        return f"tree-sitter cannot read one of them: {err}"
    if found is not None:
        return f"another tree at {found.line}:{found.column}: {found}"
    want, got = (_code_texts(scan.code) for scan in read)
    if want != got:
        k = next((k for k, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
        return f"token {k}: {want[k] if k < len(want) else '<end>'!r} came back as {got[k] if k < len(got) else '<end>'!r}"
    if comments:
        notes = [[t.text.rstrip() for t in scan.tokens if t.is_comment] for scan in read]
        if notes[0] != notes[1]:
            return f"comments {notes[0]!r} came back as {notes[1]!r}"
    return None


def _code_texts(tokens: list[Token]) -> list[str]:
    """Token texts without the commas right before a closer (trailing commas, which the codecs may drop); a run of
    adjacent string literals (one token to tree-sitter) as its literals, whatever whitespace parts them."""
    texts = [" ".join(string_parts(t.text)) if t.type in ATOMIC_TYPES else t.text for t in tokens]
    return [t for k, t in enumerate(texts) if not (t == "," and k + 1 < len(texts) and texts[k + 1] in CLOSERS)]
