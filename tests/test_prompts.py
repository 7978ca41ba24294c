"""Prompt sensitivity (``-T prompts=``): every task's templates, the samples they make, gold under each, and the
report's spread and sign-stability tables checked against values recomputed here from a scripted model."""

from __future__ import annotations

import itertools
import math
import re
import statistics
import string
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, get_model

from coonbench.datasets import comprehension as comprehension_data
from coonbench.datasets import correction as correction_data
from coonbench.datasets import generation as generation_data
from coonbench.datasets import modification as modification_data
from coonbench.datasets import structure as structure_data
from coonbench.datasets.retrieval import common as retrieval_data
from coonbench.evals.comprehension import comprehension
from coonbench.evals.correction import correction
from coonbench.evals.generation import generation
from coonbench.evals.modification import modification
from coonbench.evals.retrieval import retrieval
from coonbench.evals.structure import structure
from coonbench.report.load import load_samples
from coonbench.report.prompts import prompt_section
from coonbench.report.sections import sections_for
from coonbench.report.tables import comparisons
from coonbench.solvers.gold import gold
from coonbench.tasks.context import BuildContext
from coonbench.tasks.prompts import (LANGUAGE_FIELDS, TEMPLATE_IDS, PromptTemplate, chosen_templates, each_prompt,
                                     each_prompt_pending, render, template_set)
from coonbench.tasks.samples import TaskArgumentError
from coonbench.tasks.subset import Pending, build_subset

TEMPLATE_SETS = {
    "comprehension": comprehension_data.TEMPLATES,
    "structure": structure_data.TEMPLATES,
    "generation/dart-to-coon": generation_data.DART_TO_COON_TEMPLATES,
    "generation/coon-completion": generation_data.COMPLETION_TEMPLATES,
    "generation/nl-to-coon": generation_data.NL_TEMPLATES,
    "modification": modification_data.TEMPLATES,
    "retrieval": retrieval_data.TEMPLATES,
    "correction": correction_data.TEMPLATES,
}
# The field(s) of each task's prompt that carry the code or data, and the question or instruction.
CONTENT_FIELDS = {
    "comprehension": ("code", "question"), "structure": ("question",), "generation/dart-to-coon": ("code",),
    "generation/coon-completion": ("code", "description"), "generation/nl-to-coon": ("requirements",),
    "modification": ("code", "instruction"), "retrieval": ("data", "question"),
    "correction": ("description", "examples", "signature"),
}


def _fields(template: PromptTemplate) -> set[str]:
    """The content fields a template fills: the language's words (``LANGUAGE_FIELDS``: "Flutter/Dart", "Flutter
    program"…, the same for every sample of a language) may differ between wordings."""
    parts = [template.user] + ([template.system] if template.system else [])
    return {name for text in parts for _, name, _, _ in string.Formatter().parse(text) if name} - LANGUAGE_FIELDS


def _text(sample_input: Any) -> str:
    return sample_input if isinstance(sample_input, str) else "\n\n".join(m.text for m in sample_input)


@pytest.mark.parametrize("task", sorted(TEMPLATE_SETS))
def test_every_task_has_four_templates_over_the_same_fields(task: str) -> None:
    templates = TEMPLATE_SETS[task]
    assert list(templates) == list(TEMPLATE_IDS) and len(templates) >= 4
    default = _fields(templates["default"])
    assert set(CONTENT_FIELDS[task]) <= default
    for template in templates.values():
        assert _fields(template) == default, template.id
    assert templates["system"].system is not None  # the instruction placed in a system message
    assert all(t.system is None for tid, t in templates.items() if tid != "system")


@pytest.mark.parametrize("task", sorted(TEMPLATE_SETS))
def test_every_template_renders_the_content_and_templates_differ(task: str) -> None:
    templates = TEMPLATE_SETS[task]
    values = {name: f"<<{name}-{i}>>" for i, name in enumerate(sorted(_fields(templates["default"])))}
    words = {name: f"<<{name}>>" for name in LANGUAGE_FIELDS}  # a template may name its language or not
    rendered = {}
    for tid in templates:
        shown = render(templates, BuildContext(template=tid), **words, **values)
        text = "\n\n".join(p for p in (shown.system, shown.user) if p)
        for name in CONTENT_FIELDS[task]:
            assert values[name] in shown.user, (tid, name)  # code/data and question reach the user message
        for value in values.values():
            assert value in text, (tid, value)
        rendered[tid] = (shown.system, shown.user)
    for a, b in itertools.combinations(rendered, 2):
        assert rendered[a] != rendered[b], (a, b)
    # question-first: the question (or instruction) comes before the code or data
    first, last = CONTENT_FIELDS[task][-1], CONTENT_FIELDS[task][0]
    if first != last:
        user = rendered["question-first"][1]
        assert user.index(values[first]) < user.index(values[last])


