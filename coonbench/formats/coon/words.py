"""COON's shared reading rules: how the decoder reads a word, macro instantiation, short package URIs, the size
limit. The decoder (``decoder``) applies them; the encoder (``encoder``) checks every word it writes
against ``reading`` and escapes it whenever the decoder would read it differently — that is what makes the dialect
lossless. One module, so that the two directions cannot drift apart.
"""

from __future__ import annotations

import gc
import posixpath
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from coonbench.dart.minify import join_tokens
from coonbench.formats.coon.lexer import CTok
from coonbench.formats.coon.tables import (
    CLASS_PLACEHOLDER,
    ENUM_LABELS,
    IMPLIED,
    LABELS,
    MACROS,
    TYPES,
    WIDGETS,
)
from coonbench.formats.base import FormatError

WIDGET_WORDS: Final = {v: k for k, v in WIDGETS.items()}
TYPE_WORDS: Final = {v: k for k, v in TYPES.items()}
LABEL_WORDS: Final = {v: k for k, v in LABELS.items()}
# A label drops its colon when its value starts with one of these COON tokens (``c T('a')``, ``p@@16``).
VALUE_KINDS: Final = ("esc", "num", "edge", "cedge", "macro")
OPERAND_KINDS: Final = ("ident", *VALUE_KINDS)
# Implied constructors as Dart tokens (``BorderRadius.circular`` → ("BorderRadius", ".", "circular")).
IMPLIED_TOKENS: Final = {label: tuple(re.split(r"(\.)", full)) for label, full in IMPLIED.items()}
CLASS_MACROS: Final = frozenset(name for name, seq in MACROS.items() if any(CLASS_PLACEHOLDER in p for p in seq))
IDENT_RE: Final = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
# ``^name`` = ``required this.name`` directly after one of these (``^`` is binary-only in Dart, so never ambiguous).
REQUIRED_THIS: Final = ("required", "this", ".")
REQUIRED_THIS_AFTER: Final = ("(", "{", "[", ",")
# ``#`` where no name follows = ``.of(context)`` (``Theme#.textTheme`` = ``Theme.of(context).textTheme``): a ``#``
# in Dart starts a symbol, whose name or operator follows it directly (written ``#`x`` in COON).
OF_CONTEXT: Final = (".", "of", "(", "context", ")")
# Dart reserved words, built-in identifiers and lower-case built-in types: never read as a colon-less label.
NOT_LABELS: Final = frozenset(
    """assert break case catch class const continue default do else enum extends false final finally for if in is
    new null rethrow return super switch this throw true try var void while with abstract as covariant deferred
    dynamic export extension external factory function get implements import interface late library mixin operator
    part required set static typedef async await hide of on show sync yield base sealed when int double num bool
    """.split()
)
# Words that may follow an identifier at the start of an argument without making it a label (``for (x in xs)``).
INFIX_WORDS: Final = frozenset("in is as async sync".split())


def _label_word(text: str) -> bool:
    """A word that reads as a label at the start of an argument: a table word, or any lower-case identifier
    that is not a Dart keyword or built-in lower-case type (those start parameters and loop variables)."""
    return text in LABEL_WORDS or (text[0].islower() and text not in NOT_LABELS and text not in TYPE_WORDS)


def reading(tok: CTok, prev: CTok | None, nxt: CTok | None) -> tuple[str, str]:
    """How the decoder reads a word: ('label', full label) or ('ident', Dart identifier).

    Called once a word by the decoder and up to three times by the encoder, so its tests of the tokens around
    (``prev`` opens an argument: ``(`` or ``,``) are written out inline rather than through helper calls."""
    text = tok.text
    if tok.kind == "esc":
        return ("ident", text)
    if nxt is not None and prev is not None and prev.kind == "op" and (prev.text == "(" or prev.text == ","):
        full = LABEL_WORDS.get(text)
        nkind, ntext = nxt.kind, nxt.text
        if nkind == "op" and ntext == "." and full in ENUM_LABELS:
            return ("label", full)  # type: ignore[return-value]  # ``l.grey`` = ``color: Colors.grey``
        if nkind == "op" and ntext == "(" and full in IMPLIED:
            return ("label", full)  # type: ignore[return-value]  # ``s(z 14)`` = ``style: TextStyle(fontSize: 14)``
        if _label_word(text) and (
            (nkind == "op" and ntext == ":") or nkind in VALUE_KINDS or (nkind == "ident" and ntext not in INFIX_WORDS)
        ):
            return ("label", text if full is None else full)
    if nxt is not None and nxt.kind == "op" and (nxt.text == "(" or nxt.text == ".") and text in WIDGET_WORDS:
        return ("ident", WIDGET_WORDS[text])
    full_type = TYPE_WORDS.get(text)
    return ("ident", text if full_type is None else full_type)


