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
# Code between strings and comments (``_hard_start``) is read by one ``findall`` of ``_SEGMENT``: each match is one
# token after its whitespace, as (space, token, stray character); all empty at the segment's whitespace end. A token's
# kind is its first character's (``_segment``). Numbers are spelled out flat (a digit run may hold ``_`` but not
# end with one: ``1_`` is ``1`` then ``_``).
# A run of code also ends before a character that starts no token (every operator character is an operator by
# itself): the general path reports it.
_PLAIN: Final = re.compile(
    r"[ \t\r\nA-Za-z0-9_$" + re.escape("".join(sorted(set("".join(OPERATORS)) - {"/"}))) + "]*"
)
"""Whitespace, word and operator characters but ``/``: a run of code ends at none of them. Read as one counted run
(a search for the end as one pattern, ``['"]|/[/*]|[^…]``, tries its alternatives at every character: sre makes
no first-character table for it)."""


def _hard_start(text: str, i: int) -> int:
    """Where the run of code from ``i`` ends (``len(text)`` when it runs to the end): at a quote, a ``//`` or ``/*``,
    or a character that starts no token. Runs of ``_PLAIN``, a ``/`` that opens no comment stepped over."""
    n = len(text)
    while True:
        j = _PLAIN.match(text, i).end()  # type: ignore[union-attr]  # an empty run matches too
        if j < n and text[j] == "/" and not text.startswith(("//", "/*"), j):
            i = j + 1
        else:
            return j


_RUN: Final = r"[0-9][0-9_]*(?<=[0-9])"
_EXP: Final = r"[eE][+-]?" + _RUN
_NUMBER: Final = (
    r"0[xX][0-9A-Fa-f][0-9A-Fa-f_]*(?<=[0-9A-Fa-f])"
    + f"|{_RUN}(?:\\.{_RUN}{_EXP}|\\.{_RUN}|{_EXP}|)"
    + f"|\\.{_RUN}(?:{_EXP}|)"
)


def _operator_choices() -> tuple[str, str]:
    """``OPERATORS`` as a class of the single-character ones and one alternative per first character of the others:
    the same longest match, found without trying fifty alternatives in turn (``>(?:>>=|>>|>=|>|=)?``)."""
    tails: dict[str, list[str]] = {}
    for op in OPERATORS:  # longest first
        tails.setdefault(op[0], []).append(op[1:])
    single = "".join(re.escape(first) for first, rest in tails.items() if rest == [""])
    several = [
        re.escape(first) + "(?:" + "|".join(re.escape(t) for t in rest if t) + ")?"
        for first, rest in tails.items()
        if rest != [""]
    ]
    return "[" + single + "]", "|".join(several)


_SEGMENT: Final = re.compile(
    r"([ \t\r\n]*)(?:([A-Za-z_$][A-Za-z0-9_$]*|"
    + _operator_choices()[0]
    + "|"
    + _NUMBER
    + "|"
    + _operator_choices()[1]
    + r")|([^ \t\r\n])|\Z)"
)
_TOKEN: Final = _SEGMENT.pattern[len(r"([ \t\r\n]*)(?:(") : -len(r")|([^ \t\r\n])|\Z)")]
# ``_SEGMENT`` without offsets (``_lex(…, offsets=False)``): the tokens alone, whitespace skipped unless a ``(``
# follows it, which is then read with it (``  (``: the one place where whitespace tells readings apart).
_SEGMENT_TOKENS: Final = re.compile(r"(?:[ \t\r\n]++(?!\()|)(" + _TOKEN + r"|[ \t\r\n]+\(|[^ \t\r\n]|\Z)")
_IDENTIFIER_START: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$")
_DIGIT: Final = frozenset("0123456789")
_SIMPLE_STRING: Final = re.compile(
    "|".join(
        f"{raw}{q}(?!{q}{q})[^{q}{stops}\\r\\n]*{q}" for q in ("'", '"') for raw, stops in (("", "\\\\$"), ("r", ""))
    )
)
"""A string literal on one line with no escape or interpolation (``'…'``, ``r"…"``; a triple quote opens none)."""
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