def test_the_default_template_is_the_prompt_as_it_was() -> None:
    assert comprehension_data.TEMPLATES["default"].user == comprehension_data.USER_PROMPT
    assert modification_data.TEMPLATES["default"].user == modification_data.MODIFICATION_PROMPT
    assert retrieval_data.TEMPLATES["default"].user == retrieval_data.PROMPT
    assert correction_data.TEMPLATES["default"].user == correction_data.PROMPT


def test_template_sets_are_checked() -> None:
    with pytest.raises(ValueError, match="expected exactly"):
        template_set(PromptTemplate("default", "{x}"))
    bad = [PromptTemplate(t, "{x}") for t in TEMPLATE_IDS[:-1]] + [PromptTemplate(TEMPLATE_IDS[-1], "{y}")]
    with pytest.raises(ValueError, match="fills"):
        template_set(*bad)


FENCED = re.compile(r"```[a-z0-9-]*\n(.*?)\n```", re.S)


def test_samples_under_every_template_show_the_same_code_ids_and_pairs() -> None:
    plain = list(comprehension(questions=2, formats="coon,dart", bands="simple").dataset)
    task = comprehension(questions=2, formats="coon,dart", bands="simple", prompts="all")
    samples = list(task.dataset)
    assert len(samples) == len(plain) * len(TEMPLATE_IDS)
    by_key = {(s.metadata["pair_id"], s.metadata["format"], s.metadata["prompt_template"]): s for s in samples}
    for s in plain:
        key = (s.metadata["pair_id"], s.metadata["format"])
        default = by_key[(*key, "default")]
        assert default.id == s.id and default.input == s.input  # the default template changes nothing
        [code] = FENCED.findall(str(s.input))
        question = str(s.input).split("Question: ", 1)[1].split("\n", 1)[0]
        for tid in TEMPLATE_IDS[1:]:
            other = by_key[(*key, tid)]
            assert other.id == f"{s.metadata['pair_id']}@{tid}-{s.metadata['format']}"
            assert code in _text(other.input) and question in _text(other.input), other.id
    system = by_key[(plain[0].metadata["pair_id"], "coon", "system")]
    assert [m.role for m in system.input] == ["system", "user"]  # type: ignore[union-attr]
    # question by question: every template and format of a question together
    pairs = [s.metadata["pair_id"] for s in samples]
    assert pairs == sorted(pairs, key=pairs.index)


def test_prompts_argument_is_validated() -> None:
    with pytest.raises(TaskArgumentError, match="-T prompts=wordy: unknown prompt template 'wordy'"):
        structure(prompts="wordy")
    task = structure(kinds="prefix_meaning", questions=2, prompts="reworded,system")
    ids = [s.metadata["prompt_template"] for s in task.dataset]
    assert set(ids) == {"reworded", "system"}
    assert "prompt_template" not in next(iter(structure(kinds="prefix_meaning", questions=1).dataset)).metadata


def test_a_fixed_published_prompt_refuses_other_templates() -> None:
    def fixed(_: BuildContext) -> list[Sample]:  # a loader path that never calls render (TOON's suite, HumanEval)
        return [Sample(id="q1-json", input="a published prompt", target="1", metadata={"format": "json"})]

    ctx = BuildContext()
    assert each_prompt(None, fixed, ctx) == fixed(ctx)
    assert [s.id for s in each_prompt("default", fixed, ctx)] == ["q1-json"]
    with pytest.raises(TaskArgumentError, match="fixed published prompt"):
        each_prompt("all", fixed, ctx)


@pytest.mark.parametrize("prompts", ["all", "system,reworded", "reworded"])
def test_a_fixed_prompt_listed_unbuilt_is_refused_at_its_first_build(prompts: str) -> None:
    """``each_prompt_pending`` refuses as ``each_prompt`` does, with its message, when the first sample of another
    template is built: before any other question is built (the task builds its draw at once, before the run)."""
    built: list[str] = []

    def pending(key: str) -> Pending:
        def build(_: BuildContext) -> Sample:
            built.append(key)
            return Sample(id=f"{key}-json", input="a published prompt", target="1", metadata={"format": "json"})
        return Pending(key, ("-", "-"), "json", build)

    def fixed(_: BuildContext | None = None) -> list[Pending]:  # never calls render
        return [pending(f"q{i}") for i in range(5)]

    ctx = BuildContext()
    with pytest.raises(TaskArgumentError, match="fixed published prompt") as eager:
        each_prompt(prompts, lambda each: [p.build(each) for p in fixed()], ctx)
    assert build_subset(each_prompt_pending(None, fixed, ctx), None) == build_subset(fixed(), None)
    default = build_subset(each_prompt_pending("default", fixed, ctx), None)
    assert [s.model_dump() for s in default] == [s.model_dump() for s in each_prompt("default", lambda each: [
        p.build(each) for p in fixed()], ctx)]
    built.clear()
    with pytest.raises(TaskArgumentError) as lazy:
        build_subset(each_prompt_pending(prompts, fixed, ctx), 2, 0)
    assert str(lazy.value) == str(eager.value)
    assert len(set(built)) == 1 and len(built) <= len(chosen_templates(prompts) or [])  # the first question only


