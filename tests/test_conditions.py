"""Format conditions of the code tasks: the parser, plug-in formats in real runs, refusals and user corpora."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval

from coonbench.tasks.conditions import (
    Condition,
    ConditionError,
    code_format_names,
    parse_condition,
    parse_conditions,
    pick_conditions,
    print_skips,
    refusal,
)
from coonbench.dart.questions import generate_questions
from coonbench.datasets.comprehension import SEED, comprehension_samples
from coonbench.datasets.corpus import load_corpus
from coonbench.datasets.user_corpus import gci_band, load_dir, sample_id_for
from coonbench.formats import Format, FormatError, get_format
from coonbench.formats.base import _REGISTRY
from coonbench.tokens import count_tokens
from coonbench.evals.comprehension import comprehension
from coonbench.evals.generation import generation
from coonbench.evals.modification import modification
from coonbench.solvers.gold import gold

QUOTE = "| "


class QuotedDart(Format):
    """A third-party-like lossless code format: every line of the Dart prefixed with ``| ``."""

    name = "test-quoted-dart"
    description = "Dart with every line prefixed by '| '"
    kind = "code"
    fence = "quoted"
    lossless = True

    def encode(self, source: Any) -> str:
        if not isinstance(source, str):
            raise FormatError("Dart source must be text", expected="str")
        return "\n".join(QUOTE + line for line in source.split("\n"))

    def decode(self, text: str) -> str:
        lines = text.split("\n")
        for n, line in enumerate(lines, start=1):
            if not line.startswith(QUOTE.rstrip()):
                raise FormatError("line does not start with '|'", n, 1, expected="'| '")
        return "\n".join(line[2:] if line.startswith(QUOTE) else "" for line in lines)

    def primer(self, variant: str = "short") -> str:  # type: ignore[override]
        return "Each line of the Dart program is prefixed with '| '."


class RefusesStateful(QuotedDart):
    """Refuses any source declaring a StatefulWidget (a format with a documented limit)."""

    name = "test-refuses-stateful"

    def encode(self, source: Any) -> str:
        if "StatefulWidget" in str(source):
            raise FormatError("stateful widgets are not supported", expected="a stateless program")
        return super().encode(source)


class LossyDart(QuotedDart):
    """Lossy: drops comments' text (keeps the code), cannot decode."""

    name = "test-lossy-dart"
    lossless = False

    def decode(self, text: str) -> str:
        raise FormatError("lossy")


@pytest.fixture(scope="module", autouse=True)
def plugins() -> Iterator[None]:
    """Register the three test formats for this module only (other tests list the registry)."""
    get_format("dart")  # load the built-in plug-ins first
    fmts = [QuotedDart(), RefusesStateful(), LossyDart()]
    for f in fmts:
        _REGISTRY[f.name] = f
    yield
    for f in fmts:
        _REGISTRY.pop(f.name, None)


def _metrics(log: Any) -> dict[str, float]:
    return {k: m.value for s in log.results.scores for k, m in s.metrics.items()}


# --------------------------------------------------------------------------------------------------- parser


def test_parser_options_and_alias() -> None:
    assert parse_condition("coon") == Condition("coon", "short")
    assert parse_condition("coon:noprimer") == Condition("coon", "none")
    assert parse_condition("coon-noprimer") == parse_condition(" coon:noprimer ")  # the documented alias
    assert parse_condition("dart:full").label == "dart-fullprimer"
    assert parse_condition("coon:noprimer").label == "coon-noprimer"  # old logs' name, kept
    assert parse_condition("test-quoted-dart").label == "test-quoted-dart"
    # duplicates (alias and canonical) collapse; order kept
    got = parse_conditions("coon-noprimer,dart,coon:noprimer", ())
    assert [c.label for c in got] == ["coon-noprimer", "dart"]


def test_unknown_names_list_the_registered_code_formats() -> None:
    with pytest.raises(ConditionError) as err:
        parse_condition("brainfuck")
    message = str(err.value)
    assert "no format called 'brainfuck'" in message
    for name in code_format_names():
        assert name in message
    assert "test-quoted-dart" in code_format_names() and "json" not in code_format_names()
    with pytest.raises(ConditionError, match="kind=\"data\" format"):
        parse_condition("json")
    with pytest.raises(ConditionError, match="unknown option 'verbose'"):
        parse_condition("coon:verbose")


