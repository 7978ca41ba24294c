"""Writing task: seeded cases (invoice totals re-derived independently), the description read back into the data,
the schema validating the data, which formats hold which shapes (derived by round trip), the repair loop's
feedback never holding an expected value, json-structured's response schema, gold 100% and the floors at 0."""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import ModelOutput, get_model

from coonbench.answers.document import NO_DOCUMENT, PARSE_ERROR, PASS, SOURCE_FORMAT, WRONG_DATA, check_document
from coonbench.datasets.writing import (
    STRUCTURED,
    can_decode,
    expected_for,
    parse_writing_conditions,
    writing_samples,
)
from coonbench.datasets.writing.cases import SHAPES, SIZES, all_cases, make_case
from coonbench.datasets.writing.describe import describe, json_schema_of
from coonbench.evals.writing import writing
from coonbench.formats import get_format, list_formats
from coonbench.scorers.writing import score_documents
from coonbench.solvers.baselines import baseline_empty
from coonbench.solvers.gold import gold
from coonbench.solvers.writing import baseline_wrong_values
from coonbench.tasks.samples import TaskArgumentError

CASES = all_cases(list(SHAPES), list(SIZES))
LINE = re.compile(r"- ([^:]+): (.*)")


def _leaves(value: Any) -> list[Any]:
    out, stack = [], [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        else:
            out.append(v)
    return out


def _metrics(log: EvalLog) -> dict[str, float]:
    """Each score key's mean over the samples."""
    return {s.name: s.metrics["mean"].value for s in log.results.scores}  # type: ignore[union-attr]


# --- cases -------------------------------------------------------------------------------------------------------


def test_cases_are_seeded_and_stable() -> None:
    assert [c.data for c in all_cases(list(SHAPES), list(SIZES))] == [c.data for c in CASES]
    assert make_case("flat", "small", seed=1).data != make_case("flat", "small").data
    assert len({c.id for c in CASES}) == len(CASES) == len(SHAPES) * len(SIZES)
    assert make_case("flat", "small", seed=1).id == "flat-small-s1"


def test_sizes_are_what_they_say() -> None:
    for case in CASES:
        if case.shape in ("flat", "arrays", "irregular"):
            assert len(next(iter(case.data.values()))) == SIZES[case.size], case.id
    depth = {c.size: json.dumps(c.data).count("{") for c in CASES if c.shape == "config"}
    assert depth["small"] < depth["medium"] < depth["large"]


def test_no_string_reads_as_another_type() -> None:
    for case in CASES:
        for leaf in _leaves(case.data):
            if isinstance(leaf, str):
                assert leaf.strip() and leaf not in ("true", "false", "null"), (case.id, leaf)
                assert not re.fullmatch(r"-?[0-9.eE+]+", leaf), (case.id, leaf)


def test_invoice_totals_recomputed_independently() -> None:
    """Fractions and round-half-up by hand, not the generator's Decimal code."""
    def cents(x: Fraction) -> Fraction:
        return Fraction(math.floor(x * 100 + Fraction(1, 2)), 100)

    for case in (c for c in CASES if c.shape == "invoice"):
        inv = case.data["invoice"]
        lines = [cents(Fraction(str(i["unit_price"])) * i["quantity"]) for i in inv["items"]]
        assert [Fraction(str(i["line_total"])) for i in inv["items"]] == lines, case.id
        subtotal = sum(lines, Fraction(0))
        tax = cents(subtotal * Fraction(str(inv["tax_rate"])))
        assert Fraction(str(inv["subtotal"])) == subtotal and Fraction(str(inv["tax"])) == tax, case.id
        assert Fraction(str(inv["total"])) == subtotal + tax, case.id
        assert set(case.computed) == {f"$.invoice.items[{i}].line_total" for i in range(len(lines))} | {
            "$.invoice.subtotal", "$.invoice.tax", "$.invoice.total"}


# --- what the model is told --------------------------------------------------------------------------------------


def _rebuild(description: str) -> Any:
    """The data a reader of the description would write (independent of ``describe``: parses its lines)."""
    root: Any = None
    for line in description.splitlines():
        path, what = LINE.fullmatch(line).groups()  # type: ignore[union-attr]
        if what.startswith("an object") or what == "an empty object":
            value: Any = {}
        elif what.startswith("a list") or what == "an empty list":
            value = []
        elif what == "null (no value)":
            value = None
        else:
            value = json.loads(what.split(" ", 2)[2])
        if path == "(the document itself)":
            root = value
            continue
        parts = re.findall(r"\.?([A-Za-z_]\w*)|\[(\d+)\]", path)
        node = root
        for key, index in parts[:-1]:
            node = node[key] if key else node[int(index)]
        key, index = parts[-1]
        if key:
            node[key] = value
        else:
            assert int(index) == len(node)
            node.append(value)
    return root


@pytest.mark.parametrize("case", [c for c in CASES if not c.computed], ids=lambda c: c.id)
def test_description_reads_back_as_the_data(case: Any) -> None:
    rebuilt = _rebuild(describe(case.data))
    assert rebuilt == case.data and json.dumps(rebuilt) == json.dumps(case.data)  # types and order too


def test_computed_fields_are_rules_not_values() -> None:
    case = make_case("invoice", "medium")
    text = describe(case.data, case.computed)
    total = case.data["invoice"]["total"]
    assert "- invoice.total: a number, computed: subtotal plus tax" in text
    assert json.dumps(total) not in text and json.dumps(case.data["invoice"]["subtotal"]) not in text
    assert json.dumps(case.data["invoice"]["items"][0]["unit_price"]) in text


def test_the_prompts_path_example_is_a_path_of_the_data() -> None:
    """The prompt explains paths on one of the case's own (a made-up ``a.b`` was copied into documents as data)."""
    conditions, _ = parse_writing_conditions("json,yaml")
    samples, _ = writing_samples(conditions, ["description"])
    assert samples
    for sample in samples:
        text = str(sample.input)
        intro, _, rest = text.partition("\n\n")
        listed = {m.group(1) for m in re.finditer(r"^- ([^:]+):", rest, re.M)}
        named = [p for p in re.findall(r"`([^`]+)`", intro) if p != "[N]"]  # [N]: the general rule
        assert named and set(named) <= listed, (sample.id, named)
        deepest = max(named, key=len)
        assert deepest in listed and f"- {deepest}: the " in rest  # a leaf, with its value


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_schema_validates_the_data_and_rejects_a_changed_type(case: Any) -> None:
    schema = json_schema_of(case.data)
    jsonschema.validate(case.data, schema)
    text = json.dumps(schema)
    keys = set(re.findall(r'"(\w+)":', json.dumps(case.data)))  # a value may also be a key's name ("error")
    assert not [v for v in _leaves(case.data) if isinstance(v, str) and v not in keys and json.dumps(v) in text]
    broken = json.loads(json.dumps(case.data))
    first_key = next(iter(broken))
    broken[first_key] = 12345 if isinstance(broken[first_key], str) else "a string"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)