REFERENCE = Path(__file__).resolve().parents[1].parent / "shared" / "reference"


@pytest.mark.parametrize("mode", ["tasks_file", "suite"])
def test_retrieval_modes_with_published_prompts_refuse_other_templates(mode: str) -> None:
    path = REFERENCE / ("tealeaf/tasks/synthetic.json" if mode == "tasks_file" else "toon/generated")
    if not path.exists():
        pytest.skip(f"{path} absent (the reference data beside a checkout: README.md, Reference data)")
    with pytest.raises(TaskArgumentError, match="fixed published prompt"):
        retrieval(**{mode: str(path)}, prompts="all")


def _correct_everywhere(log: Any) -> None:
    assert log.status == "success", log.error
    for sample in log.samples:
        values = [s.value for s in sample.scores.values() if isinstance(s.value, dict) and "correct" in s.value]
        assert values and all(v["correct"] == 1.0 for v in values), (sample.id, values)


def test_gold_scores_everything_under_every_template(tmp_path: Path) -> None:
    tasks = [comprehension(questions=2, bands="simple", prompts="all"),
             structure(kinds="prefix_meaning", questions=3, prompts="all"),
             generation(questions=3, bands="simple", prompts="all"),
             modification(questions=3, bands="simple", prompts="all"),
             retrieval(formats="json,toon", questions=3, prompts="all"),
             correction(problems="gcd,clamp", prompts="all")]
    logs = inspect_eval(tasks, model="mockllm/model", solver=gold(), display="none", log_dir=str(tmp_path))
    for log in logs:
        _correct_everywhere(log)
        templates = {s.metadata["prompt_template"] for s in log.samples}
        assert templates == set(TEMPLATE_IDS), log.eval.task


@pytest.mark.slow  # three small tasks under four templates (about half a minute)
def test_floors_do_not_depend_on_the_wording(tmp_path: Path) -> None:
    """The frequent, constant and no-edit baselines read the code or data and the question type, never the wording:
    under every template a question gets the same reply and the same verdict, so their floor's spread across
    templates is 0 (docs/prompts.md; the random widget is drawn per sample id, so it is drawn anew per template)."""
    from coonbench.solvers.baselines import baseline_constant, baseline_frequent, baseline_no_edit

    runs = [(structure(kinds="prefix_meaning", questions=4, prompts="all"), baseline_frequent()),
            (comprehension(questions=2, bands="simple", formats="coon,dart", prompts="all"), baseline_constant()),
            (modification(questions=2, bands="simple", formats="coon,dart", prompts="all"), baseline_no_edit())]
    for task, solver in runs:
        [log] = inspect_eval(task, model="mockllm/model", solver=solver, display="none", log_dir=str(tmp_path))
        by_question: dict[str, set[tuple[str, Any]]] = {}
        for sample in log.samples:
            question = str(sample.id)
            for template in TEMPLATE_IDS:
                question = question.replace(f"@{template}-", "-")
            [score] = sample.scores.values()
            verdict = score.value.get("correct") if isinstance(score.value, dict) else score.value
            by_question.setdefault(question, set()).add((sample.output.completion, verdict))
        assert len(by_question) >= 4 and all(len(v) == 1 for v in by_question.values()), (log.eval.task, by_question)
        assert len(log.samples) == len(TEMPLATE_IDS) * len(by_question)


# ---------------------------------------------------------------- the report, from a scripted model

FORMATS = ("json", "json-compact", "toon")
WRONG = "zzz-not-an-answer"


def _right(template: str, fmt: str, k: int) -> bool:
    """The scripted model: json always right; json-compact wrong on odd questions under ``reworded``; toon never
    right under default and system, on every fourth question under reworded, every second under question-first."""
    if fmt == "json":
        return True
    if fmt == "json-compact":
        return not (template == "reworded" and k % 2)
    return {"default": False, "system": False, "reworded": k % 4 == 0, "question-first": k % 2 == 0}[template]