def test_lossy_formats_are_refused_where_answers_are_decoded() -> None:
    assert parse_conditions("test-lossy-dart", ())[0].fmt.lossless is False  # fine to read
    with pytest.raises(ConditionError, match="'test-lossy-dart' is lossy.*use it in comprehension"):
        parse_conditions("test-lossy-dart", (), need_decode=True, param="format")
    with pytest.raises(ConditionError, match="is lossy"):
        generation(format="test-lossy-dart", bands="simple")


def test_formats_and_the_older_parameter() -> None:
    assert pick_conditions(None, "dart", "input_format") == "dart"
    assert pick_conditions("dart,coon", "coon", "input_format") == "dart,coon"  # older one left at its default
    with pytest.raises(ConditionError, match="not both"):
        pick_conditions("dart", "test-quoted-dart", "format")


def test_refusal_reasons() -> None:
    source = next(s.source for s in load_corpus(bands=["stateful"]))
    assert refusal("test-quoted-dart", source, True) is None
    assert "encoder refused the source: " in str(refusal("test-refuses-stateful", source, True))
    assert "stateful widgets are not supported" in str(refusal("test-refuses-stateful", source, True))
    assert refusal("test-lossy-dart", source, True) is None  # lossy: encoding is all that is checked


# --------------------------------------------------------------------------------------------- real runs


def test_plugin_format_in_comprehension_gold_100(tmp_path: Path) -> None:
    task = comprehension(formats="test-quoted-dart,test-quoted-dart:noprimer,dart", bands="simple")
    formats = {s.metadata["format"] for s in task.dataset}
    assert formats == {"test-quoted-dart", "test-quoted-dart-noprimer", "dart"}
    sample = next(s for s in task.dataset if s.metadata["format"] == "test-quoted-dart")
    assert "\n| " in str(sample.input) and "```quoted" in str(sample.input)
    primer = get_format("test-quoted-dart").primer("short")
    assert sample.metadata["primer"] is True and sample.metadata["primer_tokens"] == count_tokens(primer)
    bare = next(s for s in task.dataset if s.metadata["format"] == "test-quoted-dart-noprimer")
    assert bare.metadata["primer"] is False and bare.metadata["primer_tokens"] == 0
    [log] = inspect_eval(task, model="mockllm/model", solver=gold(), log_dir=str(tmp_path), display="none")
    assert log.status == "success"
    metrics = _metrics(log)
    assert metrics["accuracy"] == 1.0
    assert metrics["format/test-quoted-dart"] == 1.0
    assert "tokens/test-quoted-dart" in metrics and "token_change/test-quoted-dart" in metrics
    # the task's own solver shows the plug-in's primer, and none in the :noprimer condition
    [run] = inspect_eval(task, model="mockllm/model", limit=3, log_dir=str(tmp_path), display="none")
    systems = {s.metadata["format"]: [m.text for m in s.messages if m.role == "system"] for s in run.samples}
    assert systems["test-quoted-dart"] == [primer] and systems["test-quoted-dart-noprimer"] == []