def significant(tokens: list[CTok]) -> tuple[list[CTok | None], list[CTok | None]]:
    """For each token, the previous and next non-comment token (comments are transparent to every rule)."""
    if tokens and not any(tok.kind == "comment" for tok in tokens):  # no comment: the neighbours, by slicing
        before: list[CTok | None] = [None]
        before.extend(tokens[:-1])
        following: list[CTok | None] = []
        following.extend(tokens[1:])
        following.append(None)
        return before, following
    prevs: list[CTok | None] = []
    last: CTok | None = None
    for tok in tokens:
        prevs.append(last)
        if tok.kind != "comment":
            last = tok
    nexts: list[CTok | None] = [None] * len(tokens)
    last = None
    for i in range(len(tokens) - 1, -1, -1):
        nexts[i] = last
        if tokens[i].kind != "comment":
            last = tokens[i]
    return prevs, nexts


def declares_class(texts: list[str], k: int) -> bool:
    """Whether ``texts[k]`` is the name in a ``class Name`` (the rule class-name macros use, on Dart tokens)."""
    return k >= 1 and texts[k - 1] == "class" and IDENT_RE.fullmatch(texts[k]) is not None


def instantiate(name: str, cls: str | None) -> tuple[str, ...] | None:
    """Macro ``name``'s Dart tokens; class-name macros get ``cls`` (None when no class was declared before)."""
    seq = MACROS[name]
    if name not in CLASS_MACROS:
        return seq
    if cls is None:
        return None
    return tuple(part.replace(CLASS_PLACEHOLDER, cls) for part in seq)


def opens_list(tok: CTok | None) -> bool:
    """Whether ``tok`` (an operator, or a macro by its last Dart token) may be followed by ``^name``."""
    if tok is None:
        return False
    if tok.kind == "macro":
        return tok.text in MACROS and MACROS[tok.text][-1] in REQUIRED_THIS_AFTER
    return tok.is_op(*REQUIRED_THIS_AFTER)


def macro_text(name: str) -> str:
    """Macro ``name`` as readable Dart, the class placeholder shown as ``{Class}`` (docs, primer, macro_table)."""
    sentinel = "Zq9Class"
    parts = [part.replace(CLASS_PLACEHOLDER, sentinel) for part in MACROS[name]]
    return join_tokens(parts).replace(sentinel, CLASS_PLACEHOLDER)


MAX_CHARS: Final = 1_000_000
"""Largest COON or Dart text the codec takes (the biggest real Dart file we know is 76 KB): past it a FormatError,
so one hostile 5 MB input cannot hold a caller for tens of seconds."""


def check_size(text: str, what: str) -> None:
    """FormatError when ``text`` is longer than ``MAX_CHARS``."""
    if len(text) > MAX_CHARS:
        raise FormatError(
            f"{what} text of {len(text):,} characters is over the codec's limit", 1, 1,
            expected=f"at most {MAX_CHARS:,} characters (coonbench.formats.coon.words.MAX_CHARS)",
        )