# --- which format holds which case -------------------------------------------------------------------------------


def test_csv_holds_flat_rows_only_and_says_why_not() -> None:
    csv = get_format("csv")
    flat = make_case("flat", "small")
    expected, why = expected_for(csv, flat.data)
    assert why is None and expected == flat.data["users"]  # CSV does not write the wrapping key
    for shape in ("nested", "arrays", "invoice", "config", "irregular"):
        expected, why = expected_for(csv, make_case(shape, "small").data)
        assert expected is None and why, shape


def test_lossless_formats_hold_every_case() -> None:
    for name in ("json", "toon", "yaml"):
        for case in CASES:
            expected, why = expected_for(get_format(name), case.data)
            assert why is None and expected == case.data, (name, case.id, why)


def test_conditions_all_unknown_and_code_formats() -> None:
    conditions, refused = parse_writing_conditions(None)
    labels = [c.label for c in conditions]
    decodable = [f.name for f in list_formats() if f.kind == "data" and can_decode(f)]
    assert labels == [*decodable, STRUCTURED]
    assert {s.condition for s in refused} == {f.name for f in list_formats() if f.kind == "data" and not can_decode(f)}
    with pytest.raises(TaskArgumentError, match="did you mean 'toon'"):
        parse_writing_conditions("tooon")
    with pytest.raises(TaskArgumentError, match="not a data format"):
        parse_writing_conditions("coon")
    assert [c.label for c in parse_writing_conditions("toon:noprimer,json-structured")[0]] == ["toon-noprimer",
                                                                                               STRUCTURED]


