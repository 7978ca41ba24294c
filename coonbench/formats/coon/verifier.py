"""Self-verifying COON encode: decode the output, compare it with the source, refuse loudly instead of being lossy.

``encode`` is lossless by design (``reading`` mirrors the decoder), but a design is not a proof: Dart keeps
growing (dot shorthands, digit separators, …). So by default every encode decodes its own output and compares it
with the source as Dart's scanner reads them (``coonbench.dart.scan``, written from the language specification,
owing nothing to tree-sitter): the same tokens, the comments too when they are kept. Dart's parser is a function
of the token stream, so equal streams are the same program; the comparison leaves out only what Dart ignores (the
trailing commas that make no record, ``scan.insignificant_commas``) and takes a run of ``>`` the source writes
apart as closers of type arguments however it is split (``scan.comparable``). So it catches what the grammar reads
alike (``...?a`` and ``... ?a``, ``(int,)`` and ``(int)``) as well as a record's dropped comma (``(1,)``) and a
shift written ``> >``; tree-sitter misreading the source cannot make it refuse a file whose tokens come back. When
the tokens differ, ``encode`` raises a ``FormatError`` naming the token and its line and column in the source.
``verify=False`` (or ``COONBENCH_COON_VERIFY=0``) skips the check.
"""

from __future__ import annotations

import os

from coonbench.dart.minify import join_tokens
from coonbench.dart.parse import ParsedUnit
from coonbench.dart.scan import DartScanError, first_difference, line_column, scan
from coonbench.formats.coon.decoder import decode_texts
from coonbench.formats.coon.encoder import encode_unit, parse_source
from coonbench.formats.coon.tables import HEADER_PREFIX, VERSION
from coonbench.formats.coon.words import collector_paused
from coonbench.formats.base import FormatError

VERIFY_ENV = "COONBENCH_COON_VERIFY"
"""Environment variable: ``0`` (or ``false``/``no``/``off``) makes ``encode`` skip its round-trip check."""


def verify_default() -> bool:
    """Whether ``encode`` verifies when its caller does not say (on unless ``COONBENCH_COON_VERIFY`` is off)."""
    return os.environ.get(VERIFY_ENV, "1").strip().lower() not in ("0", "false", "no", "off")


_EXPECTED = "Dart that COON round-trips (encode(..., verify=False) skips this check)"


def check_roundtrip(source: str, coon: str, keep_comments: bool) -> None:
    """Raise FormatError when ``coon`` does not decode to ``source``'s tokens (and comments, when kept): read by
    Dart's scanner alone, neither the source's parse nor a parse of the decoded Dart."""
    try:
        texts, _ = decode_texts(coon)
    except FormatError as err:
        raise FormatError(
            f"COON cannot represent this source exactly: its COON does not decode ({err})", 1, 1, expected=_EXPECTED
        ) from None
    # ``decode`` lays these tokens out (``layout``), inserting only whitespace that ``needs_space`` allows for:
    # joined minimally they read the same to Dart's scanner, and cost a fraction of the layout
    _check_tokens(source, join_tokens(texts), keep_comments)


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


def _with_trailing_commas(source: str, unit: ParsedUnit, keep_comments: bool, refusal: FormatError) -> str:
    """The COON with every trailing comma kept, when that round-trips; else ``refusal`` is raised.

    The encoder drops the trailing commas ``scan.insignificant_commas`` finds in tree-sitter's leaves; where those
    leaves are not Dart's tokens (tree-sitter misreading the source), a dropped comma may be one that counts."""
    text = encode_unit(unit, keep_comments=keep_comments, trailing_commas=True)
    try:
        check_roundtrip(source, text, keep_comments)
    except FormatError:
        raise refusal from None
    return text


def encode(
    source: str, *, keep_comments: bool = False, header: bool = False, verify: bool | None = None
) -> str:
    """Dart (a program or a fragment) → COON. Raises only FormatError: when the source is not Dart, and — unless
    ``verify`` is False (default: on, see ``COONBENCH_COON_VERIFY``) — when the COON would not decode back to
    the same tokens (and the same comments, with ``keep_comments``)."""
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
            check_roundtrip(source, text, keep_comments)
        except FormatError as refusal:
            text = _with_trailing_commas(source, unit, keep_comments, refusal)
    return f"{HEADER_PREFIX} {VERSION}\n{text}" if header else text
