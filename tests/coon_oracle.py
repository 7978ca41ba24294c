"""The round trip the COON tests check: COON made WITHOUT the encoder's self-check, its decode read by Dart's
scanner (``coonbench.dart.scan``, written from the language specification, independent of tree-sitter and of the
verifier) and compared with the source. A wrong encoder or decoder fails these tests instead of being refused by
the very check the tests would otherwise repeat."""

from __future__ import annotations

from coonbench.dart.scan import first_difference
from coonbench.formats.coon import decode, encode


def token_difference(source: str, back: str, *, comments: bool = False) -> str | None:
    """None when ``back`` has ``source``'s tokens (``scan.comparable``), else where and how it differs."""
    found = first_difference(source, back, comments=comments)
    return None if found is None else f"offset {found[0]}: {found[1]!r} came back as {found[2]!r}"


def unverified_roundtrip(source: str, *, keep_comments: bool = False) -> tuple[str, str | None]:
    """(COON of ``source`` made with verification off, how its decode differs from ``source``: None if it does not)."""
    coon = encode(source, keep_comments=keep_comments, verify=False)
    return coon, token_difference(source, decode(coon), comments=keep_comments)
