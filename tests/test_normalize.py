"""The shared normaliser: TOON's 244 reference answers, decorated as models write them, are judged correct;
altered answers are judged wrong; random text never raises."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from coonbench.answers.normalize import answer_types, NormalizeOptions, answers_match, normalize
from coonbench.resources import SHARED_DIR

TOON_QUESTIONS = SHARED_DIR / "reference" / "toon" / "generated" / "questions.json"


def _toon_questions() -> list[dict[str, Any]]:
    if not TOON_QUESTIONS.exists():
        pytest.skip(f"{TOON_QUESTIONS} absent")
    return json.loads(TOON_QUESTIONS.read_text())


def _decorations(answer: str, answer_type: str, options: dict[str, Any]) -> list[str]:
    """The ways models dress a correct answer."""
    common = [
        answer,
        f"  {answer}  \n",
        f"**{answer}**",
        f"`{answer}`",
        f"```\n{answer}\n```",
        f"```text\n{answer}\n```",
        f"The answer is {answer}.",
        f"Answer: {answer}",
        f"Let me look at the data.\n\nAnswer: {answer}",
    ]
    if answer_type == "integer":
        n = int(answer)
        return common + [f"{n:,}", f"${n:,}", f"{answer}.", f"**{n:,}**"]
    if answer_type == "number":
        x = Decimal(answer)
        return common + [f"{x:,}", f"${x:,}", f"{x:,.2f}" if options.get("decimalPlaces") == 2 else f"{x:,}", f"€{answer}"]
    if answer_type == "boolean":
        yes = answer.lower() in ("yes", "true")
        words = ["YES", "Yes", "yes", "true", "TRUE", "Yes.", "**YES**", "Yes, it is."] if yes else [
            "NO", "No", "no", "false", "False", "No.", "**NO**", "No, it is not."]
        return common + words
    if answer_type == "string":
        more = [f'"{answer}"', f"'{answer}'", f"“{answer}”", f"{answer}."]
        if not options.get("caseSensitive"):
            more += [answer.upper(), answer.lower()]
        return common + more
    if answer_type.startswith("csv-list"):
        items = answer.split(",")
        return common + [", ".join(items), f'"{answer}"', "\n".join(f"- {i}" for i in items),
                         ", ".join(items[:-1]) + f", and {items[-1]}" if len(items) > 1 else answer,
                         answer.upper()]
    raise AssertionError(answer_type)


def _alterations(q: dict[str, Any], others: list[dict[str, Any]]) -> list[str]:
    """Answers a model that does not know would give: close but wrong."""
    answer, kind = q["groundTruth"], q["answerType"]
    if kind == "integer":
        n = int(answer)
        return [str(n + 1), str(n - 1), str(n * 10 + 3), f"{n}5"]
    if kind == "number":
        x = Decimal(answer)
        return [str(x + 1), str(x + Decimal("0.01")), str(-x if x else 1)]
    if kind == "boolean":
        return ["no" if answer.lower() in ("yes", "true") else "yes"]
    if kind == "string":
        wrong = sorted({o["groundTruth"] for o in others if o["answerType"] == "string"
                        and o["groundTruth"].casefold() != answer.casefold()})[:3]
        out = wrong + [answer + "x", answer[:-1]]
        if q.get("normalizationOptions", {}).get("caseSensitive"):
            out.append(answer.upper())
        return out
    items = answer.split(",")
    out = [",".join(items[:-1]) or "none", ",".join(items + ["extra"])]
    if kind == "csv-list-ordered" and len(set(items)) > 1:
        out.append(",".join(items[::-1]))
    return out


def test_every_toon_answer_decorated_is_correct() -> None:
    questions = _toon_questions()
    assert len(questions) == 244
    failures = []
    for q in questions:
        opts = q.get("normalizationOptions") or {}
        for text in _decorations(q["groundTruth"], q["answerType"], opts):
            ok, why = answers_match(text, q["groundTruth"], q["answerType"], opts)
            if not ok:
                failures.append((q["id"], text, why))
    assert not failures, failures[:10]


def test_every_toon_answer_altered_is_wrong() -> None:
    questions = _toon_questions()
    failures = []
    for q in questions:
        opts = q.get("normalizationOptions") or {}
        for text in _alterations(q, questions):
            ok, why = answers_match(text, q["groundTruth"], q["answerType"], opts)
            if ok:
                failures.append((q["id"], q["groundTruth"], text, why))
    assert not failures, failures[:10]


@pytest.mark.parametrize(
    ("actual", "expected", "kind", "options", "ok"),
    [
        ("The answer is 42.", "42", "integer", None, True),
        ("12,15", "1215", "integer", None, False),  # not a thousands separator
        ("42.5", "42", "integer", None, False),  # an integer with a fraction is not that integer
        ("42.0", "42", "integer", None, True),
        ("-7", "-7", "integer", None, True),
        ("no number here", "3", "integer", None, False),
        ("61%", "0.61", "number", {"decimalPlaces": 2}, True),  # TOON: trailing % divides by 100
        ("0.605", "0.61", "number", {"decimalPlaces": 2}, True),  # half-up rounding, both sides
        ("0.604", "0.61", "number", {"decimalPlaces": 2}, False),
        ("1234.5000001", "1234.5", "number", None, True),  # default tolerance 1e-6
        ("1234.51", "1234.5", "number", None, False),
        ("$5", "5", "number", {"allowCurrency": False}, False),
        ("y", "yes", "boolean", None, True),
        ("0", "false", "boolean", None, True),
        ("maybe", "yes", "boolean", None, False),
        ("Not sure, no", "no", "boolean", None, False),
        ("January 1, 2025", "2025-01-01", "date", None, True),
        ("1 Jan 2025", "2025-01-01", "date", None, True),
        ("Jan. 1st, 2025", "2025-01-01", "date", None, True),
        ("2025/1/1", "2025-01-01", "date", None, True),
        ("1/15/2025", "2025-01-15", "date", None, True),
        ("2025-01-01T10:00:00Z", "2025-01-01", "date", None, True),
        ("2025-01-02", "2025-01-01", "date", None, False),
        ("2025-13-45", "2025-01-01", "date", None, False),
        ("Master", "master", "string", {"caseSensitive": True}, False),
        ("Master", "master", "string", None, True),
        ("New   York", "New York", "string", None, True),
        ("a,b,c", "a,b,c", "csv-list-ordered", None, True),
        ("b,a,c", "a,b,c", "csv-list-ordered", None, False),
        ("b,a,c", "a,b,c", "csv-list-unordered", None, True),
        ("a,a,b", "a,b", "csv-list-unordered", None, False),
        ("", "a", "csv-list-ordered", None, False),
        ("Scaffold", "Scaffold", "widget-name", None, True),
        ("the Scaffold widget", "Scaffold", "widget-name", None, True),
        ("Text('Hello')", "Text", "widget-name", None, True),
        ("S", "Scaffold", "widget-name", {"aliases": {"S": "Scaffold"}}, True),
        ("S", "Scaffold", "widget-name", None, False),
        ("C", "Scaffold", "widget-name", {"aliases": {"S": "Scaffold", "C": "Column"}}, False),
        ("s", "Scaffold", "widget-name", {"aliases": {"S": "Scaffold"}}, False),  # abbreviations are case-exact
        ("S, C, T", "Scaffold,Column,Text", "csv-list-unordered",
         {"aliases": {"S": "Scaffold", "C": "Column", "T": "Text"}, "item_type": "widget-name"}, True),
        ("S, C", "Scaffold,Column,Text", "csv-list-unordered",
         {"aliases": {"S": "Scaffold", "C": "Column", "T": "Text"}, "item_type": "widget-name"}, False),
        ("<think>it is 3</think>4", "4", "integer", None, True),
        # echoed code beside the answer: the prose is read, not the code's numbers or names
        ("```coon\nP(p @@16,c T('x'))\n```\n\nThe output is 2.", "2", "integer", None, True),
        ("```coon\nP(p @@16,c T('x'))\n```\n\nThe output is 1.", "16", "integer", None, False),
        ("```dart\nText('a')\n```\nAnswer: Padding", "Padding", "widget-name", None, True),
        # ...but a reply whose answer is only inside a fence is still read
        ("Here it is:\n```\n42\n```", "42", "integer", None, True),
        ("Answer:\n```\nyes\n```", "yes", "boolean", None, True),
    ],
)
def test_rules(actual: str, expected: str, kind: str, options: dict[str, Any] | None, ok: bool) -> None:
    got, why = answers_match(actual, expected, kind, options)
    assert got is ok, why
    assert isinstance(why, str) and why


def test_expected_values_given_as_python_values() -> None:
    assert answers_match("YES", True, "boolean")[0]
    assert answers_match("17", 17, "integer")[0]
    assert answers_match("a, b", ["a", "b"], "csv-list-ordered")[0]


def test_options_coercion() -> None:
    opts = NormalizeOptions.coerce({"decimalPlaces": 2, "caseSensitive": True})
    assert opts.decimal_places == 2 and opts.case_sensitive
    with pytest.raises(ValueError, match="unknown normalize option 'bogus'"):
        NormalizeOptions.coerce({"bogus": 1})
    with pytest.raises(ValueError, match="unknown answer type"):
        normalize("1", "float")
    assert normalize("**YES**", "boolean").value is True  # type: ignore[union-attr]


_OPTIONS = {
    "number": {"decimalPlaces": 2},
    "csv-list-unordered": {"item_type": "widget-name", "aliases": {"S": "Scaffold"}},
    "widget-name": {"aliases": {"S": "Scaffold"}},
}


_NUMBERISH = st.text(alphabet=st.sampled_from(list("0123456789$€,.%-+eE:*`\"' \nYesNo/")), max_size=30)


@settings(max_examples=10_000, deadline=None, database=None, phases=[Phase.generate])
@given(text=st.text(max_size=40) | _NUMBERISH)
def test_random_text_never_raises(text: str) -> None:
    """10,000 random strings, each read as every answer type (so 10,000 per type): no exception."""
    for kind in answer_types():
        result = normalize(text, kind, _OPTIONS.get(kind))
        assert result is None or isinstance(result.text, str)
        ok, why = answers_match(text, "1", kind, _OPTIONS.get(kind))
        assert isinstance(ok, bool) and isinstance(why, str)