@contextmanager
def collector_paused() -> Iterator[None]:
    """Hold Python's cyclic garbage collector while a document is encoded or decoded.

    The codec makes hundreds of thousands of short-lived tuples and no reference cycles; each 700 allocations the
    collector would walk the young ones for nothing (10% of encode + verify + decode on real Dart). It is
    switched back on afterwards only when it was on before."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


URI_KEYWORDS: Final = ("import", "export", "part")
# ``'package:a/b.dart'`` with a plain package name and path (no ``$``, backslash, quote or space).
_PACKAGE_URI: Final = re.compile(r"'package:([A-Za-z0-9_]+)/([A-Za-z0-9_./-]+)\.dart'")
# A relative URI (no scheme, no ``$``, backslash or space), in either quote: ``'../a/b.dart'`` is written ``'../a/b'``.
_RELATIVE_URI: Final = re.compile(r"(['\"])([A-Za-z0-9_./-]+)\1")
DART_SUFFIX: Final = ".dart"


def names_uri(prev: CTok | None) -> bool:
    """Whether the string after ``prev`` (the previous significant token) is a directive's URI."""
    return prev is not None and prev.kind == "ident" and prev.text in URI_KEYWORDS


def _relative_short(text: str) -> bool:
    """A relative URI written without its ``.dart`` (the decoder adds it back)."""
    m = _RELATIVE_URI.fullmatch(text)
    return m is not None and not m.group(2).endswith(DART_SUFFIX)


def is_short_uri(text: str, prev: CTok | None) -> bool:
    """Whether a COON string after ``import``/``export``/``part`` is a short URI: a package URI ``':…'``, or a
    relative URI that does not end in ``.dart``."""
    if not names_uri(prev):
        return False
    if len(text) >= 4 and text.startswith("':") and text.endswith("'") and "'" not in text[2:-1]:
        return True
    return _relative_short(text)


def expand_uri(text: str) -> str:
    """``':provider'`` → ``'package:provider/provider.dart'``; ``':flutter/cupertino'`` →
    ``'package:flutter/cupertino.dart'``; ``'../a/b'`` → ``'../a/b.dart'`` (the decoder's side of ``short_uri``)."""
    if not text.startswith("':"):
        return text[:-1] + DART_SUFFIX + text[-1]
    body = text[2:-1]
    if "/" not in body:
        body = f"{body}/{body}"
    return f"'package:{body}.dart'"


def short_uri(text: str) -> str | None:
    """The short form of a package or relative ``.dart`` URI string when it reads back exactly, else None."""
    m = _PACKAGE_URI.fullmatch(text)
    if m is None:
        rel = _RELATIVE_URI.fullmatch(text)
        if rel is None or not rel.group(2).endswith(DART_SUFFIX):
            return None
        short = text[: -len(DART_SUFFIX) - 1] + text[-1]
        return short if _relative_short(short) and expand_uri(short) == text else None
    package, path = m.groups()
    short = f"':{package}'" if path == package else f"':{package}/{path}'"
    return short if expand_uri(short) == text else None


# A package URI written relative to the previous one (rule 16): ``':./b'``, ``':../b'`` (its folder), ``':/b'`` (its
# package's root). A package name never starts with ``.`` or ``/``, so these never name a package.
RELATIVE_PACKAGE_STARTS: Final = ("':./", "':../", "':/")


def is_relative_package_uri(text: str) -> bool:
    """Whether a directive's COON URI string is the relative form of a package URI (``':./b'``, ``':../b'``,
    ``':/b'``)."""
    return text.startswith(RELATIVE_PACKAGE_STARTS) and text.endswith("'") and "'" not in text[2:-1]


def package_path(text: str) -> tuple[str, str] | None:
    """``':p/a/b'`` (or ``'package:p/a/b.dart'``) → ("p", "a/b"); ``':p'`` → ("p", "p"); None for any other string
    (relative URIs, the relative form)."""
    full = _PACKAGE_URI.fullmatch(text)
    if full is not None:
        return full.group(1), full.group(2)
    if not (len(text) >= 4 and text.startswith("':") and text.endswith("'")) or is_relative_package_uri(text):
        return None
    package, _, path = text[2:-1].partition("/")
    return package, path or package


