"""Property: a mutated real Dart file either round-trips through COON exactly or is refused loudly — never silently.

Mutations (on the tree-sitter tree of real files from ``../shared/reference/dart-real/``): rename identifiers (to
COON abbreviations, label words and keywords-looking names too), reorder call arguments, insert comments and string
literals holding quotes, ``$`` and comment markers, turn ``Enum.member`` values into dot shorthands, and nest
expressions deeper. A mutant the grammar rejects is discarded; every other one, encoded without the self-check, must
decode to its tokens as Dart's scanner reads them (comments too with ``coon-comments``; ``tests/coon_oracle.py``),
or the encoder raises ``FormatError`` with a position.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from coonbench.dart.equivalence import COMMENT_TYPES
from coonbench.dart.parse import DartParseError, parse_unit
from coonbench.dart.query import iter_nodes, iter_tokens
from coonbench.formats import FormatError
from coonbench.formats.coon import TABLES
from tests.conftest import reference_path
from tests.coon_oracle import unverified_roundtrip

MAX_SOURCE = 6000  # small files keep each example fast


def _sources() -> list[str]:
    out = []
    for path in sorted(reference_path("dart-real").rglob("*.dart")):
        text = path.read_text(encoding="utf-8")
        if 200 <= len(text) <= MAX_SOURCE:
            out.append(text)
    return out


NAMES = sorted(
    {*list(TABLES["widgets"].values())[:15], *list(TABLES["labels"].values())[:15], *list(TABLES["types"].values())}
    | {"Text", "Colors", "Icons", "Icon", "color", "child", "c", "T", "x", "in", "_a", "$b"}
)
COMMENTS = ["/* it's $x \"q\" */", "// it's ${x} '\n", "/* /* nested */ */", "/// doc `T`\n"]
STRINGS = ["'it\\'s $x ${y} \"q\"'", '"a /* b */ c"', "r'$raw\\n'", "'''multi\n'line' $z'''", "'${'nested ${x}'}'"]
ENUM_MEMBERS = ["center", "start", "red", "all(8)", "home", "symmetric(horizontal: 4)"]


def _mutate(source: str, rng: random.Random, steps: int) -> str:
    for _ in range(steps):
        data = source.encode("utf-8")
        try:
            unit = parse_unit(source)
        except DartParseError:
            return source  # an earlier step broke it: the test discards grammar-rejected mutants
        nodes = [n for n in iter_nodes(unit.root) if unit.start_byte <= n.start_byte and n.end_byte <= unit.end_byte]
        kind = rng.choice(["rename", "reorder", "comment", "string", "shorthand", "nest"])
        edit: tuple[int, int, bytes] | None = None
        if kind == "rename":
            idents = [n for n in nodes if n.type == "identifier"]
            if idents:
                old = rng.choice(idents).text
                new = rng.choice(NAMES).encode()
                spans = [(n.start_byte, n.end_byte) for n in idents if n.text == old]
                for start, end in reversed(spans):
                    data = data[:start] + new + data[end:]
                source = data.decode("utf-8")
                continue
        elif kind == "reorder":
            groups = [n for n in nodes if n.type == "arguments" and n.named_child_count >= 2]
            if groups:
                args = rng.choice(groups).named_children
                i, j = sorted(rng.sample(range(len(args)), 2))
                a, b = args[i], args[j]
                data = (
                    data[: a.start_byte] + data[b.start_byte : b.end_byte] + data[a.end_byte : b.start_byte]
                    + data[a.start_byte : a.end_byte] + data[b.end_byte :]
                )
                source = data.decode("utf-8")
                continue
        elif kind == "comment":
            toks = [t.node for t in iter_tokens(unit.root) if t.node.type not in COMMENT_TYPES]
            toks = [t for t in toks if unit.start_byte <= t.start_byte and t.end_byte <= unit.end_byte]
            if toks:
                at = rng.choice(toks).end_byte
                edit = (at, at, (" " + rng.choice(COMMENTS) + " ").encode())
        elif kind == "string":
            strings = [n for n in nodes if n.type == "string_literal"]
            if strings:
                n = rng.choice(strings)
                edit = (n.start_byte, n.end_byte, rng.choice(STRINGS).encode())
        elif kind == "shorthand":
            values = [n for n in nodes if n.type == "named_argument"]
            if values:
                arg = rng.choice(values)
                value = arg.named_children[-1]
                edit = (value.start_byte, arg.end_byte, b"." + rng.choice(ENUM_MEMBERS).encode())
        else:  # nest
            values = [n for n in nodes if n.type == "argument"]
            if values:
                n = rng.choice(values)
                depth = rng.randint(1, 60)
                opener, closer = rng.choice([(b"(", b")"), (b"f(", b")"), (b"[", b"][0]")])
                edit = (n.start_byte, n.end_byte, opener * depth + data[n.start_byte : n.end_byte] + closer * depth)
        if edit is not None:
            start, end, new = edit
            source = (data[:start] + new + data[end:]).decode("utf-8")
    return source


@pytest.fixture(scope="module")
def sources() -> list[str]:
    found = _sources()
    assert found
    return found


def _roundtrip_or_refusal(source: str, keep_comments: bool) -> None:
    try:
        parse_unit(source)
    except DartParseError:
        assume(False)
    try:
        coon, wrong = unverified_roundtrip(source, keep_comments=keep_comments)
    except FormatError as err:  # the encoder's own refusals (size, lone surrogates) say where
        assert err.line is not None and err.column is not None, err
        return
    assert wrong is None, (wrong, source, coon)


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 6), pick=st.integers(0, 10_000), keep=st.booleans())
def test_mutated_real_files_round_trip_or_are_refused(sources: list[str], seed: int, steps: int, pick: int,
                                                      keep: bool) -> None:
    rng = random.Random(seed)
    mutant = _mutate(sources[pick % len(sources)], rng, steps)
    _roundtrip_or_refusal(mutant, keep)
