"""The difference of two Dart programs as a set of leaf changes: what an edit needs, and how much of it a reply made.

A program's leaves are the entries of ``equivalence.scan``'s comparison shape that carry text (tokens, string
literals whole; comments and trailing commas left out), as (node type, text). Two programs' leaf sequences are
aligned with ``difflib.SequenceMatcher``; each leaf deleted from the first is the change ``("-", position, leaf)``
and each leaf inserted is ``("+", position in the first, k-th leaf inserted there, leaf)``. So the same edit made
to the same program gives the same changes whatever the layout, and ``edit_overlap`` (changes of the reply that
the reference edit also makes, over the larger of the two sets) is 1 exactly when the reply's tree equals the
reference's leaf for leaf, and 0 when the reply changes nothing.
"""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher
from typing import Final

from coonbench.dart.equivalence import unit_shape
from coonbench.dart.parse import parse_unit

Leaf = tuple[str, str]
Change = tuple[object, ...]
IDENTIFIER_TYPES: Final = frozenset({"identifier", "type_identifier"})
MAX_GROWTH: Final = 4
MAX_EXTRA_LEAVES: Final = 2000


def leaves(source: str) -> list[Leaf]:
    """(type, text) of every leaf of ``source``'s tree in document order (DartParseError when it does not parse)."""
    shape = unit_shape(parse_unit(source))
    out: list[Leaf] = []
    for i in range(0, len(shape), 3):
        text = shape[i + 2]
        if text is not None:
            out.append((str(shape[i + 1]), text if isinstance(text, str) else repr(text)))
    return out


def leaf_changes(a: list[Leaf], b: list[Leaf]) -> Counter[Change]:
    """The leaf deletions and insertions that turn ``a`` into ``b`` (a multiset)."""
    out: Counter[Change] = Counter()
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        for i in range(i1, i2):
            out[("-", i, a[i])] += 1
        for k, j in enumerate(range(j1, j2)):
            out[("+", i1, k, b[j])] += 1
    return out


def edit_overlap(before: str, after: str, reply: str) -> float:
    """The graded score of ``reply`` as an edit of ``before`` meant to give ``after``: changes it shares with the
    reference edit over the larger of the two change sets (1.0 when ``after`` equals ``before``, since nothing was
    needed and a reply that changes nothing made it). DartParseError when one of them does not parse."""
    base = leaves(before)
    needed = leaf_changes(base, leaves(after))
    got = leaves(reply)
    if len(got) > MAX_GROWTH * (len(base) + len(needed)) + MAX_EXTRA_LEAVES:
        return 0.0  # far larger than the program and the edit: not this edit (and alignment is quadratic)
    made = leaf_changes(base, got)
    larger = max(sum(needed.values()), sum(made.values()))
    if larger == 0:
        return 1.0
    return sum((needed & made).values()) / larger


def changed_span(a: list[Leaf], b: list[Leaf]) -> tuple[int, int, int, int]:
    """(start, end in ``a``, start, end in ``b``): the smallest window of leaves outside which both agree."""
    start = 0
    limit = min(len(a), len(b))
    while start < limit and a[start] == b[start]:
        start += 1
    end_a, end_b = len(a), len(b)
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a -= 1
        end_b -= 1
    return start, end_a, start, end_b
