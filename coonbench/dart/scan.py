"""Dart's lexical rules, read from the language specification, as a scanner that owes nothing to tree-sitter.

This is the oracle the codecs are checked against: the encoder's self-check and the tests compare the token stream
of a decoded or minified program with the source's, so a token that tree-sitter reads the same either way (``...?``
against ``... ?``) cannot slip through. Written from the specification's lexical grammar, not from the other
scanners in this package (``strings`` and ``minify``), so that it shares none of their mistakes:

- whitespace is space, tab, CR and LF; a byte-order mark may open the file, and a script tag (``#!`` to the end of
  the line) may stand at its very start;
- comments: ``//`` to the end of the line, ``/* … */`` nesting (``/* /* */ */`` is one comment);
- identifiers and reserved words: ``[A-Za-z_$][A-Za-z0-9_$]*`` (ASCII letters only; a keyword is a word like any
  other here);
- numbers: decimal ``1``, ``1.5``, ``.5``, ``1e-3``, hexadecimal ``0xFF``, with ``_`` separators between digits
  (``1_000``); a ``.`` must be followed by a digit to belong to a number, so ``1.isEven`` is ``1 . isEven``;
- strings: ``'…'``, ``"…"``, ``'''…'''``, ``\"\"\"…\"\"\"``, raw ones after a lowercase ``r``; escapes and ``$``
  interpolation in the others; ``${…}`` holds any code, nested strings and comments included. One literal is one
  token (its exact text), so adjacent literals ``'a' 'b'`` are two;
- operators and punctuation by maximal munch: ``...?``, ``?..``, ``>>>=`` and ``??=`` are one token each.

Iterative (an explicit stack of open strings and interpolations): deep nesting cannot reach Python's recursion
limit. No regular expression here nests quantifiers. Malformed text raises ``DartScanError`` with its offset.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

OPERATORS: Final[tuple[str, ...]] = tuple(
    sorted(
        """>>>= ...? >>> >>= <<= ~/= ??= ... ?.. >> << >= <= == != => && || ?? ?. .. ++ -- += -= *= /= %= &= |= ^=
        ~/ ( ) [ ] { } , ; : . ? ! ~ + - * / % < > = & | ^ @ #""".split(),
        key=len,
        reverse=True,
    )
)
"""Every operator and punctuator of the specification, longest first (the scanner takes the longest that fits)."""

COMMENT: Final = "comment"
KINDS: Final = ("identifier", "number", "string", "operator", COMMENT, "script")


class DartToken(NamedTuple):
    kind: str
    text: str
    start: int