def _lex(text: str, offsets: bool = True) -> tuple[list[str], list[str], list[int]]:
    """``scan`` as lists (kinds, texts, offsets); without ``offsets`` the texts alone (``_comparable_texts``)."""
    kinds: list[str] = []
    texts: list[str] = []
    starts: list[int] = []
    n = len(text)
    i = 1 if text.startswith("\ufeff") else 0
    if text.startswith("#!", i):
        end = _REST_OF_LINE.match(text, i).end()  # type: ignore[union-attr]
        texts.append(text[i:end])
        if offsets:
            kinds.append("script")
            starts.append(i)
        i = end
    # Frames of the string being read at top level: [raw, delim, start] for a string, [None, depth, start] for a
    # ``${`` interpolation. Empty: top-level code, where every token is emitted.
    stack: list[list] = []
    outer = 0  # start of the outermost open string
    while i < n:
        if not stack:
            j = _hard_start(text, i)
            if j > i:
                i = _code(text, i, j, kinds, texts, starts, offsets)
                if i > j:
                    continue
            if i >= n:
                break
        if stack and stack[-1][0] is not None:
            i = _in_string(text, i, stack[-1], stack)
            if not stack:
                texts.append(text[outer:i])
                if offsets:
                    kinds.append("string")
                    starts.append(outer)
            continue
        ch = text[i]
        if ch in " \t\r\n":
            i = _SPACE.match(text, i).end()  # type: ignore[union-attr]
            continue
        start, kind = i, "operator"
        if ch == "/" and text.startswith("//", i):
            kind, i = COMMENT, _LINE_COMMENT.match(text, i).end()  # type: ignore[union-attr]
        elif ch == "/" and text.startswith("/*", i):
            kind, i = COMMENT, _block_comment_end(text, i)
        elif ch in "'\"r" and (simple := _SIMPLE_STRING.match(text, i)) is not None:
            kind, i = "string", simple.end()  # one line, no escape or interpolation: read in one match
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
            texts.append(text[start:i])
            if offsets:
                kinds.append(kind)
                starts.append(start)
    if stack:
        raise DartScanError("unterminated string", outer)
    return kinds, texts, starts


def _code(
    text: str, i: int, j: int, kinds: list[str], texts: list[str], starts: list[int], offsets: bool
) -> int:
    """Read the code from ``i`` to ``j`` (where a string or comment starts, or the end): the offset to go on from."""
    n = len(text)
    # ``~//``: ``~/`` then ``/`` (the longest operator wins over the comment it would open)
    end = j + 1 if text[j - 1] == "~" and j < n and text[j] == "/" else j
    if offsets:
        _segment(text, i, end, kinds, texts, starts)
        glued_r = bool(texts) and texts[-1] == "r" and starts[-1] == j - 1
    elif _segment_tokens(text, i, end, texts):
        glued_r = texts[-1] == "r" and text[j - 1] == "r"  # the segment's last token ends at j
    else:
        glued_r = False
    if end == j and j < n and glued_r and text[j] in "'\"":
        texts.pop()  # ``r'…'``: the word ``r`` is a raw string's prefix
        if offsets:
            kinds.pop()
            starts.pop()
        return j - 1
    return end


def _segment(text: str, i: int, end: int, kinds: list[str], texts: list[str], starts: list[int]) -> None:
    """The tokens of ``text[i:end]``, code holding no string or comment (``_SEGMENT``), appended to the lists."""
    for space, token, stray in _SEGMENT.findall(text, i, end):
        i += len(space)
        if token:
            first = token[0]
            if first in _IDENTIFIER_START:
                kinds.append("identifier")
            elif first in _DIGIT or (first == "." and len(token) > 1 and token[1] in _DIGIT):
                kinds.append("number")
            else:
                kinds.append("operator")
            texts.append(token)
        elif stray:
            raise DartScanError(f"unexpected character {stray!r}", i)
        else:
            return  # whitespace to the end
        starts.append(i)
        i += len(token)


def _segment_tokens(text: str, i: int, end: int, texts: list[str]) -> int:
    """``_segment`` without offsets or kinds (``_SEGMENT_TOKENS``): how many tokens it appended."""
    found = _SEGMENT_TOKENS.findall(text, i, end)
    while found and not found[-1]:
        found.pop()  # whitespace to the end (read as empty matches)
    texts.extend(found)
    return len(found)