@pytest.fixture(scope="module")
def scripted_logs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Any]]:
    task = retrieval(formats=",".join(FORMATS), questions=12, prompts="all")
    samples = list(task.dataset)
    order = {p: k for k, p in enumerate(dict.fromkeys(str(s.metadata["pair_id"]) for s in samples))}
    by_text = {_text(s.input): s for s in samples}
    assert len(by_text) == len(samples)

    def respond(messages, tools, tool_choice, config):  # type: ignore[no-untyped-def]
        s = by_text["\n\n".join(m.text for m in messages)]
        meta = s.metadata
        right = _right(meta["prompt_template"], meta["format"], order[meta["pair_id"]])
        return ModelOutput.from_content(model="mockllm/model", content=str(s.target) if right else WRONG)

    folder = tmp_path_factory.mktemp("prompt-logs")
    model = get_model("mockllm/model", custom_outputs=respond, memoize=False)
    [log] = inspect_eval(task, model=model, log_dir=str(folder), display="none")
    assert log.status == "success", log.error
    return folder, samples


def test_spread_and_sign_stability_match_an_independent_count(scripted_logs: tuple[Path, list[Any]]) -> None:
    folder, samples = scripted_logs
    frame, _ = load_samples([folder])
    section = prompt_section("retrieval", frame)
    assert section is not None
    tables = {t.name: t.frame for t in section.all_tables()}
    order = {p: k for k, p in enumerate(dict.fromkeys(str(s.metadata["pair_id"]) for s in samples))}
    accuracy: dict[tuple[str, str], float] = {}
    for tid, fmt in itertools.product(TEMPLATE_IDS, FORMATS):
        ks = [order[s.metadata["pair_id"]] for s in samples
              if s.metadata["prompt_template"] == tid and s.metadata["format"] == fmt]
        accuracy[(tid, fmt)] = sum(_right(tid, fmt, k) for k in ks) / len(ks)
    spread = tables["retrieval_prompt_spread"].set_index("format")
    for fmt in FORMATS:
        values = [accuracy[(tid, fmt)] for tid in TEMPLATE_IDS]
        row = spread.loc[fmt]
        assert row["templates"] == 4
        assert math.isclose(row["range"], max(values) - min(values))
        assert math.isclose(row["sd"], statistics.stdev(values), abs_tol=1e-12)
        assert math.isclose(row["mean_accuracy"], statistics.mean(values))
    stable = tables["retrieval_prompt_stability"]
    seen = set()
    for _, row in stable.iterrows():
        diffs = [accuracy[(tid, row["format_a"])] - accuracy[(tid, row["format_b"])] for tid in TEMPLATE_IDS]
        assert math.isclose(row["diff_min"], min(diffs)) and math.isclose(row["diff_max"], max(diffs))
        keeps = all(d > 0 for d in diffs) or all(d < 0 for d in diffs)
        assert bool(row["keeps_sign"]) is keeps, row["format_a"] + " vs " + row["format_b"]
        seen.add(keeps)
        decisions = set()
        for tid in TEMPLATE_IDS:  # the report's own paired comparison, run here on each template's rows
            cmp = comparisons(frame[frame["prompt_template"] == tid])
            [hit] = cmp[(cmp["format_a"] == row["format_a"]) & (cmp["format_b"] == row["format_b"])]["conclusion"]
            decisions.add(hit)
        assert bool(row["keeps_decision"]) is (len(decisions) == 1)
    assert seen == {True, False}  # the script makes one comparison flip and others hold
    assert len(stable) == 3


def test_report_shows_the_section_only_with_two_templates(scripted_logs: tuple[Path, list[Any]],
                                                          tmp_path: Path) -> None:
    folder, _ = scripted_logs
    frame, _ = load_samples([folder])
    assert any(sec.id == "retrieval_prompts" for sec in sections_for(frame))
    one = frame[frame["prompt_template"] == "default"]
    assert not any(sec.id.endswith("_prompts") for sec in sections_for(one))
    from coonbench.report import build_report

    paths = build_report([folder], tmp_path / "report")
    md = paths.markdown.read_text(encoding="utf-8")
    assert "Retrieval: prompt sensitivity" in md and "keeps its sign" in md


def test_pairs_stay_within_a_template(scripted_logs: tuple[Path, list[Any]]) -> None:
    folder, _ = scripted_logs
    frame, _ = load_samples([folder])
    assert isinstance(frame, pd.DataFrame)
    per_pair = frame.groupby("pair")["prompt_template"].nunique()
    assert (per_pair == 1).all()  # a question's formats pair within one wording
    assert frame.groupby("pair")["format"].nunique().eq(len(FORMATS)).all()
