"""AST-derived comprehension questions: ground truth on hand-checked examples, and ambiguity refused."""

from __future__ import annotations

from coonbench.dart.questions import Question, generate_questions
from coonbench.dart.widgets import widget_classes

COUNTER = """
import 'package:flutter/material.dart';

class CounterPage extends StatefulWidget {
  const CounterPage({super.key});
  @override
  State<CounterPage> createState() => _CounterPageState();
}

class _CounterPageState extends State<CounterPage> {
  int _count = 0;
  bool _dark = false;

  void _reset() {
    setState(() {
      _count = 0;
    });
  }

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Counter')),
      body: Padding(
        padding: const EdgeInsets.all(12),
        child: Column(
          mainAxisAlignment: MainAxisAlignment.center,
          children: [
            Text('Taps: $_count', style: const TextStyle(fontSize: 24)),
            ElevatedButton(
              onPressed: () {
                setState(() {
                  _count++;
                });
              },
              child: const Text('Add'),
            ),
            TextButton(onPressed: _reset, child: const Text('Reset')),
            IconButton(
              icon: const Icon(Icons.info),
              iconSize: 32.5,
              onPressed: () => Navigator.pushNamed(context, '/about'),
            ),
          ],
        ),
      ),
    );
  }
}
"""


def _all(source: str) -> list[tuple[str, str, str, str]]:
    """Every candidate question (no sampling): (subtype, question, answer, answer type)."""
    from coonbench.dart.questions import GENERATORS

    out = []
    for cls in widget_classes(source):
        for gen, _ in GENERATORS.values():
            out.extend((c[0], c[1], c[2], c[3]) for c in gen(cls))
    return out


def _answer(source: str, subtype: str, contains: str) -> str:
    matches = [a for s, q, a, _ in _all(source) if s == subtype and contains in q]
    assert len(matches) == 1, (subtype, contains, matches)
    return matches[0]


def test_widget_identification() -> None:
    answer = _answer(COUNTER, "widgets_in_class", "_CounterPageState")
    assert answer == "AppBar, Column, ElevatedButton, Icon, IconButton, Padding, Scaffold, Text, TextButton"


def test_property_retrieval() -> None:
    assert _answer(COUNTER, "named_argument_value", "`mainAxisAlignment:` argument of the `Column`") == (
        "MainAxisAlignment.center"
    )
    assert _answer(COUNTER, "named_argument_value", "`iconSize:` argument of the `IconButton`") == "32.5"
    # EdgeInsets.all(12) is not a literal: no question about Padding's padding.
    assert not [q for s, q, a, _ in _all(COUNTER) if "`padding:`" in q]


def test_structure() -> None:
    assert _answer(COUNTER, "root_widget", "_CounterPageState") == "Scaffold"
    # Scaffold > Padding > Column > ElevatedButton > Text
    assert _answer(COUNTER, "tree_depth", "_CounterPageState") == "5"
    assert _answer(COUNTER, "child_count", "the `Column` widget") == "4"


def test_relationships() -> None:
    assert _answer(COUNTER, "parent_of", "the `TextButton` widget?") == "Column"
    assert _answer(COUNTER, "parent_of", "the `Icon` widget?") == "IconButton"
    assert _answer(COUNTER, "siblings_of", "the `TextButton` widget sits") == "ElevatedButton, IconButton, Text"


def test_semantics_of_callbacks() -> None:
    assert _answer(COUNTER, "state_field_changed", "callback of the `ElevatedButton`") == "_count"
    # a method reference is followed to the method body
    assert _answer(COUNTER, "state_field_changed", "callback of the `TextButton`") == "_count"
    assert _answer(COUNTER, "navigation_target", "callback of the `IconButton`") == "/about"


def test_push_of_a_screen_widget() -> None:
    src = """
class A extends StatelessWidget {
  Widget build(BuildContext context) => ListTile(
      title: Text('Open'),
      onTap: () => Navigator.of(context).push(MaterialPageRoute(builder: (_) => const DetailsPage())));
}
class DetailsPage extends StatelessWidget {
  const DetailsPage({super.key});
  Widget build(BuildContext context) => const Placeholder();
}
"""
    assert _answer(src, "navigation_target", "ListTile") == "DetailsPage"


def test_ambiguous_widgets_are_not_described() -> None:
    src = """
class A extends StatelessWidget {
  Widget build(BuildContext context) => Column(children: [
        Text('same', style: TextStyle(fontSize: 10)),
        Text('same', style: TextStyle(fontSize: 20)),
      ]);
}
"""
    texts = [q for s, q, a, _ in _all(src) if "`Text`" in q]
    assert texts == []  # two Text('same'): no description picks one of them


def test_control_flow_refuses_counts_and_depth() -> None:
    src = """
class A extends StatelessWidget {
  Widget build(BuildContext context) => Column(children: [
        Text('a'),
        if (flag) Text('b'),
        ...items.map((i) => Text(i)),
      ]);
}
"""
    subtypes = {s for s, *_ in _all(src)}
    assert "child_count" not in subtypes and "tree_depth" not in subtypes and "siblings_of" not in subtypes
    assert "root_widget" in subtypes


def test_unknown_calls_refuse_the_widget_list() -> None:
    src = """
class A extends StatelessWidget {
  Widget build(BuildContext context) => Column(children: [Text('a'), FancyThing(x: 1)]);
}
"""
    assert "widgets_in_class" not in {s for s, *_ in _all(src)}


def test_several_setstate_fields_refused() -> None:
    src = """
class S extends State<W> {
  Widget build(BuildContext context) => ElevatedButton(
      onPressed: () => setState(() { _a = 1; _b = 2; }), child: Text('Go'));
}
"""
    assert "state_field_changed" not in {s for s, *_ in _all(src)}


def test_generation_is_deterministic_with_stable_ids() -> None:
    first = generate_questions("t-001", COUNTER, seed=7)
    again = generate_questions("t-001", COUNTER, seed=7)
    assert first == again
    assert all(isinstance(q, Question) and q.id.startswith("t-001-") for q in first)
    assert len({q.id for q in first}) == len(first)
    assert {q.question_type for q in first} == {
        "widget_identification",
        "property_retrieval",
        "structure",
        "relationship",
        "semantic",
    }