def token_texts(text: str, *, comments: bool = False) -> list[str]:
    """The texts of ``scan(text)``, comments left out unless asked for (what two equivalent programs share)."""
    return [t.text for t in scan(text) if comments or t.kind != COMMENT]


_CLOSING: Final = frozenset(")]}")
_OPENING: Final = frozenset({"(", " (", "[", "{"})
_NAME: Final = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_MEMBER_ACCESS: Final = frozenset({".", "?.", "..", "?.."})
KEYWORDS: Final = frozenset(
    """abstract as assert async await base break case catch class const continue covariant default deferred do
    dynamic else enum export extends extension external factory false final finally for get hide if implements
    import in interface is late library mixin new null of on operator part required rethrow return sealed set show
    static switch sync throw true try type typedef var void when while with yield""".split()
)
"""The specification's reserved words, built-in identifiers and contextual keywords, less ``Function``, ``super``
and ``this`` (a ``(`` after those opens a parameter or argument list): after these a ``(`` may open a
parenthesised expression, pattern or type, so a record."""


def _opens_arguments(prev: str, before: str, named: bool) -> bool:
    """Whether a ``(`` after ``prev`` (after ``before``; ``named``: ``prev`` is a name) opens an argument or parameter
    list: after a name that is no keyword (or a member's name, ``x.show(``) or after ``]`` (``a[0](``,
    ``operator [](``)."""
    if prev == "]":
        return True
    return named and (prev not in KEYWORDS or before in _MEMBER_ACCESS)


_FUNCTION_BODY: Final = frozenset({"{", "=>", "async", "sync"})


def insignificant_commas(texts: list[str]) -> set[int]:
    """The indices of the trailing commas (a ``,`` right before ``)``, ``]`` or ``}``) that Dart ignores, in a list
    of code token texts (no comments; an annotation's detached ``(`` written `` (``, see ``comparable``).

    A trailing comma is insignificant in argument and parameter lists and in collection, record and pattern
    literals with more than one element or a named one; it is significant in parentheses holding exactly one
    positional element, where it makes a record (``(1,)``, the record type ``(int,)``, the record pattern
    ``(var x,)``) of what would be a parenthesised expression, type or pattern. Which parentheses those are is
    read from the tokens around them: after a name that is no keyword, a member's name or ``]`` they hold
    arguments or parameters (``_opens_arguments``); after punctuation and before a function body (``{``,
    ``async``, ``sync``, or ``=>`` outside braces, where it could end a switch expression's pattern) parameters.
    Where the tokens cannot tell (after ``)``, ``>``, ``!`` or a keyword: ``f()(x,)``, ``g<T>(x,)``,
    ``on (int,) {``, ``when(x,)``) the comma counts."""
    dropped: set[int] = set()
    # per open bracket: [may be a record (0/1), commas at its level, named (0/1), first index, opened after a name]
    frames: list[list[int]] = []
    braces: list[bool] = []  # per open bracket: whether it is ``{``
    names: dict[str, bool] = {}  # token text → whether it is a name (the same few names open most brackets)
    prev, before = "", ""
    for k, text in enumerate(texts):
        if len(text) <= 2:  # every bracket, ``,`` and ``:``: after a longer token only ``prev`` moves on
            if text in _OPENING:
                named = names.get(prev)
                if named is None:
                    named = names[prev] = _NAME.fullmatch(prev) is not None
                record = text == " (" or (text == "(" and not _opens_arguments(prev, before, named))
                frames.append([int(record), 0, 0, k + 1, int(named)])
                braces.append(text == "{")
            elif text in _CLOSING:
                frame = frames.pop() if frames else [0, 0, 0, k, 0]
                if braces:
                    braces.pop()
                if prev == "," and not (text == ")" and frame[0] and frame[1] == 1 and not frame[2]):
                    dropped.add(k - 1)
                elif prev == "," and not frame[4] and k + 1 < len(texts) and texts[k + 1] in _FUNCTION_BODY:
                    if texts[k + 1] != "=>" or not (braces and braces[-1]):
                        dropped.add(k - 1)  # ``(x,) {``, ``(x,) async``, ``f((x,) => x)``: a function's parameter
            elif frames:
                frame = frames[-1]
                if text == ",":
                    frame[1] += 1
                elif text == ":" and frame[1] == 0 and (
                    k == frame[3] or (k == frame[3] + 1 and _NAME.fullmatch(prev))
                ):
                    frame[2] = 1  # ``(name: x,)``, ``(:x,)``: a named field makes a record with or without the comma
        before, prev = prev, text
    return dropped