def test_samples_ids_metadata_and_skips() -> None:
    conditions, _ = parse_writing_conditions("json,csv,json-structured")
    samples, skips = writing_samples(conditions, ["description", "json"], ["flat", "nested"], ["small"])
    ids = [str(s.id) for s in samples]
    assert len(ids) == len(set(ids))
    assert "writing-flat-small-description-csv" in ids and "writing-nested-small-description-csv" not in ids
    assert "writing-flat-small-json-json" not in ids and "writing-flat-small-json-json-structured" not in ids
    assert "writing-flat-small-json-csv" in ids
    reasons = {(s.item, s.condition): s.reason for s in skips}
    assert "cannot hold this shape" in reasons[("nested-small/description", "csv")]
    assert "same format" in reasons[("flat-small/json", "json")]
    assert "same format" in reasons[("flat-small/json", STRUCTURED)]
    for s in samples:
        meta = s.metadata or {}
        assert meta["dataset"] == meta["shape"] and meta["pair_id"].startswith("writing-")
        assert ("response_schema" in meta) is (meta["format"] == STRUCTURED)
        assert meta["input_tokens"] > 0 and meta["primer_tokens"] > 0


# --- checking a document ------------------------------------------------------------------------------------------


def test_check_document_outcomes_and_feedback_hold_no_value() -> None:
    data = make_case("flat", "small").data
    assert check_document("", "toon", data).outcome == NO_DOCUMENT
    garbage = check_document("```toon\nusers[3]{id,name}:\n  1,\n```", "toon", data)
    assert garbage.outcome == PARSE_ERROR and "does not parse" in garbage.feedback
    wrong = json.loads(json.dumps(data))
    wrong["users"][1]["name"] = "Somebody Else"
    check = check_document("```json\n" + json.dumps(wrong) + "\n```", "json", data)
    assert check.outcome == WRONG_DATA and check.path == "$.users[1].name" and check.difference == "value"
    assert data["users"][1]["name"] not in check.feedback and "Somebody" not in check.feedback
    as_string = json.loads(json.dumps(data))
    as_string["users"][0]["age"] = str(as_string["users"][0]["age"])
    typed = check_document(json.dumps(as_string), "json", data)
    assert typed.difference == "type" and str(data["users"][0]["age"]) not in typed.feedback
    del as_string["users"][0]["email"]
    assert check_document(json.dumps(as_string), "json", data).difference == "missing key"
    assert check_document("```yaml\n" + get_format("yaml").encode(data) + "```", "yaml", data).outcome == PASS
    assert check_document(get_format("toon").encode(data), "toon", data).outcome == PASS  # bare, no fence


def test_the_source_copied_is_not_a_document_in_the_format_asked_for() -> None:
    data = make_case("nested", "small").data
    shown = "```json\n" + get_format("json").encode(data) + "\n```"
    assert check_document(shown, "yaml", data).outcome == PASS  # JSON is YAML: asked from a description, fine
    copied = check_document(shown, "yaml", data, source="json")
    assert copied.outcome == SOURCE_FORMAT and "json" in copied.feedback
    written = "```yaml\n" + get_format("yaml").encode(data) + "```"
    assert check_document(written, "yaml", data, source="json").outcome == PASS
    conditions, _ = parse_writing_conditions("json-compact,yaml")
    samples, skips = writing_samples(conditions, ["json"], ["nested"], ["small"])
    assert [str(s.id) for s in samples] == ["writing-nested-small-json-yaml"]
    assert "a copy would pass" in next(s.reason for s in skips if s.condition == "json-compact")


