"""COON v2 compression rules, one by one: each is emitted where it saves tokens, round-trips, and never changes the
meaning of code that merely looks like it (those words are escaped or written out)."""

from __future__ import annotations

import pytest

from coonbench.datasets.corpus import iter_data_dart
from coonbench.dart.minify import minify
from coonbench.formats import FormatError
from coonbench.formats.coon import TABLES, decode, encode, macro_table, primer, validate
from coonbench.tokens import count_tokens
from tests.coon_oracle import unverified_roundtrip

STATELESS = """
class Hello extends StatelessWidget {
  const Hello({super.key});
  @override
  Widget build(BuildContext context) => const Text('hi');
}
"""
STATEFUL = """
class Counter extends StatefulWidget {
  const Counter({super.key});
  @override
  State<Counter> createState() => _CounterState();
}
class _CounterState extends State<Counter> {
  int n = 0;
  @override
  Widget build(BuildContext context) => Text('$n');
}
"""


def _round_trip(source: str, keep_comments: bool = False) -> str:
    coon, wrong = unverified_roundtrip(source, keep_comments=keep_comments)
    assert wrong is None, (wrong, coon)
    assert validate(coon) == [], coon
    return coon


def test_class_name_macros() -> None:
    assert _round_trip(STATELESS).startswith("class Hello #SL #b=>const T('hi');}")
    coon = _round_trip(STATEFUL)
    assert coon.startswith("class Counter #SF int n=0;")
    old_style = STATEFUL.replace("const Counter({super.key});", "").replace(
        "State<Counter> createState()", "_CounterState createState()"
    )
    assert "#SFo" in _round_trip(old_style)
    fields = "class Card2 extends StatelessWidget { const Card2({super.key, required this.a}); final int a; }"
    assert _round_trip(fields) == "class Card2 #SLa^a});final int a;}"


def test_class_name_macro_needs_the_right_class() -> None:
    # the constructor of another class (or after a comment between class and name) is written out
    other = "class A {}\nclass B extends StatelessWidget { const A({super.key}); }"
    assert "#" not in _round_trip(other)
    assert decode("class Foo{#K}").count("const Foo({super.key});") == 1
    err = validate("var a=1;#K")[0]
    assert (err.line, err.column) == (1, 9) and "no class" in err.message and err.expected == "a 'class Name' before it"
    with pytest.raises(FormatError):
        decode("#SF")


def test_macro_table_shows_the_class_placeholder() -> None:
    table = macro_table()
    assert table["#K"] == "const {Class}({super.key});"
    assert "class _{Class}State extends State<{Class}>{" in table["#SF"]
    assert "{Class}" in primer("short") and "`#SF`" in primer("full")


def test_required_this() -> None:
    source = "class P { P({required this.a, required this.b, this.c}); final int a, b; final int? c; }"
    coon = _round_trip(source)
    assert "P({^a,^b,this.c})" in coon
    # ``^`` stays XOR wherever an operand precedes it
    assert "a^b" in _round_trip("var x = f(a ^ b, (c) ^ d);")
    assert decode("class P{P({^a});final int a;}").count("required this.a") == 1


def test_const_edge_insets() -> None:
    coon = _round_trip("var w = Padding(padding: const EdgeInsets.all(16), child: x);")
    assert "P(p @@16,c x)" in coon
    assert "@8" in _round_trip("var e = EdgeInsets.all(8);")
    err = validate("P(p@@x)")[0]
    assert "bad prefix '@@'" in err.message and err.column == 4


def test_enum_shorthand_without_colon() -> None:
    coon = _round_trip("var w = Column(mainAxisAlignment: MainAxisAlignment.center, children: []);")
    assert "A.center" in coon and "A:." not in coon
    assert "l.grey.shade700" in _round_trip("var w = Text('a', color: Colors.grey.shade700);")
    # a variable whose name is an enum label word is escaped, so member access stays member access
    coon = _round_trip("var w = f(n.isEven, l.length, A.b, icon.codePoint);")
    assert "`n.isEven" in coon and "`l.length" in coon and "`A.b" in coon
    assert decode("C(A:.end)") == decode("C(A.end)")


def test_implied_constructors() -> None:
    coon = _round_trip(
        "var w = Text('a', style: const TextStyle(fontSize: 14), key: k);"
        "var d = Container(decoration: BoxDecoration(borderRadius: BorderRadius.circular(8)));"
        "var b = AppBar(title: Text('t'), actions: [IconButton(icon: Icon(Icons.add), onPressed: f)]);"
    )
    assert "s const(z 14)" in coon and "d(br(8))" in coon and "t('t')" in coon and "icon(.add)" in coon
    # values that are not the implied constructor keep their spelling; a const record keeps the colon
    coon = _round_trip("var w = f(style: const (1, 2), title: g(), icon: const Icon(Icons.x), t: t(1), s: s);")
    assert "s:const(1,2)" in coon and "t g()" in coon and "icon const(.x)" in coon and "`t:t(1)" in coon
    # a function named like an implied label word is escaped at the start of an argument
    assert "`t(" in _round_trip("var w = f(t(x), s(y));")


def test_type_argument_closers_merge() -> None:
    coon = _round_trip("Map<String, List<List<int>>> m = {}; var x = a >> b; var y = c >>> 1; List<List<int>>? z;")
    assert "List<List<int>>>m" in coon and "a>>b" in coon and "c>>>1" in coon and "List<List<int>>?z" in coon


def test_named_constructor_word() -> None:
    coon = _round_trip("var p = EdgeInsets.symmetric(horizontal: 8, vertical: 4); var q = EdgeInsets.symmetric;")
    assert "Es(horizontal 8,vertical 4)" in coon and "Ei.symmetric;" in coon
    assert TABLES["widgets"]["EdgeInsets.symmetric"] == "Es"


def test_words_that_cost_tokens_are_not_abbreviated() -> None:
    assert "Divider" not in TABLES["widgets"] and "Image" not in TABLES["widgets"]
    assert "centerTitle" not in TABLES["labels"] and "horizontal" not in TABLES["labels"]
    coon = _round_trip("var w = AppBar(centerTitle: true, bottom: Divider(), flexibleSpace: Image.network(u));")
    assert "centerTitle true" in coon and "Divider()" in coon and "Image.network(u)" in coon


def test_rules_hold_with_comments_kept() -> None:
    source = STATEFUL.replace("int n = 0;", "// count\n  int n = 0;") + (
        "class Q { Q({/* a */ required this.a}); final int a; }\n"
        "var w = Text('a', style: /* big */ const TextStyle(fontSize: 20), color: Colors /* c */ .red);\n"
    )
    coon = _round_trip(source, keep_comments=True)
    assert "// count" in coon and "/* big */" in coon


def test_data_corpus_is_at_least_a_quarter_below_minified() -> None:
    samples = list(iter_data_dart())
    if not samples:
        pytest.skip("no data/dart samples")
    coon = sum(count_tokens(encode(src)) for _, _, src in samples)
    minified = sum(count_tokens(minify(src)) for _, _, src in samples)
    assert coon <= 0.75 * minified, (coon, minified)
