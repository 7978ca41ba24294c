"""Reports, plans, imports and token counts on hostile files: published logs are the report's use case.

Every name from a log (task, model, category, format, question type, sample id) may be any text, and a log, a
plan, a price table or TOON's results may be deep, huge or foreign. Whatever they hold: nothing is written outside
the output folder, nothing crashes or hangs (each command ends in success or one error line, within a time bound),
report.html parses to no script, report.md carries no raw HTML and no CSV cell is a formula.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coonbench.report.safe import csv_cell, file_stem, md_text
from tests.hostile import FUZZ_SETTINGS, check_contract
from tests.hostile_logs import (
    HOSTILE_NAMES,
    NAME_FIELDS,
    assert_one_line_or_success,
    check_report,
    files_under,
    run_cli,
    splice,
    write_log,
)

PLAIN = {"task": "t", "model": "p/m", "category": "retrieval", "format": "toon", "question_type": "lookup",
         "sample_id": "s"}
SECONDS = 60.0  # CPU seconds one command may take on these few samples (a hang is stopped at HANG_LIMIT_S)


def _report(root: Path, logs: Path, *extra: str) -> tuple[int, str, Path]:
    """``coonbench report LOGS -o root/w/o/out`` from root/cwd, checked: writes only under -o (and nothing at all
    when it fails), one line or success, a safe report."""
    out = root / "w" / "o" / "out"
    (root / "cwd").mkdir(parents=True, exist_ok=True)
    before = files_under(root)

    def run(_: str) -> tuple[int, str, str]:
        return run_cli(["report", str(logs), "-o", str(out), *extra], root / "cwd")

    code, _, err = check_contract(run, str(logs), time_limit=SECONDS, label="coonbench report")
    new = files_under(root) - before
    outside = sorted(str(p) for p in new if out not in p.parents)
    assert not outside, f"written outside -o: {outside[:5]}"
    assert_one_line_or_success(code, err, "report")
    if code == 0:
        check_report(out)
    return code, err, out


# -- the cases, one each ------------------------------------------------------------------------------


def test_a_category_of_dot_dots_writes_nothing_outside_the_output(tmp_path: Path) -> None:
    for i, name in enumerate(["../../x", "../../../../x", "@ROOT@/escaped", "/tmp/coonbench-43b-x", "a/b"]):
        root = tmp_path / str(i)
        logs = root / "logs"
        write_log(logs, {**PLAIN, "category": name}, root)
        code, err, out = _report(root, logs)
        assert code == 0, err
        plots = sorted(p.name for p in (out / "plots").iterdir())
        assert plots and all("/" not in p and not p.startswith(".") for p in plots)
        assert not Path("/tmp/coonbench-43b-x_answer.png").exists()


@pytest.mark.parametrize("model", ["$" + "\\frac{" * 60 + "1" + "}{2}" * 60 + "$", "$\\undefinedmacro$"])
def test_mathtext_in_a_model_name_is_drawn_as_text(tmp_path: Path, model: str) -> None:
    logs = tmp_path / "logs"
    write_log(logs, {**PLAIN, "model": model, "format": "$\\undefinedmacro$"}, tmp_path)
    code, err, out = _report(tmp_path, logs)
    assert code == 0, err
    assert md_text(model) in (out / "report.md").read_text(encoding="utf-8")  # as text: \$ and \\ escaped


def test_raw_html_and_formulas_from_logs_are_neutralised(tmp_path: Path) -> None:
    names = {**PLAIN, "format": "<img src=x onerror=alert(1)>", "category": "<!--",
             "model": '=HYPERLINK("http://x","y")', "question_type": "@SUM(A1)"}
    logs = tmp_path / "logs"
    write_log(logs, names, tmp_path)
    code, err, out = _report(tmp_path, logs)
    assert code == 0, err
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "&lt;img src=x onerror=alert(1)&gt;" in md and "&lt;!--" in md
    cells = "".join(p.read_text(encoding="utf-8") for p in (out / "tables").glob("*.csv"))
    assert "'=HYPERLINK" in cells  # kept, as text (check_report: no cell starts a formula)


MAX_LOG_DEPTH = 400
"""The nesting a log may have, from the spec (docs/report.md, "Anyone's logs"), not from the code under test."""


@pytest.mark.parametrize("raw, why", [
    ("[" * 50_000 + "]" * 50_000, f"nested deeper than {MAX_LOG_DEPTH} levels"),
    ("{\"a\": " * 20_000 + "1" + "}" * 20_000, f"nested deeper than {MAX_LOG_DEPTH} levels"),  # under 1 MiB: no ratio
])
def test_a_deep_score_is_one_line_naming_the_log(tmp_path: Path, raw: str, why: str) -> None:
    logs = tmp_path / "logs"
    log = write_log(logs, PLAIN, tmp_path, raw=raw, score="@RAW@")
    code, err, _ = _report(tmp_path, logs)
    assert code == 2 and str(log) in err and why in err, err


@pytest.mark.parametrize("raw", ["1" + "0" * 400, "1e400", "-1e400", "[1, 2]", "{\"correct\": " + "9" * 400 + "}",
                                 "\"\\ud800\"", "null", "{}"])
def test_huge_or_odd_numbers_are_missing_values_not_crashes(tmp_path: Path, raw: str) -> None:
    logs = tmp_path / "logs"
    write_log(logs, PLAIN, tmp_path, raw=raw, score="@RAW@",
              metadata={"input_tokens": "@RAW@", "primer_tokens": "@RAW@", "complexity": "@RAW@", "category": "@RAW@",
                        "question_type": "@RAW@", "dataset": "@RAW@"})
    _report(tmp_path, logs)


def test_input_tokens_of_a_list_and_usage_of_10_to_the_400(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    log = write_log(logs, PLAIN, tmp_path, metadata={"input_tokens": [1, 2]})
    splice(log, '"input_tokens": 10', '"input_tokens": 1' + "0" * 400)  # the provider's usage, too
    code, err, _ = _report(tmp_path, logs)
    assert code == 0, err


def test_a_deep_plan_beside_the_logs_is_one_line_naming_it(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    write_log(logs, PLAIN, tmp_path)
    (logs / "coonbench-plan.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    code, err, _ = _report(tmp_path, logs)
    assert code == 2 and "coonbench-plan.json" in err, err
    (logs / "coonbench-plan.json").write_text(json.dumps({"coonbench_plan": 1, "models": [1, "x", None]}))
    code, err, _ = _report(tmp_path, logs)
    assert code == 2 and "coonbench-plan.json" in err, err


@pytest.mark.parametrize("content, why", [
    (b"PK\x03\x04 not really a zip", "not a zip archive"),
    (b"\x00" * 1000, "not a zip archive"),
    (b"", "not a zip archive"),
])
def test_a_foreign_eval_file_is_one_line_naming_it(tmp_path: Path, content: bytes, why: str) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "foreign.eval").write_bytes(content)
    code, err, _ = _report(tmp_path, logs)
    assert code == 2 and "foreign.eval" in err and why in err, err


def test_an_archive_without_a_header_and_a_json_that_only_looks_like_a_log(tmp_path: Path) -> None:
    import zipfile

    logs = tmp_path / "logs"
    logs.mkdir()
    with zipfile.ZipFile(logs / "empty.eval", "w") as archive:
        archive.writestr("other.json", "{}")
    code, err, _ = _report(tmp_path, logs)
    assert code == 2 and "empty.eval" in err and "header.json" in err, err
    (logs / "empty.eval").unlink()
    (logs / "fake.json").write_text('{"eval": {"version": 2}, "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    code, err, _ = _report(tmp_path, logs)
    assert code == 2 and "fake.json" in err, err
    (logs / "fake.json").write_text('{"eval": 1, "version": "x"}')
    code, err, _ = _report(tmp_path, logs)
    assert code == 2 and "fake.json" in err, err
    (logs / "fake.json").write_bytes(b'\xff\xfe{"eval": 1, "version": "x"} \xc3')
    code, err, _ = _report(tmp_path, logs)
    assert code == 2 and "fake.json" in err, err


# -- the other commands on hostile files ------------------------------------------------------------------------


def _command(root: Path, argv: list[str], name: str) -> tuple[int, str]:
    (root / "cwd").mkdir(parents=True, exist_ok=True)
    before = files_under(root)
    code, _, err = check_contract(lambda _: run_cli(argv, root / "cwd"), " ".join(argv)[:200],
                                  time_limit=SECONDS, label=f"coonbench {name}")
    outside = sorted(str(p) for p in files_under(root) - before if (root / "out") not in p.parents)
    assert not outside, f"written outside the output folder: {outside[:5]}"
    assert_one_line_or_success(code, err, name)
    return code, err


DEEP_TEXTS = {
    "deep.json": "[" * 100_000 + "]" * 100_000,
    "deep-object.json": "{\"a\": " * 30_000 + "1" + "}" * 30_000,
    "long-int.json": "{\"a\": " + "9" * 5000 + "}",
    "inf.json": "{\"a\": 1e400}",
    "surrogate.json": "{\"a\": \"\\ud800\"}",
}


@pytest.mark.parametrize("fmt", ["json", "toon", "yaml"])
def test_tokens_on_hostile_json_is_one_line(tmp_path: Path, fmt: str) -> None:
    for name, text in DEEP_TEXTS.items():
        (tmp_path / name).write_text(text, encoding="utf-8", errors="surrogatepass")
        code, err = _command(tmp_path, ["tokens", "--format", fmt, str(tmp_path / name)], "tokens")
        if name.startswith("deep"):
            assert code == 2 and name in err, err


PRICE_TEXTS = {
    "digits.yaml": "m:\n  input: " + "9" * 400 + "\n  output: 1\n",
    "long-digits.yaml": "m:\n  input: " + "9" * 5000 + "\n  output: 1\n",
    "block-deep.yaml": "".join("  " * i + "a:\n" for i in range(20_000)) + "  " * 20_000 + "1\n",
    "flow-deep.yaml": "[" * 20_000 + "]" * 20_000 + "\n",
    "dash-deep.yaml": "- " * 20_000 + "x\n",
    "inf.yaml": "m: {input: .inf, output: 1}\n",
    "list.yaml": "m: {input: [1, 2], output: 1}\n",
    "alias-bomb.yaml": "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(9)),
}


@pytest.mark.parametrize("name", sorted(PRICE_TEXTS))
def test_plan_prices_on_hostile_yaml_is_one_line(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text(PRICE_TEXTS[name], encoding="utf-8")
    code, err = _command(tmp_path, ["plan", "structure", "-T", "questions=2", "--prices", str(tmp_path / name)],
                         "plan")
    assert code == 2 and name in err, err


TOON_VALUES = ["1e400", "-1", "[1, 2]", "\"x\"", "1" + "0" * 400, "true", "{}", "1.5", "NaN"]


@pytest.mark.parametrize("value", TOON_VALUES)
def test_import_toon_on_hostile_numbers_is_one_line(tmp_path: Path, value: str) -> None:
    record = {"questionId": "q", "format": "f", "model": "m", "expected": "1", "actual": "1", "isCorrect": True}
    text = json.dumps([record])[:-2] + f', "inputTokens": {value}}}]'
    (tmp_path / "m.json").write_text(text, encoding="utf-8")
    code, err = _command(tmp_path, ["import-toon", str(tmp_path / "m.json"), "-o", str(tmp_path / "out")],
                         "import-toon")
    if value not in ("true", "1.5"):
        assert code == 2 and "m.json" in err and "inputTokens" in err, err


@pytest.mark.parametrize("name", sorted(DEEP_TEXTS))
def test_import_toon_on_deep_json_is_one_line(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text(DEEP_TEXTS[name], encoding="utf-8", errors="surrogatepass")
    code, err = _command(tmp_path, ["import-toon", str(tmp_path / name), "-o", str(tmp_path / "out")], "import-toon")
    assert code == 2 and name in err, err


# -- the seams, on any text -------------------------------------------------------------------------------------


@FUZZ_SETTINGS
@given(st.text(st.characters(exclude_categories=()), max_size=300) | st.sampled_from(HOSTILE_NAMES))
def test_file_stems_stay_in_their_folder_and_apart(name: str) -> None:
    stem = file_stem(name)
    assert stem and len(stem) <= 80 and "/" not in stem and "\\" not in stem and not stem.startswith(".")
    assert stem.isascii() and stem not in (".", "..")
    assert file_stem(name + "x") != stem


@FUZZ_SETTINGS
@given(st.text(st.characters(exclude_categories=()), max_size=300) | st.sampled_from(HOSTILE_NAMES))
def test_markdown_text_is_one_line_without_html_and_csv_cells_are_no_formulas(text: str) -> None:
    md = md_text(text)
    assert "\n" not in md and "\r" not in md and "<" not in md and ">" not in md
    cell = csv_cell(text)
    if cell != text:
        assert cell == "'" + text
    elif text.startswith(("=", "@", "\t", "\r", "\n")):
        pytest.fail(f"formula kept: {text!r}")


# -- everything at once, drawn by hypothesis --------------------------------------------------------------------

NAMES = st.one_of(st.sampled_from(HOSTILE_NAMES),
                  st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=40))


@pytest.mark.slow
@settings(FUZZ_SETTINGS, max_examples=12)
@given(st.fixed_dictionaries({field: NAMES for field in NAME_FIELDS}))
def test_report_plan_and_import_on_logs_with_hostile_names(tmp_path_factory: pytest.TempPathFactory,
                                                           names: dict[str, str]) -> None:
    root = tmp_path_factory.mktemp("hostile")
    logs = root / "logs"
    write_log(logs, names, root)
    _report(root, logs)
    _command(root, ["plan", "structure", "-T", "questions=2", "--from", str(logs)], "plan")
    records = [{"questionId": names["sample_id"], "format": names["format"], "model": names["model"],
                "expected": names["task"], "actual": names["category"], "isCorrect": True, "inputTokens": 3}]
    toon = root / "toon"
    toon.mkdir()
    (toon / "m.json").write_text(json.dumps(records), encoding="utf-8")
    questions = root / "questions.json"
    questions.write_text(json.dumps([{"id": names["sample_id"] or "q", "dataset": names["category"] or "d",
                                      "type": names["question_type"] or "t"}]), encoding="utf-8")
    code, _ = _command(root, ["import-toon", str(toon), "-o", str(root / "out" / "logs"), "--questions",
                              str(questions)], "import-toon")
    if code == 0:
        _report(root, root / "out" / "logs")
    data = root / "names.json"
    data.write_text(json.dumps({"rows": [names, names], "deep": [[[names["format"]]]]}), encoding="utf-8")
    for fmt in ("json", "toon", "yaml"):
        _command(root, ["tokens", "--format", fmt, str(data)], "tokens")


# -- the bounds themselves --------------------------------------------------------------------------------------


def test_the_time_bound_stops_a_read_that_runs_on_and_no_except_exception_swallows_it() -> None:
    import time

    from coonbench.report.bounded import ReportInputError, time_limit

    start = time.monotonic()
    with pytest.raises(ReportInputError, match="took more than"):
        with time_limit(0.3, "x.eval"):
            while True:
                try:
                    time.sleep(0.01)
                except Exception:  # noqa: BLE001 - as a library might
                    pass
    assert time.monotonic() - start < 5


def test_a_pipe_named_like_a_log_or_a_plan_is_refused_not_read(tmp_path: Path) -> None:
    import os

    from coonbench.report.bounded import ReportInputError, check_log, read_json

    os.mkfifo(tmp_path / "x.eval")
    with pytest.raises(ReportInputError, match="not a regular file"):
        check_log(tmp_path / "x.eval")
    with pytest.raises(ReportInputError, match="not a regular file"):
        read_json(tmp_path / "x.eval", "plan")


def test_json_depth_agrees_with_the_formats_positioned_check() -> None:
    import random

    from coonbench.formats._limits import json_depth_index
    from coonbench.report.bounded import json_max_depth

    rng = random.Random(43)
    for _ in range(2000):
        text = "".join(rng.choice('[]{}"\\ax') for _ in range(rng.randint(0, 40)))
        expected = next(d for d in range(60) if json_depth_index(text, d) is None)
        assert json_max_depth(text.encode()) == expected, text
    assert json_max_depth(("[" * 100_000 + "]" * 100_000).encode()) == 100_000


def test_an_error_with_a_blank_first_line_still_says_something(monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Path) -> None:
    import coonbench.cli

    def fail(args: object) -> int:
        raise ValueError("\n  \nthe reason")

    monkeypatch.setattr(coonbench.cli, "cmd_formats", fail)
    code, _, err = run_cli(["formats"], tmp_path)
    assert code == 2 and err.strip() == "coonbench: the reason"