def test_plugin_format_in_generation_gold_100_with_token_metrics(tmp_path: Path) -> None:
    task = generation(formats="test-quoted-dart,dart", bands="simple", kinds="dart-to-coon,nl-to-coon")
    assert {s.metadata["format"] for s in task.dataset} == {"test-quoted-dart", "dart"}
    [log] = inspect_eval(task, model="mockllm/model", solver=gold(), log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    metrics = {(s.name, k): m.value for s in log.results.scores for k, m in s.metrics.items()}
    assert metrics[("correct", "mean")] == 1.0
    assert metrics[("correct", "coonbench/by_format_test-quoted-dart")] == 1.0
    assert metrics[("input_tokens", "mean")] > 0 and metrics[("output_tokens", "mean")] > 0
    # the quoted format costs more tokens to write than Dart: the paired change is positive and exact
    change = metrics[("code_check", "output_token_change/test-quoted-dart")]
    outs: dict[str, dict[str, float]] = {}
    for s in log.samples:
        outs.setdefault(s.metadata["format"], {})[s.metadata["pair_id"]] = s.scores["code_check"].value["output_tokens"]
        assert s.scores["code_check"].value["output_tokens"] == count_tokens(s.output.completion)
    base, mine = sum(outs["dart"].values()), sum(outs["test-quoted-dart"].values())
    assert change == pytest.approx((mine - base) / base, abs=1e-6) and change > 0


def test_refusing_format_skips_with_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    task = comprehension(formats="test-refuses-stateful,dart", bands="stateful")
    printed = capsys.readouterr().err
    skipped = task.metadata["skipped"]
    stateful = [s for s in load_corpus(bands=["stateful"]) if "StatefulWidget" in s.source]
    assert stateful and {s["item"] for s in skipped} == {s.id for s in stateful}
    assert all(s["condition"] == "test-refuses-stateful" for s in skipped)
    assert all("stateful widgets are not supported" in s["reason"] for s in skipped)
    assert task.metadata["skipped_by_reason"] == {"encoder refused the source": len(stateful)}
    assert f"skipped {len(stateful)} item(s)" in printed and stateful[0].id in printed
    # the Dart condition still has every question; the refusing one none of the refused files
    kept = {s.metadata["sample_id"] for s in task.dataset if s.metadata["format"] == "test-refuses-stateful"}
    assert not kept & {s.id for s in stateful}
    [log] = inspect_eval(task, model="mockllm/model", solver=gold(), log_dir=str(tmp_path), display="none", limit=20)
    assert log.status == "success" and log.eval.metadata["skipped_by_condition"] == {
        "test-refuses-stateful": len(stateful)
    }


def test_modification_in_a_plugin_format_gold_100(tmp_path: Path) -> None:
    task = modification(formats="test-quoted-dart:noprimer", bands="simple", kinds="change-property,add-widget")
    assert len(task.dataset) > 0
    assert all(s.metadata["format"] == "test-quoted-dart-noprimer" and not s.metadata["primer"] for s in task.dataset)
    [log] = inspect_eval(task, model="mockllm/model", solver=gold(), log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    metrics = {(s.name, k): m.value for s in log.results.scores for k, m in s.metrics.items()}
    assert metrics[("correct", "mean")] == 1.0


# ----------------------------------------------------------------------------------------------- corpora


@pytest.fixture
def user_dir(tmp_path: Path) -> Path:
    """A small app folder built from real corpus files, nested, plus one broken file and one hidden folder."""
    root = tmp_path / "app"
    corpus = load_corpus(bands=["simple", "stateful"])
    for i, sample in enumerate(corpus[:2] + corpus[-2:]):
        target = root / ("lib/widgets" if i % 2 else "lib") / f"file {i}.dart"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(sample.path, target)
    (root / "lib" / "broken.dart").write_text("class A { void f( { }\n", encoding="utf-8")
    (root / ".dart_tool").mkdir()
    (root / ".dart_tool" / "gen.dart").write_text("garbage(", encoding="utf-8")
    return root


def test_user_corpus_ids_skips_and_determinism(user_dir: Path) -> None:
    samples, skips = load_dir(user_dir)
    assert [s.id for s in samples] == ["user-lib.file_0", "user-lib.file_2", "user-lib.widgets.file_1", "user-lib.widgets.file_3"]
    assert sample_id_for(Path("lib/widgets/file 1.dart")) == "user-lib.widgets.file_1"
    assert [(s.item, s.condition) for s in skips] == [("lib/broken.dart", "*")]
    assert skips[0].reason.startswith("does not parse: line 1")
    assert all(s.band == gci_band(s.gci) for s in samples)
    again, _ = load_dir(user_dir)
    assert [(s.id, s.source) for s in again] == [(s.id, s.source) for s in samples]


def test_user_corpus_comprehension_gold_100(user_dir: Path, tmp_path: Path) -> None:
    task = comprehension(formats="coon,dart-minified", corpus=str(user_dir))
    samples, _ = load_dir(user_dir)
    expected = {q.id for s in samples for q in generate_questions(s.id, s.source, seed=SEED)}
    assert expected and {s.metadata["pair_id"] for s in task.dataset} == expected
    assert {s.metadata["complexity"] for s in task.dataset} <= {"gci-low", "gci-mid", "gci-high"}
    assert task.metadata["skipped"] == [
        {"item": "lib/broken.dart", "condition": "*", "reason": load_dir(user_dir)[1][0].reason}
    ]
    [log] = inspect_eval(task, model="mockllm/model", solver=gold(), log_dir=str(tmp_path), display="none")
    assert log.status == "success" and _metrics(log)["accuracy"] == 1.0


def test_user_corpus_generation_and_modification(user_dir: Path, tmp_path: Path) -> None:
    gen = generation(formats="dart", corpus=str(user_dir), kinds="dart-to-coon")
    assert {s.metadata["sample_id"] for s in gen.dataset} == {s.id for s in load_dir(user_dir)[0]}
    mod = modification(formats="dart", corpus=str(user_dir), kinds="change-property")
    assert all(s.metadata["sample_id"].startswith("user-") for s in mod.dataset)
    logs = inspect_eval([gen, mod], model="mockllm/model", solver=gold(), log_dir=str(tmp_path), display="none")
    assert [lg.status for lg in logs] == ["success", "success"]
    for lg in logs:
        means = {s.name: s.metrics["mean"].value for s in lg.results.scores if "mean" in s.metrics}
        assert means["correct"] == 1.0 and means["input_tokens"] > 0, means


def test_missing_corpus_dir_is_named(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a directory"):
        comprehension_samples(corpus=str(tmp_path / "nope"))


def test_relative_corpus_is_read_from_where_the_command_was_typed(
    user_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``inspect eval evals/x.py`` creates the task inside evals/: a relative -T corpus= is resolved from $PWD."""
    from coonbench.datasets.user_corpus import resolve_dir

    elsewhere = tmp_path / "evals"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("PWD", str(user_dir.parent))
    assert resolve_dir("app") == user_dir.resolve()
    monkeypatch.setenv("PWD", str(elsewhere))
    with pytest.raises(ValueError, match=r"-T corpus=app: not a directory \(tried "):
        resolve_dir("app")


def test_print_skips_is_bounded(capsys: pytest.CaptureFixture[str]) -> None:
    from coonbench.tasks.conditions import Skip

    print_skips("x", [Skip(f"f{i}", "*", "does not parse: line 1") for i in range(25)])
    err = capsys.readouterr().err
    assert "skipped 25 item(s)" in err and "25× does not parse" in err and "… and 15 more" in err


@pytest.mark.slow
def test_real_flutter_samples_comprehension_gold_100(tmp_path: Path) -> None:
    """Every question on real Flutter code (flutter/samples) is answered right by the gold reply, through the
    task's own scorer; an Inspect run over a slice proves the end-to-end path (the full run takes minutes)."""
    import asyncio

    from inspect_ai.model import ModelOutput
    from inspect_ai.scorer import Target
    from inspect_ai.solver import TaskState

    from tests.conftest import reference_path

    root = reference_path("dart-real", "flutter-samples")
    task = comprehension(corpus=str(root))
    files = list(root.rglob("*.dart"))
    skipped = task.metadata["skipped"]
    assert len(task.dataset) > 1000
    assert all(s["reason"] for s in skipped)
    used = {s.metadata["sample_id"] for s in task.dataset}
    no_question = {s["item"] for s in skipped if s["condition"] == "*"}
    assert len(used) + len(no_question) <= len(files) and not used & no_question
    scorer = task.scorer[0]

    async def score_all() -> list[str]:
        wrong = []
        for s in task.dataset:
            state = TaskState(
                model="mockllm/model", sample_id=s.id, epoch=1, input=s.input, messages=[], metadata=s.metadata,
                output=ModelOutput.from_content("gold", str(s.target)),
            )
            score = await scorer(state, Target(s.target))
            if score.value["correct"] != 1.0:
                wrong.append(f"{s.id}: {score.explanation}")
        return wrong

    assert asyncio.run(score_all()) == []
    [log] = inspect_eval(
        task, model="mockllm/model", solver=gold(), log_dir=str(tmp_path), display="none", limit=200
    )
    assert log.status == "success" and _metrics(log)["accuracy"] == 1.0