def comparable(
    tokens: list[DartToken], *, comments: bool = False, loose: bool = True
) -> tuple[list[str], list[int]]:
    """What two renderings of one program must share, with each entry's offset: the token texts with comments
    (unless asked for) and the trailing commas Dart ignores (``insignificant_commas``) left out, and a ``(`` right
    after an annotation's name written `` (`` when whitespace parts them (``@x (int, int) f()`` is a record type,
    ``@x(…)`` the annotation's arguments). ``>`` tokens written apart are one entry, spaced as written (``Map<K,
    List<V> >`` gives ``> >``): no Dart expression or type starts with ``>``, so in a program that is Dart such a
    run closes type arguments, which Dart's parser reads alike however the run is split (it splits a ``>>`` to
    close two). ``first_difference`` takes a spaced run of the source as equal to any run of as many ``>`` in the
    other text, and a single token (``>>``: a shift, or two closers) only as equal to itself, so a shift decoded as
    ``> >`` is a difference. Everything else compares exactly as scanned. ``loose=False`` keeps every trailing
    comma as written.
    """
    return _comparable([t.kind for t in tokens], [t.text for t in tokens], [t.start for t in tokens], comments, loose)


def _joins_closers(texts: list[str], last_code: int, text: str) -> bool:
    """Whether the run of ``>`` ``text`` continues the run of ``>`` (spaced) that is the last code entry, so that
    both read as one entry ``> >`` (see ``comparable``); the caller has checked that no comment lies between."""
    if last_code < 0:
        return False
    last = texts[last_code]
    return last[-1] == ">" and text.count(">") == len(text) and last.count(">") + last.count(" ") == len(last)


def _dropped_commas(texts: list[str], code: list[int], comments: bool) -> set[int]:
    """Indices in ``texts`` of the trailing commas Dart ignores, read on the code entries only (``code``: their
    indices when ``comments`` kept comments among them)."""
    if not comments or len(code) == len(texts):
        return insignificant_commas(texts)
    return {code[k] for k in insignificant_commas([texts[k] for k in code])}


def _comparable(
    kinds: list[str], tokens: list[str], starts: list[int], comments: bool, loose: bool
) -> tuple[list[str], list[int]]:
    texts: list[str] = []
    offsets: list[int] = []
    code: list[int] = []  # with ``comments``: indices in ``texts`` of the tokens that are no comment (else all)
    last_code = -1  # index in ``texts`` of the last token that is no comment
    after_name = False  # the last tokens were ``@`` and a (dotted) name
    expect_name = False
    prev_end = -1
    commented = False  # a comment kept in ``texts`` since the last code token
    for k, text in enumerate(tokens):
        kind, start = kinds[k], starts[k]
        if kind == COMMENT:
            if comments:
                texts.append(text.rstrip())
                offsets.append(start)
                commented = True
            continue
        touching = start == prev_end  # a comment between parts them as whitespace does
        prev_end = start + len(text)
        if text == "(" and after_name and not touching:
            text = " ("
        after_name = (expect_name and kind == "identifier") or (after_name and text == ".")
        if after_name and text == ".":
            expect_name, after_name = True, False
        else:
            expect_name = text == "@"
        if text[0] == ">" and not commented and _joins_closers(texts, last_code, text):
            texts[last_code] += " " + text  # ``> >`` (see ``comparable``)
            continue
        texts.append(text)
        offsets.append(start)
        last_code = len(texts) - 1
        if comments:
            code.append(last_code)
        commented = False
    if not loose:
        return texts, offsets
    gone = _dropped_commas(texts, code, comments)
    if not gone:
        return texts, offsets
    return [t for k, t in enumerate(texts) if k not in gone], [o for k, o in enumerate(offsets) if k not in gone]


_MAY_CHANGE_ENTRY: Final = frozenset("/ \t\r\n@>")
"""First characters of the tokens ``_comparable_texts`` may read otherwise than as a plain entry when no annotation
name is being read: a comment, a ``(`` after whitespace, ``@``, a run of ``>``."""


