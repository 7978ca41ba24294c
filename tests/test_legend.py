"""COON's legend primer (``-T primer=legend``): exact, deterministic, cheaper than Dart, accepted by the code tasks."""

from __future__ import annotations

import re
import statistics
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval

from coonbench.tasks.conditions import Condition, parse_condition
from coonbench.dart.equivalence import ast_diff
from coonbench.formats import FormatError, get_format
from coonbench.formats.coon import decode, encode
from coonbench.formats.coon.encoder import _join as join_coon
from coonbench.formats.coon.legend import document_and_legend, economise, legend, usage
from coonbench.formats.coon.lexer import CTok, lex
from coonbench.formats.coon.tables import LABELS, TYPES, WIDGETS
from coonbench.resources import REPO_ROOT
from coonbench.tokens import count_tokens
from coonbench.evals.comprehension import comprehension
from coonbench.evals.generation import generation
from coonbench.evals.modification import modification
from coonbench.solvers.gold import gold

CORPUS = sorted((REPO_ROOT / "data" / "dart").rglob("*.dart"))
DEV_SET = REPO_ROOT.parent / "shared" / "reference" / "dart-real"
# every word the decoder may expand: widget and type words, label words that are not the label itself
TABLE_WORDS = set(WIDGETS.values()) | set(TYPES.values()) | {w for full, w in LABELS.items() if w != full}


def _sources(paths: list[Path]) -> list[str]:
    return [p.read_text(encoding="utf-8") for p in paths]


def _listed(text: str) -> set[str]:
    """The words a legend explains (``w=…`` entries, ``w.x=`` / ``w(=`` shorthands), read back from its text."""
    return set(re.findall(r"(?:^|[ :])([A-Za-z_$][A-Za-z0-9_$]*)(?:=|\.x=|\(=)", text, re.M))


def _expanded_words(coon: str) -> set[str]:
    """The table words the decoder expands in ``coon``, found by decoding alone: a word is an abbreviation here
    when escaping one of its occurrences (`` `w ``: the name as written) changes the decoded Dart."""
    toks = lex(coon)
    want = decode(coon)
    found: set[str] = set()
    for k, tok in enumerate(toks):
        if tok.kind != "ident" or tok.text not in TABLE_WORDS or tok.text in found:
            continue
        flipped = join_coon([*toks[:k], CTok("esc", tok.text, 0, 0), *toks[k + 1 :]])
        try:
            same = decode(flipped) == want
        except FormatError:  # written as is, the word does not even make Dart: it stood for something else
            same = False
        if not same:
            found.add(tok.text)
    return found


def test_legend_lists_exactly_the_abbreviations_the_document_uses() -> None:
    """Cross-checked by decoding: every table word the decoder expands is in the legend, and nothing else; the
    macros and prefixes listed are the ones in the text."""
    checked = 0
    for src in _sources(CORPUS[::3]):
        for coon in (encode(src), document_and_legend(src)[0]):
            text = legend(coon)
            assert _listed(text) & TABLE_WORDS == _expanded_words(coon), coon
            toks = lex(coon)
            macros = {t.text for t in toks if t.kind == "macro"}
            assert set(re.findall(r"^#(\w+)=", text, re.M)) == macros
            rules = {line.split(" =")[0] for line in text.splitlines() if " =" in line}
            assert ("@N" in rules) == any(t.kind == "edge" for t in toks)
            assert ("@@N" in rules) == any(t.kind == "cedge" for t in toks)
            assert ("^x" in rules) == any(t.is_op("^") for t in toks)  # the corpus has no XOR
            assert ("\\x defines alias N" in text) == any(t.kind in ("def", "ref") for t in toks)
            checked += 1
    assert checked >= 60


