"""Generated sections of docs/coon.md (tables and worked examples), so the document cannot drift from the codec.

Regenerate with ``python -m coonbench.formats.coon.docs`` (rewrites the marked sections in place);
``tests/test_coon_docs.py`` fails when the document is stale.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from coonbench.formats.coon.decoder import decode
from coonbench.formats.coon.words import macro_text
from coonbench.formats.coon.verifier import encode
from coonbench.formats.coon.tables import (
    ALIAS_WORDS,
    CALL_ENUMS,
    CLASHES,
    ENUM_LABELS,
    IMPLIED,
    LABELS,
    MACROS,
    PREFIXES,
    TYPES,
    WIDGETS,
)
from coonbench.dart.minify import minify
from coonbench.resources import REPO_ROOT
from coonbench.tokens import count_tokens

DOC = REPO_ROOT / "docs" / "coon.md"
UPSTREAM_WIDGETS = 37  # the first 37 WIDGETS rows are upstream's spec/data/widgets.json (2 of its rows dropped)
UPSTREAM_LABELS = 29  # the first 29 LABELS rows are upstream's spec/data/properties.json (1 row dropped)

EXAMPLES: dict[str, str] = {
    "A stateless widget": """import 'package:flutter/material.dart';

class PaddedLabel extends StatelessWidget {
  const PaddedLabel({super.key});

  @override
  Widget build(BuildContext context) {
    return Padding(
      padding: const EdgeInsets.all(16),
      child: Column(
        mainAxisAlignment: MainAxisAlignment.center,
        children: [
          Text('Order #4821', style: TextStyle(fontSize: 14, color: Colors.grey)),
          ElevatedButton(onPressed: () => print('ok'), child: const Text('OK')),
        ],
      ),
    );
  }
}
""",
    "A stateful widget (class-name macros, `^name`, implied constructors)": """class Counter extends StatefulWidget {
  const Counter({super.key, required this.label});
  final String label;

  @override
  State<Counter> createState() => _CounterState();
}

class _CounterState extends State<Counter> {
  int _n = 0;

  @override
  Widget build(BuildContext context) {
    return ListTile(
      title: Text(widget.label, style: const TextStyle(fontWeight: FontWeight.bold)),
      trailing: IconButton(icon: const Icon(Icons.add), onPressed: () => setState(() => _n++)),
      subtitle: Text('$_n'),
    );
  }
}
""",
    "Identifiers that collide with abbreviations": """class Box<T> {
  T? value;
  Map<String, int> counts(int c) => {'c': c};
  Widget wrap(Widget child) => T(c: child, h: 1);
}
""",
    "A bare expression (fragment)": "Center(child: Text('Hello', textAlign: TextAlign.center))",
}


def _rows(pairs: list[tuple[str, str]], head: tuple[str, str]) -> str:
    lines = [f"| {head[0]} | {head[1]} |", "|---|---|"]
    lines += [f"| `{a}` | `{b}` |" for a, b in pairs]
    return "\n".join(lines)


def tables_markdown() -> str:
    """The table section of docs/coon.md."""
    widgets = list(WIDGETS.items())
    labels = list(LABELS.items())
    parts = [
        f"### Widget words (call position: directly before `(` or `.`) — {len(widgets)} entries",
        f"Rows 1–{UPSTREAM_WIDGETS} are upstream's `widgets.json` unchanged (less the rows listed under 'Upstream "
        "entries changed or not adopted'); the rest are coonbench additions. A dotted name (`EdgeInsets.symmetric`) "
        "is one word for the whole named constructor.",
        "",
        _rows(widgets, ("Dart", "COON")),
        "",
        "### Type words (anywhere)",
        "",
        _rows(list(TYPES.items()), ("Dart", "COON")),
        "",
        f"### Label words (start of an argument) — {len(labels)} entries",
        f"Rows 1–{UPSTREAM_LABELS} are upstream's `properties.json` (without the colon; less the rows listed under "
        "'Upstream entries changed or not adopted'); the rest are coonbench "
        "additions. Any other lower-case label is written as itself (colon-less when the value starts with a word "
        "or number).",
        "",
        _rows(labels, ("Dart label", "COON word")),
        "",
        "### Enum labels (`word.member` or `word:.member`)",
        "",
        _rows(list(ENUM_LABELS.items()), ("label", "implied type")),
        "",
        "### Implied constructors (`word(…)` or `word const(…)` after a label word)",
        "",
        _rows([(f"{LABELS.get(k, k)}(", f"{k}: {v}(") for k, v in IMPLIED.items()], ("COON", "Dart")),
        "",
        "### Call enums (`Call(.member)`)",
        "",
        _rows(list(CALL_ENUMS.items()), ("call", "implied type")),
        "",
        "### Macros",
        "",
        "`{Class}` is the name of the most recently declared class: the word after the last `class` keyword "
        "before the macro (inside `class Foo`, `#K` is `const Foo({super.key});`).",
        "",
        _rows([(f"#{k}", macro_text(k)) for k in MACROS], ("COON", "Dart")),
        "",
        "### Prefixes",
        "",
        "| prefix | meaning |",
        "|---|---|",
        *[f"| `{k}` | {v} |" for k, v in PREFIXES.items()],
        "",
        f"### Alias words (the N-th repeats a document's alias N) — {len(ALIAS_WORDS)} entries",
        "",
        " ".join(f"`{w}`" for w in ALIAS_WORDS),
        "",
        "### Upstream entries changed or not adopted",
        "",
        "| upstream | resolution |",
        "|---|---|",
        *[f"| {k} | {v} |" for k, v in CLASHES.items()],
    ]
    return "\n".join(parts)


def examples_markdown() -> str:
    """Worked examples: Dart, its COON, and the decoded Dart, produced by the codec."""
    parts: list[str] = []
    for title, dart in EXAMPLES.items():
        coon = encode(dart)
        parts += [
            f"### {title}",
            "",
            "Dart:",
            "```dart",
            dart.rstrip(),
            "```",
            "",
            f"COON ({count_tokens(coon)} o200k tokens; Dart {count_tokens(dart)}, minified {count_tokens(minify(dart))}):",
            "```coon",
            coon,
            "```",
            "",
            "Decoded (AST-equivalent to the Dart above):",
            "```dart",
            decode(coon).rstrip(),
            "```",
            "",
        ]
    return "\n".join(parts).rstrip()


SECTIONS = {"tables": tables_markdown, "examples": examples_markdown}
_MARK = re.compile(r"(<!-- BEGIN GENERATED: (\w+) -->\n)(.*?)(<!-- END GENERATED: \2 -->)", re.S)


def render(doc: str) -> str:
    """``doc`` with every generated section replaced by its current content."""
    return _MARK.sub(lambda m: m.group(1) + SECTIONS[m.group(2)]() + "\n" + m.group(4), doc)


def main(path: Path = DOC) -> int:
    text = path.read_text(encoding="utf-8")
    path.write_text(render(text), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