def _comparable_texts(tokens: list[str], comments: bool, loose: bool) -> list[str]:
    """``_comparable`` of ``_lex(text, offsets=False)``'s texts, each token's kind read from its text: a comment
    starts ``//`` or ``/*``, a name starts as one and ends with no quote (a raw string ``r'…'`` does), a ``(``
    after whitespace comes with its whitespace. The same entries, without offsets (kept apart from ``_comparable``:
    this is the check's loop, run on every token of both texts)."""
    texts: list[str] = []
    code: list[int] = []  # with ``comments``: indices in ``texts`` of the tokens that are no comment (else all)
    last_code = -1  # index in ``texts`` of the last token that is no comment
    after_name = False  # the last tokens were ``@`` and a (dotted) name
    expect_name = False
    gap = True  # a comment (or the start) since the last code token
    commented = False  # a comment kept in ``texts`` since the last code token
    for text in tokens:
        first = text[0]
        if not (after_name or expect_name) and first not in _MAY_CHANGE_ENTRY:
            texts.append(text)  # most tokens: an entry as scanned, after which no annotation or ``>`` run is open
            last_code = len(texts) - 1
            if comments:
                code.append(last_code)
            gap = commented = False
            continue
        if first == "/" and text[1:2] in ("/", "*"):
            if comments:
                texts.append(text.rstrip())
                commented = True
            gap = True
            continue
        if first in " \t\r\n":
            text = " (" if after_name else "("  # after whitespace: never glued to the name before it
        elif text == "(" and after_name and gap:
            text = " ("
        gap = False
        named = expect_name and first in _IDENTIFIER_START and text[-1] not in "'\""
        after_name = named or (after_name and text == ".")
        if after_name and text == ".":
            expect_name, after_name = True, False
        else:
            expect_name = text == "@"
        if text[0] == ">" and not commented and _joins_closers(texts, last_code, text):
            texts[last_code] += " " + text  # ``> >`` (see ``comparable``)
            continue
        texts.append(text)
        last_code = len(texts) - 1
        if comments:
            code.append(last_code)
        commented = False
    if not loose:
        return texts
    gone = _dropped_commas(texts, code, comments)
    return [t for k, t in enumerate(texts) if k not in gone] if gone else texts


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and character column of ``offset`` in ``text`` (where ``first_difference`` points)."""
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _closers(text: str) -> int:
    """How many ``>`` a run of ``>`` tokens holds (0 for any other token)."""
    return len(text) - text.count(" ") if text[0] == ">" and text.count(">") + text.count(" ") == len(text) else 0


def _same_entry(want: str, got: str) -> bool:
    """Equal, or a run of ``>`` the source writes apart against any run of as many ``>`` (see ``comparable``)."""
    return want == got or (want[0] == ">" and " " in want and _closers(want) == _closers(got))


_TRAILING_COMMA: Final = re.compile(r",[ \t\r\n]*(?:[)\]}]|/[/*])")
"""A ``,`` followed by a closer or a comment, across whitespace: where a trailing comma may be. Between two tokens of
code lie only whitespace and comments, so a text this does not match has no trailing comma, and nothing for
``insignificant_commas`` to find (a match in a string or comment only costs that search)."""


def _may_trail(text: str) -> bool:
    """Whether ``text`` may hold a trailing comma (``_TRAILING_COMMA``): when not, reading it ``loose`` drops
    nothing, and the check skips ``insignificant_commas`` (the decoded side of most round trips)."""
    return _TRAILING_COMMA.search(text) is not None


def first_difference(
    source: str, other: str, *, comments: bool = False, loose: bool = True
) -> tuple[int, str, str] | None:
    """Where ``other`` stops being the same token stream as ``source`` (see ``comparable``): (offset in ``source``,
    the source's token there, ``other``'s), or None when they agree. ``DartScanError`` when either is not Dart."""
    read = _comparable_texts(_lex(source, False)[1], comments, loose and _may_trail(source))
    got = _comparable_texts(_lex(other, False)[1], comments, loose and _may_trail(other))
    if read == got:
        return None
    want, where = _comparable(*_lex(source), comments, loose)  # where they part: read again, with offsets
    for k, text in enumerate(want):
        if k >= len(got) or not _same_entry(text, got[k]):
            return where[k], text, got[k] if k < len(got) else "<end>"
    if len(got) > len(want):
        return len(source), "<end>", got[len(want)]
    return None
