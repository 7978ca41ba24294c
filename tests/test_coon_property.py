"""Property tests: generated valid Dart round-trips through COON; random text into decode/validate only ever
raises (or returns) the documented FormatError."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from coonbench.dart import DartParseError
from coonbench.dart.parse import parse_unit
from coonbench.formats import FormatError
from coonbench.formats.coon import TABLES, decode, encode, validate
from tests.coon_oracle import unverified_roundtrip

WIDGET_NAMES = sorted(TABLES["widgets"]) + ["Foo", "T", "S", "C", "Ex", "ctx", "W", "t", "s", "icon", "d", "br", "l"]
LABEL_NAMES = sorted(TABLES["labels"]) + ["c", "h", "b", "W", "T", "x", "ctx", "foo", "in", "on"]
IDENTS = ["a", "c", "h", "T", "S", "W", "ctx", "value", "child", "Ei", "SL", "x1", "_p", "context", "r", "Text"]
IDENTS += ["l", "n", "s", "t", "d", "br", "icon", "f", "seed", "A", "Es", "GD", "DT"]  # words the v2 rules read
ENUMS = [f"{t}.{m}" for t in sorted(set(TABLES["enum_labels"].values())) for m in ("center", "start", "red")]

strings = st.one_of(
    st.text(alphabet="ab c'\"\\$#@`:{}", max_size=8).map(lambda s: "'" + s.replace("\\", "\\\\").replace("'", "\\'").replace("$", "\\$") + "'"),
    st.sampled_from(["'${a.b}'", '"x $c"', "r'\\d+'", "'''m\nl'''", "'a' 'b'"]),
)
atoms = st.one_of(
    st.integers(min_value=0, max_value=999).map(str),
    st.sampled_from(["1.5", "0xFF", ".5", "true", "null", "const EdgeInsets.all(8)", "EdgeInsets.all(x)"]),
    st.sampled_from(
        ["const (1, 2)", "(a ^ b)", "<List<int>>[]", "BorderRadius.circular(4)", "const TextStyle()", "Icon(Icons.add)"]
    ),
    st.tuples(st.sampled_from(IDENTS), st.sampled_from(["isEven", "center", "red", "length"])).map(".".join),
    strings,
    st.sampled_from(IDENTS),
    st.sampled_from(ENUMS),
)


def _call(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    arg = st.one_of(
        children,
        st.tuples(st.sampled_from(LABEL_NAMES), children).map(lambda t: f"{t[0]}: {t[1]}"),
        st.tuples(st.sampled_from(LABEL_NAMES), st.lists(children, max_size=3)).map(
            lambda t: f"{t[0]}: [{', '.join(t[1])}]"
        ),
    )
    return st.tuples(
        st.sampled_from(["", "const "]),
        st.sampled_from(WIDGET_NAMES),
        st.lists(arg, max_size=4),
        st.booleans(),
    ).map(lambda t: f"{t[0]}{t[1]}({', '.join(t[2])}{',' if t[3] and t[2] else ''})")


expressions = st.recursive(
    atoms,
    lambda inner: st.one_of(
        _call(inner),
        st.tuples(st.sampled_from(IDENTS), inner, inner).map(lambda t: f"{t[0]} ? {t[1]} : {t[2]}"),
        st.tuples(inner, st.sampled_from(["+", "-", "??", "==", "*"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda e: f"() {{ return {e}; }}"),
        st.lists(inner, max_size=3).map(lambda xs: "{" + ", ".join(f"'k{i}': {x}" for i, x in enumerate(xs)) + "}"),
    ),
    max_leaves=12,
)

def _program(name: str, expr: str, kind: int) -> str:
    """A whole file around ``expr``: a stateless widget, a stateful one with a required field, or a variable."""
    if kind == 0:
        return (
            "import 'package:flutter/material.dart';\n"
            f"class {name} extends StatelessWidget {{\n  const {name}({{super.key}});\n"
            f"  // a comment\n  @override\n  Widget build(BuildContext context) {{\n    return {expr};\n  }}\n}}\n"
        )
    if kind == 1:
        return (
            f"class {name} extends StatefulWidget {{\n  const {name}({{super.key, required this.t, this.s}});\n"
            f"  final int t;\n  final int? s;\n  @override\n  State<{name}> createState() => _{name}State();\n}}\n"
            f"class _{name}State extends State<{name}> {{\n"
            f"  @override\n  Widget build(BuildContext context) => {expr};\n}}\n"
        )
    return f"var v = {expr};"


programs = st.tuples(st.sampled_from(["Foo", "T", "A", "MyWidget"]), expressions, st.integers(0, 2)).map(
    lambda t: _program(*t)
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(programs, st.booleans())
def test_generated_dart_round_trips(source: str, keep_comments: bool) -> None:
    try:
        parse_unit(source)
    except DartParseError:
        assume(False)
    coon, wrong = unverified_roundtrip(source, keep_comments=keep_comments)
    assert wrong is None, (wrong, coon)
    assert validate(coon) == []


COON_ALPHABET = list("()[]{}'\"`@#:;,.-+*/<>=!?$_^ \n\trR\\%") + list("abcThSCW0123456789") + ["é", "\x00"]


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(alphabet=st.sampled_from(COON_ALPHABET), max_size=40), st.text(max_size=40)))
def test_random_text_raises_only_format_error(text: str) -> None:
    try:
        decode(text)
    except FormatError:
        pass
    errors = validate(text)
    assert all(isinstance(e, FormatError) and e.line is not None for e in errors)


@settings(max_examples=150, deadline=None)
@given(programs, st.integers(min_value=0, max_value=10_000), st.sampled_from(["", "(", ")", "'", "`", "#", "@", "}", " x ", "^", "@@", "#K", "."]))
def test_mutated_coon_raises_only_format_error(source: str, where: int, insert: str) -> None:
    try:
        coon = encode(source)
    except FormatError:
        assume(False)
    k = where % (len(coon) + 1)
    mutated = coon[:k] + insert + coon[k + 1 :]
    try:
        decode(mutated)
    except FormatError:
        pass
    assert all(isinstance(e, FormatError) for e in validate(mutated))