class DartScanError(ValueError):
    """Text that is not Dart at the lexical level (an unterminated string or comment, a stray character)."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(f"{message} at offset {offset}")
        self.offset = offset


# One regular expression per token class, tried at the current offset; none of them nests quantifiers.
_SPACE: Final = re.compile(r"[ \t\r\n]+")
_LINE_COMMENT: Final = re.compile(r"//[^\r\n]*")
_REST_OF_LINE: Final = re.compile(r"[^\r\n]*")
_WORD: Final = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_DIGITS: Final = re.compile(r"[0-9][0-9_]*")
_HEX: Final = re.compile(r"0[xX][0-9A-Fa-f][0-9A-Fa-f_]*")
_OPERATOR: Final = re.compile("|".join(re.escape(op) for op in OPERATORS))
_BLOCK_MARK: Final = re.compile(r"/\*|\*/")
# The common case in one match: whitespace, then a word (not the ``r`` of a raw string) or an operator (not a
# comment's ``/``, not the ``.`` of ``.5``). Anything else (strings, numbers, comments) takes the general path.
_FAST: Final = re.compile(
    r"[ \t\r\n]*(?:(?P<identifier>(?!r['\"])[A-Za-z_$][A-Za-z0-9_$]*)|(?!/[/*]|\.[0-9])(?P<operator>"
    + "|".join(re.escape(op) for op in OPERATORS)
    + "))"
)
_STRING_STOPS: Final = {
    (quote, raw): re.compile("[" + re.escape(quote) + "\r\n" + ("" if raw else "\\\\$") + "]")
    for quote in ("'", '"')
    for raw in (False, True)
}


def _digits(text: str, i: int) -> int:
    """End of the digit run at ``i`` (``_`` only between digits: ``1_000``, but ``1_`` is ``1`` then ``_``)."""
    match = _DIGITS.match(text, i)
    if match is None:
        return i
    end = match.end()
    while text[end - 1] == "_":
        end -= 1
    return end


def _number_end(text: str, i: int) -> int:
    """End of the number literal at ``i`` (a digit, or ``.`` followed by a digit)."""
    hexa = _HEX.match(text, i)
    if hexa is not None:
        end = hexa.end()
        while text[end - 1] == "_":
            end -= 1
        return end
    j = _digits(text, i)
    if text.startswith(".", j) and text[j + 1 : j + 2].isdigit() and text[j + 1].isascii():
        j = _digits(text, j + 1)
    if text[j : j + 1] in ("e", "E"):
        k = j + 1 + (text[j + 1 : j + 2] in ("+", "-"))
        if text[k : k + 1].isdigit() and text[k].isascii():
            j = _digits(text, k)
    return j


def _block_comment_end(text: str, i: int) -> int:
    """End of the nesting block comment opened at ``i``."""
    depth, j = 1, i + 2
    while True:
        mark = _BLOCK_MARK.search(text, j)
        if mark is None:
            raise DartScanError("unterminated block comment", i)
        depth += 1 if mark.group() == "/*" else -1
        j = mark.end()
        if depth == 0:
            return j


def _string_open(text: str, i: int) -> tuple[bool, str, int] | None:
    """(raw, closing delimiter, offset after the opening) of a string literal starting at ``i``, else None."""
    raw = text.startswith("r", i)
    q = i + 1 if raw else i
    quote = text[q : q + 1]
    if quote not in ("'", '"'):
        return None
    delim = quote * 3 if text.startswith(quote * 3, q) else quote
    return raw, delim, q + len(delim)


def _in_string(text: str, j: int, frame: list, stack: list[list]) -> int:
    """One step inside an open string (``frame`` = [raw, delimiter, start]): the offset to go on from."""
    raw, delim = frame[0], frame[1]
    stop = _STRING_STOPS[delim[0], raw].search(text, j)
    if stop is None:
        raise DartScanError("unterminated string", frame[2])
    j = stop.start()
    ch = text[j]
    if ch == delim[0]:
        if text.startswith(delim, j):
            stack.pop()
            return j + len(delim)
        return j + 1
    if ch in "\r\n":
        if len(delim) == 1:
            raise DartScanError("unterminated string (end of line)", frame[2])
        return j + 1
    if ch == "\\":
        return j + 2
    if text.startswith("{", j + 1):  # ``${``: code until the matching ``}``
        stack.append([None, 1, j])
        return j + 2
    return j + 1  # ``$name``: the name is plain text to the end finder


def scan(text: str) -> list[DartToken]:
    """The token stream of ``text`` (comments included: kind ``comment``); ``DartScanError`` where it is not Dart."""
    kinds, texts, starts = _lex(text)
    return [DartToken(k, t, s) for k, t, s in zip(kinds, texts, starts)]


def _lex(text: str) -> tuple[list[str], list[str], list[int]]:
    """``scan`` as three lists (kinds, texts, offsets): no object per token (the encoder's check scans every
    document twice)."""
    kinds: list[str] = []
    texts: list[str] = []
    starts: list[int] = []
    n = len(text)
    i = 1 if text.startswith("\ufeff") else 0
    if text.startswith("#!", i):
        end = _REST_OF_LINE.match(text, i).end()  # type: ignore[union-attr]
        kinds.append("script")
        texts.append(text[i:end])
        starts.append(i)
        i = end
    # Frames of the string being read at top level: [raw, delim, start] for a string, [None, depth, start] for a
    # ``${`` interpolation. Empty: top-level code, where every token is emitted.
    stack: list[list] = []
    outer = 0  # start of the outermost open string
    fast = _FAST.match
    while i < n:
        if not stack:
            m = fast(text, i)
            if m is not None:
                group = m.lastgroup
                assert group is not None
                start = m.start(group)
                i = m.end()
                kinds.append(group)
                texts.append(text[start:i])
                starts.append(start)
                continue
        if stack and stack[-1][0] is not None:
            i = _in_string(text, i, stack[-1], stack)
            if not stack:
                kinds.append("string")
                texts.append(text[outer:i])
                starts.append(outer)
            continue
        ch = text[i]
        if ch in " \t\r\n":
            i = _SPACE.match(text, i).end()  # type: ignore[union-attr]
            continue
        start = i
        kind = "operator"
        if ch == "/" and text.startswith("//", i):
            kind, i = COMMENT, _LINE_COMMENT.match(text, i).end()  # type: ignore[union-attr]
        elif ch == "/" and text.startswith("/*", i):
            kind, i = COMMENT, _block_comment_end(text, i)
        elif ch in "'\"r" and (opened := _string_open(text, i)) is not None:
            raw, delim, i = opened
            if not stack:
                outer = start
            stack.append([raw, delim, start])
            continue
        elif ch.isascii() and (ch.isalpha() or ch in "_$"):
            kind, i = "identifier", _WORD.match(text, i).end()  # type: ignore[union-attr]
        elif (ch.isdigit() and ch.isascii()) or (ch == "." and text[i + 1 : i + 2].isdigit() and text[i + 1].isascii()):
            kind, i = "number", _number_end(text, i)
        else:
            op = _OPERATOR.match(text, i)
            if op is None:
                raise DartScanError(f"unexpected character {ch!r}", i)
            i = op.end()
            if stack:  # inside ``${…}``: only the braces matter
                frame = stack[-1]
                if ch == "{":
                    frame[1] += 1
                elif ch == "}":
                    frame[1] -= 1
                    if frame[1] == 0:
                        stack.pop()
                continue
        if not stack:
            kinds.append(kind)
            texts.append(text[start:i])
            starts.append(start)
    if stack:
        raise DartScanError("unterminated string", outer)
    return kinds, texts, starts


def token_texts(text: str, *, comments: bool = False) -> list[str]:
    """The texts of ``scan(text)``, comments left out unless asked for (what two equivalent programs share)."""
    return [t.text for t in scan(text) if comments or t.kind != COMMENT]


_CLOSING: Final = frozenset(")]}")


def comparable(
    tokens: list[DartToken], *, comments: bool = False, loose: bool = True
) -> tuple[list[str], list[int]]:
    """What two renderings of one program must share, with each entry's offset: the token texts with comments
    (unless asked for) and trailing commas (a ``,`` right before ``)``, ``]`` or ``}``) left out, runs of ``>``
    split into single ones (``List<List<int>>`` closes two type-argument lists, which Dart's parser splits), and a
    ``(`` right after an annotation's name written `` (`` when whitespace parts them (``@x (int, int) f()`` is a
    record type, ``@x(…)`` the annotation's arguments). A trailing comma of a one-element record ``(1,)`` and a shift
    ``>>`` against ``> >`` are not told apart here: the tree comparison that goes with this one tells them apart.
    ``loose=False`` keeps trailing commas and ``>`` runs as written: equal then means the same program for Dart.
    """
    return _comparable([t.kind for t in tokens], [t.text for t in tokens], [t.start for t in tokens], comments, loose)


def _comparable(
    kinds: list[str], tokens: list[str], starts: list[int], comments: bool, loose: bool
) -> tuple[list[str], list[int]]:
    texts: list[str] = []
    offsets: list[int] = []
    after_name = False  # the last tokens were ``@`` and a (dotted) name
    expect_name = False
    prev_end = -1
    last_code = -1  # index in ``texts`` of the last token that is no comment
    for k, text in enumerate(tokens):
        kind, start = kinds[k], starts[k]
        end, touching = start + len(text), start == prev_end
        prev_end = end
        if kind == COMMENT:
            if comments:
                texts.append(text.rstrip())
                offsets.append(start)
            continue
        if loose and text in _CLOSING and last_code >= 0 and texts[last_code] == ",":
            del texts[last_code], offsets[last_code]  # comments after it stay where they are
        if text == "(" and after_name and not touching:
            text = " ("
        after_name = (expect_name and kind == "identifier") or (after_name and text == ".")
        if after_name and text == ".":
            expect_name, after_name = True, False
        else:
            expect_name = text == "@"
        if loose and text[0] == ">" and text.count(">") == len(text) > 1:
            for k in range(len(text)):
                texts.append(">")
                offsets.append(start + k)
        else:
            texts.append(text)
            offsets.append(start)
        last_code = len(texts) - 1
    return texts, offsets


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and character column of ``offset`` in ``text`` (where ``first_difference`` points)."""
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def first_difference(
    source: str, other: str, *, comments: bool = False, loose: bool = True
) -> tuple[int, str, str] | None:
    """Where ``other`` stops being the same token stream as ``source`` (see ``comparable``): (offset in ``source``,
    the source's token there, ``other``'s), or None when they agree. ``DartScanError`` when either is not Dart."""
    want, where = _comparable(*_lex(source), comments, loose)
    got, _ = _comparable(*_lex(other), comments, loose)
    for k, text in enumerate(want):
        if k >= len(got) or got[k] != text:
            return where[k], text, got[k] if k < len(got) else "<end>"
    if len(got) > len(want):
        return len(source), "<end>", got[len(want)]
    return None
