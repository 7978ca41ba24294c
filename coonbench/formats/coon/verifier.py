"""Self-verifying COON encode: decode the output, compare it with the source, refuse loudly instead of being lossy.

``encode`` is lossless by design (``reading`` mirrors the decoder), but a design is not a proof: Dart keeps
growing (dot shorthands, digit separators, …). So by default every encode decodes its own output and compares it
with the source twice: as Dart's scanner reads them (``coonbench.dart.scan``, written from the language
specification: the same tokens, the comments too when they are kept) and as tree-sitter parses them (the same tree,
``coonbench.dart.equivalence``). The scanner catches what the grammar reads alike (``...?a`` and ``... ?a``); the
tree catches the two things the token comparison lets pass (a dropped trailing comma that made ``(1,)`` a record,
``>>`` against ``> >``). Where only the trees differ and the two token streams are the same to the last comma,
tree-sitter has misread one of them and the COON is kept: it is the same program for Dart. When they differ,
``encode`` raises a ``FormatError`` naming the token or construct and its line and column in the source.
``verify=False`` (or ``COONBENCH_COON_VERIFY=0``) skips the check.
"""

from __future__ import annotations

import os
import re

import tree_sitter

from coonbench.dart.equivalence import node_position, unit_diff
from coonbench.dart.minify import join_tokens
from coonbench.dart.parse import DartParseError, ParsedUnit, parse_unit
from coonbench.dart.query import unit_tokens
from coonbench.dart.scan import DartScanError, first_difference, line_column, scan
from coonbench.formats.coon.decoder import decode_texts
from coonbench.formats.coon.encoder import encode_unit, parse_source
from coonbench.formats.coon.tables import HEADER_PREFIX, VERSION
from coonbench.formats.coon.words import collector_paused
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
    """Raise FormatError when ``coon`` does not decode to ``source``'s tokens and tree (and comments, when kept)."""
    try:
        texts, _ = decode_texts(coon)
    except FormatError as err:
        return _raise_mismatch(source, unit, [], f"its COON does not decode ({err})")
    # ``decode`` lays these tokens out (``layout``), inserting only whitespace that ``needs_space`` allows for:
    # joined minimally they read the same, to Dart's scanner and to tree-sitter, and cost a fraction of the layout
    decoded = join_tokens(texts)
    try:
        back = parse_unit(decoded, unit.kind)  # the source's reading only: one parse
    except DartParseError as err:
        if _same_program(source, decoded, keep_comments):
            return None  # tree-sitter cannot read the decoded Dart, but it is token for token the source
        _check_tokens(source, decoded, keep_comments)
        significant = [t for t in texts if not t.startswith(("//", "/*"))]
        return _raise_mismatch(source, unit, significant, f"decoded Dart does not parse ({err})")
    diff = unit_diff(unit, back, source)
    if diff is None:
        return _check_tokens(source, decoded, keep_comments)  # what the grammar reads alike (``...?a``, ``... ?a``)
    if _same_program(source, decoded, keep_comments):
        return None  # tree-sitter reads one of the two otherwise, but for Dart they are the same tokens
    raise FormatError(
        f"COON cannot represent this {diff.construct} exactly: {diff.left!r} would decode as {diff.right!r}",
        diff.line,
        diff.column,
        expected=_EXPECTED,
    )


_EXPECTED = "Dart that COON round-trips (encode(..., verify=False) skips this check)"


def _check_tokens(source: str, decoded: str, keep_comments: bool) -> None:
    """The decoded Dart read by Dart's lexical rules gives the source's tokens (``scan.comparable``)."""
    try:
        found = first_difference(source, decoded, comments=keep_comments)
    except DartScanError as err:
        try:
            scan(source)
        except DartScanError as bad:
            raise FormatError(f"not Dart (its tokens cannot be read: {bad})", 1, 1, expected="valid Dart") from None
        raise FormatError(f"COON cannot represent this source exactly: {err}", 1, 1, expected=_EXPECTED) from None
    if found is not None:
        offset, want, got = found
        line, column = line_column(source, offset)
        what = "comment" if want.startswith(("//", "/*")) else "annotation" if " (" in (want, got) else "token"
        raise FormatError(
            f"COON cannot represent this {what} exactly: {want!r} would decode as {got!r}",
            line,
            column,
            expected=_EXPECTED,
        )


def _same_program(source: str, decoded: str, keep_comments: bool) -> bool:
    """Token for token the same, trailing commas and ``>`` runs as written: Dart reads both alike."""
    try:
        return first_difference(source, decoded, comments=keep_comments, loose=False) is None
    except DartScanError:
        return False


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