def test_legend_is_deterministic_and_from_the_tables() -> None:
    src = CORPUS[len(CORPUS) // 2].read_text(encoding="utf-8")
    coon = encode(src)
    first = legend.__wrapped__(coon)  # type: ignore[attr-defined]
    assert first == legend.__wrapped__(coon) == legend(coon)  # type: ignore[attr-defined]
    assert document_and_legend.__wrapped__(src) == document_and_legend(src)  # type: ignore[attr-defined]
    found = usage(coon)
    assert all(WIDGETS.get(full) == w or TYPES.get(full) == w for w, full in found.names.items())
    assert all(LABELS[full] == w for w, full in found.labels.items())
    assert legend("") == "" and legend("final x=1;") == ""  # a document that uses nothing needs no legend


def test_economised_document_decodes_to_the_same_dart() -> None:
    for src in _sources(CORPUS):
        plain = encode(src)
        doc, text = document_and_legend(src)
        assert decode(doc) == decode(plain)
        assert ast_diff(src, decode(doc)) is None
        assert count_tokens(doc) + count_tokens(text) <= count_tokens(plain) + count_tokens(legend(plain))
        assert economise(doc) == doc or count_tokens(economise(doc)) + count_tokens(legend(economise(doc))) <= (
            count_tokens(doc) + count_tokens(text)
        )
    commented = [src for src in _sources(CORPUS[::4]) if "//" in src or "/*" in src]
    assert commented
    for src in commented:  # coon-comments: the comments survive the economy too
        assert decode(get_format("coon-comments").legend(src)[0]) == decode(encode(src, keep_comments=True))


def _goals(sources: list[str]) -> tuple[float, float]:
    """(share of files where COON + legend costs fewer o200k tokens than the Dart, break-even in Dart tokens)."""
    rows = []
    for src in sources:
        doc, text = document_and_legend(src)
        rows.append((count_tokens(src), count_tokens(doc), count_tokens(text)))
    share = sum(d + lg < dart for dart, d, lg in rows) / len(rows)
    ratio = sum(d for _, d, _ in rows) / sum(dart for dart, _, _ in rows)
    return share, statistics.median(lg for _, _, lg in rows) / (1 - ratio)


def test_goals_on_the_corpus() -> None:
    share, break_even = _goals(_sources(CORPUS))
    assert share >= 0.9 and break_even <= 200


@pytest.mark.slow
@pytest.mark.skipif(not DEV_SET.is_dir(), reason="../shared/reference/dart-real (the development set) is absent")
def test_goals_on_the_development_set() -> None:
    sources = []
    for p in sorted(DEV_SET.rglob("*.dart")):
        src = p.read_text(encoding="utf-8", errors="replace")
        try:
            encode(src)
        except ValueError:  # FormatError: not Dart, or refused (counted by benchmarks/coon_tokens.py)
            continue
        sources.append(src)
    assert len(sources) > 400
    share, break_even = _goals(sources)
    assert share >= 0.9 and break_even <= 200


# ----------------------------------------------------------------------------------------------- conditions


def test_legend_condition_and_fallback() -> None:
    cond = parse_condition("coon:legend")
    assert cond == Condition("coon", "legend") and cond.label == "coon-legend" and cond.has_legend
    src = CORPUS[0].read_text(encoding="utf-8")
    doc, text = cond.show(src, economise_in="o200k_base")
    assert (doc, text) == document_and_legend(src)
    meta = cond.metadata("short", text, tokenizer="o200k_base")
    assert meta["primer_variant"] == "legend" and meta["legend"] == text
    assert meta["primer_tokens"] == count_tokens(text)
    # the task's -T primer=legend reaches plain conditions; a format without a legend shows its short primer
    assert Condition("coon").show(src, "legend", economise_in="o200k_base") == document_and_legend(src)
    # no tokenizer to economise in: the plain encoding and its legend
    plain = encode(src)
    assert Condition("coon").show(src, "legend", economise_in=None) == (plain, legend(plain))
    dart = Condition("dart")
    assert not dart.has_legend
    assert dart.show(src, "legend", economise_in="o200k_base") == (get_format("dart").encode(src),
                                                                 get_format("dart").primer("short"))
    assert dart.metadata("legend", tokenizer="o200k_base")["primer_variant"] == "short"


def _accuracy(log: Any) -> float:
    metrics = {(s.name, k): m.value for s in log.results.scores for k, m in s.metrics.items()}
    return float(metrics.get(("correct", "mean"), metrics.get(("answer_match", "accuracy"), 0.0)))


def test_comprehension_with_legend_gold_100_and_system_message(tmp_path: Path) -> None:
    task = comprehension(formats="coon,dart", bands="simple,composed", primer="legend")
    coon = [s for s in task.dataset if s.metadata["format"] == "coon"]
    assert coon and all(s.metadata["primer_variant"] == "legend" for s in coon)
    assert any(s.metadata["legend"] for s in coon)
    for s in coon:
        assert s.metadata["input_tokens"] == count_tokens(
            f"{s.metadata['legend']}\n\n{s.input}" if s.metadata["legend"] else str(s.input)
        )
    [log] = inspect_eval(task, model="mockllm/model", solver=gold(), log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    assert _accuracy(log) == 1.0
    assert {(s.name, k): m.value for s in log.results.scores for k, m in s.metrics.items()}[
        ("answer_match", "format/coon")
    ] == 1.0
    [run] = inspect_eval(task, model="mockllm/model", limit=12, log_dir=str(tmp_path), display="none")
    for s in run.samples:
        systems = [m.text for m in s.messages if m.role == "system"]
        if s.metadata["format"] == "coon":
            assert systems == ([s.metadata["legend"]] if s.metadata["legend"] else [])
        else:
            assert systems == [get_format("dart").primer("short")]


def test_generation_and_modification_with_legend_gold_100(tmp_path: Path) -> None:
    gen = generation(formats="coon:legend", bands="simple", kinds="dart-to-coon,coon-completion")
    mod = modification(formats="coon", bands="simple", kinds="change-property,add-widget", primer="legend")
    assert all(s.metadata["format"] == "coon-legend" for s in gen.dataset)
    assert all(s.metadata["primer_variant"] == "legend" for s in [*gen.dataset, *mod.dataset])
    for s in gen.dataset:  # the model writes COON: the legend of the plain encoding (what the checker expects)
        assert s.metadata["legend"] == legend(str(s.target))
    for s in mod.dataset:  # the legend of the program shown, counted in the sample's input tokens
        shown = str(s.input).split("```coon\n", 1)[1].split("\n```", 1)[0]
        assert s.metadata["legend"] == legend(shown) != ""
        assert s.metadata["input_tokens"] == count_tokens(f"{s.metadata['legend']}\n\n{s.input}")
    logs = inspect_eval([gen, mod], model="mockllm/model", solver=gold(), log_dir=str(tmp_path), display="none")
    for log in logs:
        assert log.status == "success", log.error
        assert _accuracy(log) == 1.0
