"""COON round trip: decode(encode(x)) is AST-equivalent to x on the whole corpus, comments kept or not."""

from __future__ import annotations

import json

import pytest

from coonbench.datasets.corpus import iter_data_dart, iter_reference_dart
from coonbench.dart.minify import minify
from coonbench.formats import get_format
from coonbench.formats.coon import decode, encode
from tests.conftest import reference_path
from tests.coon_oracle import unverified_roundtrip

EXPECTED_REFERENCE = {"ui": 26, "logic": 23, "large": 2}


def _check(samples: list[tuple[str, str, str]], keep_comments: bool = False) -> None:
    failures = []
    for category, sid, source in samples:
        coon, wrong = unverified_roundtrip(source, keep_comments=keep_comments)
        if wrong is not None:
            failures.append(f"{category}/{sid}: {wrong}")
    assert not failures, "\n".join(failures)


def test_data_samples_round_trip() -> None:
    samples = list(iter_data_dart())
    if not samples:
        pytest.skip("no data/dart/**/*.dart samples yet")
    _check(samples)


def test_reference_samples_round_trip() -> None:
    reference_path("coon", "extracted")
    samples = list(iter_reference_dart())
    counts = {k: sum(1 for c, _, _ in samples if c == k) for k in EXPECTED_REFERENCE}
    assert counts == EXPECTED_REFERENCE  # every sample parses (18 UI snippets as expressions) and is included
    apps = [s for s in samples if s[0] == "instagram"]
    assert len(apps) >= 10 and sum(s[2].count("\n") for s in apps) > 3000
    _check(samples)


def test_reference_samples_round_trip_with_comments() -> None:
    reference_path("coon", "extracted")
    samples = list(iter_reference_dart())
    _check(samples, keep_comments=True)
    commented = [s for s in samples if "//" in s[2]]
    assert commented and all("//" in encode(s[2], keep_comments=True) for s in commented[:3])


def test_instagram_split_at_file_markers() -> None:
    path = reference_path(
        "coon", "benchmarks", "observation-testing", "instagram-clone", "input", "flutter-context.txt"
    )
    text = path.read_text(encoding="utf-8")
    names = [sid for cat, sid, _ in iter_reference_dart() if cat == "instagram"]
    assert len(names) == text.count("\nFILE: ") + text.startswith("FILE: ") + text.startswith("=") * 0
    assert all(n.endswith(".dart") for n in names)


def test_extracted_ids_are_unique() -> None:
    reference_path("coon", "extracted")
    ids = [(c, i) for c, i, _ in iter_reference_dart()]
    assert len(ids) == len(set(ids))
    raw = json.loads(reference_path("coon", "extracted", "code_samples_ui.json").read_text())
    assert raw["_count"] == EXPECTED_REFERENCE["ui"]


ESCAPES = [
    "class Box<T> { T? value; T get(T x) => x; }",
    "void f() { var c = 1; var m = {c: 1, 'b': 2}; foo(c, d: c); S(1); T(2); ctx.x; var W = 3; print(#foo); }",
    "var x = Foo(c: 1, child: 2, h: [1], b: MainAxisAlignment.center, mainAxisAlignment: MainAxisAlignment.center,"
    " color: Colors.red.shade100, alignment: x ? Alignment.center : Alignment.topLeft);",
    "void f() { for (x in xs) {} for (final y in ys) {} if (a is String) {} g(a, b); }",
    "Widget build(BuildContext context) => Text('a' 'b' \"c\", style: r'raw\\s');",
    "var s = '''multi\nline ${a + '${b}'}''';",
    "void f() async* { yield* s; x = y!.z; a?.b?..c; i++; --j; x = -1 - -y; z = a ~/ b; w >>>= 2; }",
    "@JsonKey(name: 'x') class A extends B with C implements D { A(this.a) : super(a: a); final List<List<int>> a; }",
    "var r = (1,); var q = (a: 1, b: 2); var e = const EdgeInsets.all(16.0); var e2 = EdgeInsets.all(x);",
    "class A { @override void initState() { super.initState(); x(); } @override void dispose() { super.dispose(); } }",
    "enum Color { red, green, blue }",
    "void f() { switch (x) { case 1: a(); break; default: b(); } try { x(); } on E catch (e, s) { } finally { } }",
    "var f = (String name, {required int age}) => name;",
    "Text(\n// hi\n'a', /* b */ style: x)",
    "void f() { ctx(ctx); Ei(1); W.x; var `x; }".replace("var `x; ", ""),
    "var m = {'k': x ? a : b, 'j': c ? .5 : 1};",
    "var i = [Icon(Icons.home), const Icon(/* c */ Icons.add), Icon(Icons /* d */ .x), Icons.y, Icon(size: 2)];",
    # closers glued as Dart's scanner reads them (tree-sitter splits `>>>` into `>` `>>`), and written apart
    "var a = x.fold<Map<A, List<B>>>({}, f); Map<A, Map<B, List<C>>>? m; var s = a >>> b >> c;",
    "List<List<int> > a; Map<A, List<List<B> >> b; var c = f<List<List<int>> >(x);",
]


@pytest.mark.parametrize("source", ESCAPES)
@pytest.mark.parametrize("keep", [False, True])
def test_collisions_and_odd_constructs_round_trip(source: str, keep: bool) -> None:
    coon, wrong = unverified_roundtrip(source, keep_comments=keep)
    assert wrong is None, (wrong, coon)


def test_identifier_escapes_are_backticks() -> None:
    coon = encode("void f() { T(2); var c = {c: 1, d: 2}; }")
    assert "`T(2)" in coon  # a function named T, not Text
    assert "`d:2" in coon  # a map key spelled like the label word for decoration


def test_output_is_formatted_and_comments_option() -> None:
    src = "class A extends StatelessWidget { @override Widget build(BuildContext context) { return Text('x'); } }"
    dart = decode(encode(src))
    assert dart.splitlines()[0] == "class A extends StatelessWidget {"
    assert "  @override Widget build(BuildContext context) {" in dart.splitlines()
    assert "    return Text('x');" in dart.splitlines()
    with_comment = "// top\nvar a = 1; /* x */"
    assert "//" not in encode(with_comment) and "// top" in encode(with_comment, keep_comments=True)
    assert "// top" in get_format("coon-comments").encode(with_comment)
    assert "// top" in decode(encode(with_comment, keep_comments=True))


def test_header_is_optional_and_checked() -> None:
    from coonbench.formats.base import FormatError

    src = "var a = Text('x');"
    assert decode(encode(src, header=True)) == decode(encode(src))
    with pytest.raises(FormatError):
        decode("%coon 99\nvar a=1;")


def test_coon_is_shorter_than_minified_dart() -> None:
    from coonbench.tokens import count_tokens

    samples = list(iter_data_dart())[:20] or [("x", "x", ESCAPES[2])]
    coon = sum(count_tokens(encode(s)) for _, _, s in samples)
    mini = sum(count_tokens(minify(s)) for _, _, s in samples)
    assert coon < mini


@pytest.mark.parametrize("was_on", [True, False])
def test_codec_leaves_the_garbage_collector_as_it_found_it(was_on: bool) -> None:
    """encode/decode hold the collector for speed (``collector_paused``) and give it back as it was, errors too."""
    import gc

    from coonbench.formats.base import FormatError

    (gc.enable if was_on else gc.disable)()
    try:
        decode(encode("class A { int x = 1; }"))
        assert gc.isenabled() is was_on
        with pytest.raises(FormatError):
            encode("class {")
        with pytest.raises(FormatError):
            decode("T(")
        assert gc.isenabled() is was_on
    finally:
        gc.enable()