def test_score_documents_metrics() -> None:
    attempts = [{"attempt": 1, "outcome": PARSE_ERROR, "output_tokens": 10},
                {"attempt": 2, "outcome": PASS, "output_tokens": 12}]
    value = score_documents(attempts, 4, 50)
    assert value["correct"] == 1 and value["first_attempt_success"] == 0 and value["parse_success"] == 0
    assert math.isnan(value["semantic_correct"]) and value["iterations"] == 2 and value["iterations_solved"] == 2
    assert value["n_parse_error"] == 1 and value["output_tokens"] == 22 and value["correct_output_tokens"] == 22
    never = score_documents([{"attempt": 1, "outcome": WRONG_DATA, "output_tokens": 5}], 4, 50)
    assert never["iterations"] == 5 and never["semantic_correct"] == 0 and math.isnan(never["correct_output_tokens"])


# --- the task -----------------------------------------------------------------------------------------------------


def _never(*args: object, **kwargs: object) -> None:
    raise AssertionError("the task started building its samples before checking its arguments")


@pytest.mark.parametrize(("arguments", "message"), [
    ({"repair": 2}, "unknown argument; did you mean repairs"),
    ({"shapes": "invoices"}, "did you mean 'invoice'"),
    ({"sizes": "tiny"}, "unknown size 'tiny'"),
    ({"sources": "jsn"}, "did you mean 'json'"),
    ({"formats": "tooon"}, "did you mean 'toon'"),
    ({"repairs": -1}, "^-T repairs=-1"),
    ({"repairs": "three"}, "^-T repairs=three"),
    ({"seed": "x"}, "^-T seed=x"),
    ({"questions": 0}, "^-T questions=0"),
    ({"questions": "six"}, "^-T questions=six"),
])
def test_task_arguments_checked_before_anything_is_built(arguments: dict[str, Any], message: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from coonbench.tasks import build

    monkeypatch.setattr(build, "counted_for_model", _never)  # the one builder, which writing builds through
    with pytest.raises(TaskArgumentError, match=message) as info:
        writing(**arguments)
    assert "\n" not in str(info.value)


def test_gold_scores_everything_floors_score_nothing(tmp_path: Path) -> None:
    task_args: dict[str, Any] = {"sizes": "small"}
    log = inspect_eval(writing(**task_args), model="mockllm/model", solver=gold(), display="none",
                       log_dir=str(tmp_path))[0]
    assert log.status == "success" and log.samples
    formats = {s.metadata["format"] for s in log.samples}
    assert {"json", "toon", "yaml", "csv", STRUCTURED} <= formats
    assert all(s.scores["writing_scorer"].value["correct"] == 1 for s in log.samples)  # type: ignore[index]
    assert _metrics(log)["correct"] == 1 and _metrics(log)["first_attempt_success"] == 1
    for floor in (baseline_empty(), baseline_wrong_values()):
        floor_log = inspect_eval(writing(**task_args), model="mockllm/model", solver=floor, display="none",
                                 log_dir=str(tmp_path))[0]
        assert floor_log.status == "success" and _metrics(floor_log)["correct"] == 0, floor


def _received(log: EvalLog) -> list[list[Any]]:
    """Every model call's input messages (attachments resolved), per call, for each sample."""
    full = read_eval_log(log.location, resolve_attachments=True)
    return [[e.input for e in s.events if e.event == "model"] for s in full.samples or []]


def _after_request(calls: list[Any]) -> list[str]:
    """The distinct texts of every message the model received but the request (its first call's messages)."""
    request = {m.text for m in calls[0]}
    out: list[str] = []
    for call in calls:
        for m in call:
            if m.text not in request and m.text not in out and m.role != "assistant":
                out.append(m.text)
    return out


def test_repair_loop_feeds_back_the_error_then_the_difference_never_a_value(tmp_path: Path) -> None:
    case = make_case("flat", "small")
    doc = get_format("toon").encode(case.data)
    broken = doc.replace("users[3]", "users[4]", 1)  # the declared length is wrong: the decoder says where
    wrong = json.loads(json.dumps(case.data))
    wrong["users"][2]["city"] = "Atlantis"
    wrong["users"][0]["age"] += 1
    scripted = [ModelOutput.from_content("mockllm/model", f"```toon\n{broken}\n```"),
                ModelOutput.from_content("mockllm/model", f"```toon\n{get_format('toon').encode(wrong)}\n```"),
                ModelOutput.from_content("mockllm/model", f"```toon\n{doc}\n```")]
    log = inspect_eval(writing(formats="toon", shapes="flat", sizes="small", sources="description"),
                       model=get_model("mockllm/model", custom_outputs=scripted), display="none",
                       log_dir=str(tmp_path))[0]
    assert log.status == "success" and log.samples and len(log.samples) == 1
    score = log.samples[0].scores["writing_scorer"]  # type: ignore[index]
    assert score.value["correct"] == 1 and score.value["iterations"] == 3  # type: ignore[index]
    assert score.metadata["outcomes"] == [PARSE_ERROR, WRONG_DATA, PASS]  # type: ignore[index]
    calls = _received(log)[0]
    assert len(calls) == 3
    feedback = _after_request(calls)
    assert len(feedback) == 2 and "line" in feedback[0] and "$.users[0].age: wrong value" in feedback[1]
    for leaf in _leaves(case.data):  # no value the document should hold, in any message after the request
        if isinstance(leaf, str) or (isinstance(leaf, (int, float)) and not isinstance(leaf, bool) and leaf > 20):
            assert all(str(leaf) not in text for text in feedback), leaf


def test_scripted_model_corrected_at_iteration_two(tmp_path: Path) -> None:
    case = make_case("nested", "small")
    doc = get_format("yaml").encode(case.data)
    scripted = [ModelOutput.from_content("mockllm/model", "```yaml\ncompany: [unclosed\n```"),
                ModelOutput.from_content("mockllm/model", f"```yaml\n{doc}```")]
    log = inspect_eval(writing(formats="yaml", shapes="nested", sizes="small", sources="description"),
                       model=get_model("mockllm/model", custom_outputs=scripted), display="none",
                       log_dir=str(tmp_path))[0]
    value = log.samples[0].scores["writing_scorer"].value  # type: ignore[index,union-attr]
    assert value["correct"] == 1 and value["iterations"] == 2 and value["first_attempt_success"] == 0
    assert value["parse_success"] == 0 and value["n_parse_error"] == 1
    messages = _after_request(_received(log)[0])
    values = [json.dumps(v) if isinstance(v, str) else str(v) for v in _leaves(case.data)
              if isinstance(v, str) or (isinstance(v, (int, float)) and not isinstance(v, bool) and v > 20)]
    assert messages and all(value.strip('"') not in text for text in messages for value in values)


def test_structured_condition_sends_the_schema(tmp_path: Path) -> None:
    log = inspect_eval(writing(formats="json,json-structured", shapes="invoice", sizes="small",
                               sources="description", repairs=0), model="mockllm/model", display="none",
                       log_dir=str(tmp_path))[0]
    assert log.status == "success" and log.samples and len(log.samples) == 2
    for sample in log.samples:
        configs = [e.config for e in sample.events if e.event == "model"]
        structured = sample.metadata["format"] == STRUCTURED
        assert len(configs) == 1 and (configs[0].response_schema is not None) is structured
        if structured:
            schema = configs[0].response_schema.json_schema.model_dump(exclude_none=True, by_alias=True)
            jsonschema.validate(sample.metadata["data"], schema)
        assert sample.scores["writing_scorer"].value["correct"] == 0  # type: ignore[index]
