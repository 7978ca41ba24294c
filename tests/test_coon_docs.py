"""docs/coon.md is current (tables and examples are generated from the codec) and the primer follows the tables."""

from __future__ import annotations

from coonbench.formats import get_format
from coonbench.formats.coon.docs import DOC, EXAMPLES, render
from coonbench.formats.coon import TABLES, label_aliases, primer, widget_aliases
from tests.coon_oracle import unverified_roundtrip


def test_doc_generated_sections_are_current() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "<!-- BEGIN GENERATED: tables -->" in text and "<!-- BEGIN GENERATED: examples -->" in text
    assert render(text) == text, "run: python -m coonbench.formats.coon.docs"
    assert "| `Scaffold` | `S` |" in text and "```coon" in text


def test_examples_round_trip() -> None:
    for dart in EXAMPLES.values():
        coon, wrong = unverified_roundtrip(dart)
        assert wrong is None, (wrong, coon)


def test_primer_is_generated_from_tables() -> None:
    full = primer("full")
    for full_name, abbr in TABLES["widgets"].items():
        assert f"{abbr}={full_name}" in full
    for word, label in label_aliases().items():
        assert (f"{word}={label}" in full) if word != label else (word in full)
    for macro in TABLES["macros"]:
        assert f"`#{macro}`" in full
    short = primer("short")
    assert len(short) < len(full) and "T=Text" in short
    assert get_format("coon").primer("full") == full


def test_aliases_are_enumerable() -> None:
    aliases = widget_aliases()
    assert aliases["S"] == "Scaffold" and aliases["T"] == "Text" and len(aliases) == len(TABLES["widgets"])
    assert label_aliases()["c"] == "child"
    fmt = get_format("coon")
    assert (fmt.name, fmt.fence, fmt.kind, fmt.lossless) == ("coon", "coon", "code", True)


def test_primer_sizes_stated_are_counted() -> None:
    """docs/coon.md's primer sizes are codec measurements, not a published run's: the primer table's o200k counts
    and the tokenizer table's short-primer column are what each tokenizer counts in today's primers, and
    docs/results.md's sentence on dialect 5 names the same short primer."""
    import re
    from pathlib import Path

    from coonbench.tokens import count_tokens

    text = DOC.read_text(encoding="utf-8")
    for kind in ("short", "full"):
        row = re.search(rf"^\| `{kind}` \| [^|]+ \| ([\d,]+) \|$", text, re.M)
        assert row, f"docs/coon.md's primer table has the {kind} primer"
        assert row[1] == f"{count_tokens(primer(kind), 'o200k_base'):,}"
    rows = re.findall(r"^\| `([\w.-]+)` \| [\d,]+ \| −[\d.]+% \| −[\d.]+% \| [^|]+ \| −[\d.]+% "
                      r"\| ([\d,]+) \| [\d,]+ \|$", text, re.M)
    assert len(rows) >= 7, "docs/coon.md's per-tokenizer table"
    for tokenizer, short in rows:
        assert short == f"{count_tokens(primer('short'), tokenizer):,}", tokenizer
    results = " ".join((Path(DOC).parents[1] / "docs" / "results.md").read_text(encoding="utf-8").split())
    said = re.search(r"the short primer is ([\d,]+) tokens", results)
    assert said and said[1] == f"{count_tokens(primer('short'), 'o200k_base'):,}"