def resolve_package_uri(text: str, prev: tuple[str, str] | None) -> str | None:
    """The absolute short form (``':p/a/c'``) of the relative form ``text`` after the package URI ``prev``
    ((package, path), e.g. ("p", "a/b")); None when there is no ``prev`` or the path leaves the package."""
    if prev is None:
        return None
    body = text[2:-1]
    if body.startswith("/"):
        path = body[1:]
    else:
        path = posixpath.normpath(posixpath.join(posixpath.dirname(prev[1]), body))
    if not path or path.startswith(("/", ".")) or "//" in path or path.endswith("/"):
        return None
    return f"':{prev[0]}/{path}'"


def relative_package_uri(text: str, prev: tuple[str, str] | None) -> str:
    """The shortest spelling of the short package URI ``text`` after the package URI ``prev``: ``text`` itself, or
    its relative form when that is shorter and resolves back to the same URI (the encoder's side of
    ``relative_package_uris``)."""
    here = package_path(text)
    if here is None or prev is None or here[0] != prev[0]:
        return text
    rel = posixpath.relpath(here[1], posixpath.dirname(prev[1]) or ".")
    best = text
    for cand in (f"':/{here[1]}'", f"':{rel if rel.startswith('../') else './' + rel}'"):
        if len(cand) < len(best) and expand_uri(resolve_package_uri(cand, prev) or "''") == expand_uri(text):
            best = cand
    return best


def relative_package_uris(toks: list[CTok]) -> list[CTok]:
    """Rule 16, the decoder's side: each directive URI in the relative form (``':./b'``) → its absolute short form
    (``':p/a/b'``), read against the package URI before it. Raises FormatError when there is none."""
    if not any(tok.kind == "str" and tok.text.startswith(RELATIVE_PACKAGE_STARTS) for tok in toks):
        return toks  # no relative form anywhere: nothing to read (most documents)
    out: list[CTok] = []
    prev: tuple[str, str] | None = None
    last: CTok | None = None  # the previous significant token
    for tok in toks:
        if tok.kind == "str" and names_uri(last):
            if is_relative_package_uri(tok.text):
                resolved = resolve_package_uri(tok.text, prev)
                if resolved is None:
                    raise FormatError(
                        "a relative package URI needs a package URI before it, and must stay inside its package",
                        tok.line, tok.column, expected="an absolute package URI such as ':a/b'",
                    )
                tok = CTok("str", resolved, tok.line, tok.column, tok.spaced)
            here = package_path(tok.text)
            if here is not None:
                prev = here
        if tok.kind != "comment":
            last = tok
        out.append(tok)
    return out


def directive_list(toks: list[CTok]) -> list[CTok]:
    """``import 'a','b';`` → ``import 'a';import 'b';`` (likewise ``export``, ``part``): a ``,`` directly after a
    directive's URI string, before another string, starts the next directive of the same kind (Dart never has a
    comma there). The new ``;`` and keyword stand at the comma's position (the legend reads them from there)."""
    n = len(toks)
    if not any(  # most documents list no directives: their tokens are returned as they are
        tok.kind == "op"
        and tok.text == ","
        and 2 <= i < n - 1
        and toks[i + 1].kind == "str"
        and toks[i - 1].kind == "str"
        and toks[i - 2].kind == "ident"
        and toks[i - 2].text in URI_KEYWORDS
        for i, tok in enumerate(toks)
    ):
        return toks
    out: list[CTok] = []
    keyword: CTok | None = None  # the directive whose URI was the last token, else None
    for i, tok in enumerate(toks):
        if keyword is not None and tok.is_op(",") and i + 1 < n and toks[i + 1].kind == "str":
            out.append(CTok("op", ";", tok.line, tok.column))
            out.append(CTok("ident", keyword.text, tok.line, tok.column))
            continue
        keyword = None
        if tok.kind == "str" and out and out[-1].kind == "ident" and out[-1].text in URI_KEYWORDS:
            keyword = out[-1]
        out.append(tok)
    return out


ALIAS_KINDS: Final = ("ident", "esc", "str")
"""Lexemes the per-document dictionary may define (``\\name``, ``\\`T``, ``\\'text'``) and repeat (``\\N``)."""
