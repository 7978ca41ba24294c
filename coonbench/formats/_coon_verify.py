"""Self-verifying COON encode: decode the output, compare trees, and refuse loudly instead of being silently lossy.

``encode`` is lossless by design (``_reading`` mirrors the decoder), but a design is not a proof: Dart keeps
growing (dot shorthands, digit separators, …). So by default every encode decodes its own output and compares
the tree with the source's (``coonbench.dart.equivalence``, plus the comments when they are kept). When they
differ, ``encode`` raises a ``FormatError`` naming the construct and its line and column in the source — silent
corruption is impossible by construction. ``verify=False`` (or ``COONBENCH_COON_VERIFY=0``) skips the check.
"""

from __future__ import annotations

import os
import re

import tree_sitter

from coonbench.dart.equivalence import node_position, unit_diff, unit_scan
from coonbench.dart.parse import DartParseError, ParsedUnit, parse_unit
from coonbench.dart.query import unit_tokens
from coonbench.formats._coon_decode import decode_texts
from coonbench.formats._coon_encode import encode_unit, parse_source
from coonbench.formats._coon_format import format_dart
from coonbench.formats._coon_tables import HEADER_PREFIX, VERSION
from coonbench.formats._coon_words import collector_paused
from coonbench.formats.base import FormatError

VERIFY_ENV = "COONBENCH_COON_VERIFY"
"""Environment variable: ``0`` (or ``false``/``no``/``off``) makes ``encode`` skip its round-trip check."""

_CLOSERS = (")", "]", "}")
_DOTTED_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+")


def verify_default() -> bool:
    """Whether ``encode`` verifies when its caller does not say (on unless ``COONBENCH_COON_VERIFY`` is off)."""
    return os.environ.get(VERIFY_ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def _split_closers(text: str) -> list[str]:
    """``>>`` → ``>``, ``>``; ``EdgeInsets.all`` (one decoded word) → three tokens: both sides alike."""
    if text and set(text) == {">"}:
        return list(text)
    if "." in text and _DOTTED_WORD.fullmatch(text):
        return re.split(r"(\.)", text)
    return [text]


def _token_mismatch(source: str, unit: ParsedUnit, decoded: list[str]) -> FormatError | None:
    """The first source token the decoded token stream does not reproduce (trailing commas are insignificant)."""
    src = unit_tokens(unit, comments=False)
    kept = []
    for k, tok in enumerate(src):
        if tok.text == "," and k + 1 < len(src) and src[k + 1].text in _CLOSERS:
            continue
        kept.append(tok)
    left = [(part, tok) for tok in kept for part in _split_closers(tok.text)]
    right = [part for text in decoded for part in _split_closers(text.rstrip(" "))]  # ``@x (``: see annotations
    for k, (text, tok) in enumerate(left):
        got = right[k] if k < len(right) else "<end>"
        if got != text:
            return _refusal(source, unit, tok.node, f"{text!r} would decode as {got!r}")
    if len(right) > len(left):
        return FormatError(f"COON round trip adds {right[len(left)]!r} at the end", expected="an exact round trip")
    return None


def _refusal(
    source: str, unit: ParsedUnit, node: tree_sitter.Node, detail: str, construct: str | None = None
) -> FormatError:
    where = node_position(source, unit.start_byte, node) or (None, None)
    what = construct or (node.parent.type if node.parent is not None else node.type)
    return FormatError(
        f"COON cannot represent this {what} exactly: {detail}",
        where[0],
        where[1],
        expected="Dart that COON round-trips (encode(..., verify=False) skips this check)",
    )


def check_roundtrip(source: str, unit: ParsedUnit, coon: str, keep_comments: bool) -> None:
    """Raise FormatError when ``coon`` does not decode to ``source``'s tree (and comments, when kept)."""
    try:
        texts, _ = decode_texts(coon)
    except FormatError as err:
        return _raise_mismatch(source, unit, [], f"its COON does not decode ({err})")
    decoded = format_dart(texts)
    try:
        back = parse_unit(decoded, unit.kind)  # the source's reading only: one parse
    except DartParseError as err:
        significant = [t for t in texts if not t.startswith(("//", "/*"))]
        return _raise_mismatch(source, unit, significant, f"decoded Dart does not parse ({err})")
    if keep_comments:
        unit_scan(back)  # its comments are compared below: one walk of the decoded tree serves both checks
    diff = unit_diff(unit, back, source)
    if diff is not None:
        raise FormatError(
            f"COON cannot represent this {diff.construct} exactly: {diff.left!r} would decode as {diff.right!r}",
            diff.line,
            diff.column,
            expected="Dart that COON round-trips (encode(..., verify=False) skips this check)",
        )
    if keep_comments:
        want = [t for t in unit_tokens(unit, comments=True) if t.is_comment]
        got = [t.text.rstrip() for t in unit_tokens(back, comments=True) if t.is_comment]
        for k, tok in enumerate(want):
            if k >= len(got) or got[k] != tok.text.rstrip():
                raise _refusal(source, unit, tok.node, "this comment would not come back", "comment")
        if len(got) > len(want):
            raise FormatError("COON round trip adds a comment", expected="an exact round trip")
    return None


def _raise_mismatch(source: str, unit: ParsedUnit, decoded: list[str], detail: str) -> None:
    found = _token_mismatch(source, unit, decoded) if decoded else None
    if found is not None:
        raise found
    raise FormatError(f"COON cannot represent this source exactly: {detail}", 1, 1, expected="an exact round trip")


def _with_trailing_commas(source: str, unit: ParsedUnit, keep_comments: bool, refusal: FormatError) -> str:
    """The COON with every trailing comma kept, when that round-trips; else ``refusal`` is raised.

    tree-sitter-dart reads ``f(() => g<A, B>(x), y,)`` as two comparisons but ``f(() => g<A, B>(x), y)`` as a
    generic call: where the grammar's choice between two readings depends on a trailing comma, dropping it would
    change the tree (found on bloc's and riverpod's tests)."""
    text = encode_unit(unit, keep_comments=keep_comments, trailing_commas=True)
    try:
        check_roundtrip(source, unit, text, keep_comments)
    except FormatError:
        raise refusal from None
    return text


def encode(
    source: str, *, keep_comments: bool = False, header: bool = False, verify: bool | None = None
) -> str:
    """Dart (a program or a fragment) → COON. Raises only FormatError: when the source is not Dart, and — unless
    ``verify`` is False (default: on, see ``COONBENCH_COON_VERIFY``) — when the COON would not decode back to
    the same tree (and the same comments, with ``keep_comments``)."""
    if not isinstance(source, str):
        raise FormatError("Dart source must be text", expected="str")
    with collector_paused():
        return _encode(source, keep_comments, header, verify)


def _encode(source: str, keep_comments: bool, header: bool, verify: bool | None) -> str:
    unit = parse_source(source)
    try:
        text = encode_unit(unit, keep_comments=keep_comments)
    except RecursionError:  # pragma: no cover - every walk is iterative; kept as the documented error if not
        raise FormatError("Dart nested too deeply to encode", 1, 1, expected="less nesting") from None
    if verify if verify is not None else verify_default():
        try:
            check_roundtrip(source, unit, text, keep_comments)
        except FormatError as refusal:
            text = _with_trailing_commas(source, unit, keep_comments, refusal)
    return f"{HEADER_PREFIX} {VERSION}\n{text}" if header else text
