"""``coonbench plan``: its input tokens are those a real mockllm run sends, its money is tokens × prices, its
detectable differences are the report's, and the report of a planned run sets the plan against it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from inspect_ai import eval as inspect_eval
from inspect_ai.model._providers.mockllm import MockLLM
from inspect_ai.scorer import Target

from coonbench.cli import load_task, main
from coonbench.plan import power
from coonbench.plan.build import Settings, make_plan
from coonbench.plan.workload import load_workloads, question_clusters, workload
from coonbench.report import build_report, cluster, stats
from coonbench.report.load import ReportInputError
from coonbench.report.planned import PLAN_FILE, read_plan
from coonbench.resources import REPO_ROOT
from coonbench.tasks.samples import TaskArgumentError
from coonbench.tasks.subset import paired_subset
from coonbench.tokens import count_tokens, tokenizer_for_model

PRICES = REPO_ROOT / "docs" / "prices-example.yaml"
SELECTION = ["-T", "questions=5", "-T", "bands=simple"]


@pytest.fixture(scope="module")
def planned_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """A plan of a paired subset written into a log folder, and a real mockllm run of the same selection there."""
    logs = tmp_path_factory.mktemp("planned") / "logs"
    assert main(["plan", "evals/comprehension.py", *SELECTION, "--model", "mockllm/model", "--max-tokens", "16",
                 "--prices", str(PRICES), "-o", str(logs / PLAN_FILE)]) == 0
    task = load_task("comprehension", ["questions=5", "bands=simple"])
    [log] = inspect_eval(task, model="mockllm/model", max_tokens=16, log_dir=str(logs), display="none")
    assert log.status == "success"
    return logs, read_plan(logs / PLAN_FILE)


def test_input_tokens_equal_those_of_a_mockllm_run_of_the_selection(planned_run: tuple[Path, dict]) -> None:
    logs, plan = planned_run
    [log_file] = logs.glob("*.eval")
    from inspect_ai.log import read_eval_log

    log = read_eval_log(str(log_file))
    assert log.samples
    sent: dict[str, int] = {}  # what the model was actually sent, counted here; and what the samples recorded
    recorded: dict[str, int] = {}
    for s in log.samples:
        fmt = str(s.metadata["format"])
        text = "\n\n".join(m.text for m in s.messages if m.role != "assistant")
        sent[fmt] = sent.get(fmt, 0) + count_tokens(text)
        recorded[fmt] = recorded.get(fmt, 0) + int(s.metadata["input_tokens"])
    [entry] = plan["models"]
    planned = {r["format"]: r["input_tokens"] for r in entry["formats"]}
    assert planned == sent == recorded
    assert entry["total"]["input_tokens"] == sum(sent.values()) > 0
    assert entry["total"]["samples"] == len(log.samples) == 20


def test_money_is_tokens_times_the_price_table(planned_run: tuple[Path, dict]) -> None:
    price = yaml.safe_load(PRICES.read_text())["mockllm/model"]
    for r in planned_run[1]["models"][0]["formats"]:
        assert r["output_tokens"] == 16 * r["samples"]  # --max-tokens: the bound per reply
        usd = (r["input_tokens"] * price["input"] + r["output_tokens"] * price["output"]) / 1e6
        assert r["usd"] == pytest.approx(usd)


def test_the_report_of_a_planned_run_shows_planned_against_observed(planned_run: tuple[Path, dict],
                                                                    tmp_path: Path) -> None:
    logs, plan = planned_run
    paths = build_report([logs], tmp_path / "report")
    tokens = pd.read_csv(tmp_path / "report" / "tables" / "plan_tokens.csv")
    assert (tokens["planned_input_tokens"] == tokens["run_input_tokens"]).all()
    assert (tokens["planned_samples"] == tokens["run_samples"]).all()
    reply = len(MockLLM.default_output)  # mockllm reports a reply's characters as its output tokens
    assert (tokens["run_output_tokens"] == reply * tokens["run_samples"]).all()
    power_table = pd.read_csv(tmp_path / "report" / "tables" / "plan_power.csv")
    assert len(power_table) == 6 and power_table["run_mdd_points"].notna().all() and (power_table["run_pairs"] == 5).all()
    text = paths.markdown.read_text()
    assert "Planned against observed" in text
    total = plan["models"][0]["total"]["input_tokens"]
    assert f"mockllm/model: input tokens {total:,.0f} planned, {total:,.0f} recorded" in text


def test_a_pilot_run_gives_the_output_tokens_and_discordance(planned_run: tuple[Path, dict],
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    logs, _ = planned_run
    assert main(["plan", "comprehension", *SELECTION, "--model", "mockllm/model", "--from", str(logs)]) == 0
    out = capsys.readouterr().out
    assert "output: pilot mean (this model)" in out and "from the pilot" in out
    reply = len(MockLLM.default_output)
    assert f"{20 * reply:,}" in next(line for line in out.splitlines() if line.strip().startswith("total"))
    assert sum("pilot (5 pairs)" in line for line in out.splitlines()) == 6


def test_a_file_that_is_not_a_plan_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "plan.json"
    bad.write_text('{"models": []}')
    with pytest.raises(ReportInputError, match="plan.json: not a plan"):
        read_plan(bad)


def test_the_documented_plan_prints_tokens_cost_and_detectable_differences() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "coonbench.cli", "plan", "evals/comprehension.py", "--model", "openai/gpt-4o",
         "--prices", str(PRICES), "--detect", "5"],
        capture_output=True, text=True, timeout=300, cwd=REPO_ROOT,
    )
    assert out.returncode == 0, out.stderr
    task = load_task("comprehension", [])
    total = sum(int(s.metadata["input_tokens"]) for s in task.dataset)
    gold = sum(count_tokens(str(s.metadata.get("gold") or Target(s.target).text)) for s in task.dataset)
    price = yaml.safe_load(PRICES.read_text())["openai/gpt-4o"]
    usd = (total * price["input"] + gold * price["output"]) / 1e6  # output: what the gold solver would reply
    total_line = next(line for line in out.stdout.splitlines() if line.strip().startswith("total"))
    assert f"{total:,}" in total_line and f"{gold:,}" in total_line and f"{usd:,.2f}" in total_line
    assert sum(" vs " in line and "detects" in line for line in out.stdout.splitlines()) == 6
    detect = next(line for line in out.stdout.splitlines() if "--detect 5:" in line)
    assert "questions needed" in detect and "USD" in detect


def test_planned_mdd_is_the_reports_on_the_answers_it_assumes() -> None:
    n, q = 600, 0.3
    d = np.zeros(n)
    d[: int(n * q / 2)], d[int(n * q / 2): int(n * q)] = 1, -1  # a share q discordant, no difference
    report = stats.minimum_detectable_difference(d, None, stats.ALPHA / 6)
    assert power.comparison("a", "b", n, n, 1, 6, None).mdd == pytest.approx(report, rel=0.01)
    clusters = np.repeat(np.arange(n // 4), 4)  # four identical answers per source item: design effect about 4
    clustered = stats.minimum_detectable_difference(np.repeat(d[::4], 4), clusters, stats.ALPHA / 6)
    four = power.Estimate(q, 1.0, n, 1)  # a pilot whose answers agree within each source item
    assert power.comparison("a", "b", n, n // 4, 1, 6, four).mdd == pytest.approx(clustered, rel=0.05)


def _pilot(discordant_every: int, n: int = 40) -> pd.DataFrame:
    rows = []
    for i in range(n):
        right_a = 1.0
        right_b = 0.0 if i % discordant_every == 0 else 1.0
        for fmt, right in (("a", right_a), ("b", right_b)):
            rows.append({"system": "m", "model": "m", "reference": False, "pair": f"q{i}", "epoch": 1,
                         "format": fmt, "correct": right, "cluster": f"file{i // 2}"})
    return pd.DataFrame(rows)


def test_a_pilot_gives_its_discordance() -> None:
    est = power.pilot_estimates(_pilot(4), "m")[("a", "b")]
    assert est.discordance == pytest.approx(10 / 40) and est.pairs == 40
    assert power.pilot_estimates(_pilot(4).assign(reference=True, system="m [coonbench/gold]"), "m") == {}


def test_questions_needed_is_the_fewest_that_reach_the_target() -> None:
    frame = pd.DataFrame([{"format": f, "pair": f"q{i:03}", "cluster": f"c{i // 3}"}
                          for i in range(900) for f in "abc"])

    def draw(n: int) -> pd.DataFrame:
        return frame[frame["pair"] < f"q{n:03}"]

    n, mdd, beyond = power.questions_needed(draw, 900, 1, 0.10)
    assert n is not None and mdd <= 0.10 and not beyond
    assert max(c.mdd for c in power.plan_comparisons(draw(n - 1), 1)) > 0.10
    n, mdd, beyond = power.questions_needed(draw, 900, 1, 0.02)  # more than there are: extrapolated
    assert beyond and n > 900 and mdd <= 0.02
    before = power.comparison("a", "b", n - 1, round((n - 1) / 3), 1, 3, None).mdd
    assert before > 0.02


def test_detect_costs_the_very_subset_it_suggests() -> None:
    args = ["bands=simple", "formats=coon,dart"]
    work = workload(load_task("comprehension", args), "comprehension")
    plan = make_plan({"mockllm/model": work}, Settings(["mockllm/model"], max_tokens=10, detect=0.40), {})
    found = plan["models"][0]["detect"]
    assert found["questions"] is not None and found["mdd"] <= 0.40
    task = load_task("comprehension", [*args, f"questions={found['questions']}", "seed=0"])
    assert found["input_tokens"] == sum(int(s.metadata["input_tokens"]) for s in task.dataset)
    assert found["output_tokens"] == 10 * len(task.dataset)


def test_plans_count_the_primer_the_solver_inserts() -> None:
    work = workload(load_task("structure", ["primer=none,full", "questions=3"]), "structure")
    tokens = work.tokens().groupby(work.frame["format"]).sum()
    task = load_task("structure", ["primer=none,full", "questions=3"])
    recorded = pd.Series({s.id: s.metadata["input_tokens"] for s in task.dataset})
    assert tokens.sum() == recorded.sum()
    assert tokens["coon-fullprimer"] > tokens["coon-noprimer"] + 1000  # the full tables are in the system message


def test_bad_detect_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "structure", "-T", "questions=2", "--detect", "150"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--detect 150" in err[0]


def test_the_plans_subset_is_the_tasks_draw() -> None:
    task = load_task("retrieval", [])
    work = workload(task, "retrieval")
    samples = list(task.dataset)
    for n, seed in ((3, 0), (17, 5), (100, 2)):
        assert set(work.subset(n, seed)["id"]) == {str(s.id) for s in paired_subset(samples, n, seed)}
    complete = work.complete_questions()["pair"].nunique()
    with pytest.raises(TaskArgumentError, match=f"only {complete} of the"):  # csv cannot show nested data
        work.subset(complete + 1)


def test_epochs_multiply_cost_not_pairs_without_a_pilot() -> None:
    work = workload(load_task("structure", ["primer=none,short", "questions=30"]), "structure")
    one, three = (make_plan({"mockllm/model": work}, Settings(["mockllm/model"], epochs=e, max_tokens=5), {})
                  ["models"][0] for e in (1, 3))
    assert three["total"]["input_tokens"] == 3 * one["total"]["input_tokens"]
    assert three["total"]["output_tokens"] == 3 * one["total"]["output_tokens"] == 3 * 5 * 60
    [c1], [c3] = one["comparisons"], three["comparisons"]
    assert c3["pairs"] == 3 * c1["pairs"] and c3["design_effect"] == 3.0
    assert c3["mdd"] == pytest.approx(c1["mdd"], rel=0.02)  # epochs that agree add no information


def test_each_model_counts_in_its_own_tokenizer(tmp_path: Path) -> None:
    model = "mockllm/deepseek-chat"  # a DeepSeek model's name: its prompts count in DeepSeek's tokenizer
    args = ["questions=3", "bands=simple"]
    works = load_workloads("comprehension", args, [model, "mockllm/model"])
    plan = make_plan(works, Settings([model, "mockllm/model"], max_tokens=4), {})
    deepseek, o200k = plan["models"]
    assert (deepseek["tokenizer"], o200k["tokenizer"]) == (tokenizer_for_model(model), "o200k_base")
    assert deepseek["tokenizer"] == "deepseek"
    [log] = inspect_eval("coonbench/comprehension", task_args={"questions": 3, "bands": "simple"}, model=model,
                         log_dir=str(tmp_path), display="none")  # Inspect builds the task for the model
    recorded: dict[str, int] = {}
    for s in log.samples or []:
        assert s.metadata["tokenizer"] == deepseek["tokenizer"]
        recorded[s.metadata["format"]] = recorded.get(s.metadata["format"], 0) + int(s.metadata["input_tokens"])
    assert {r["format"]: r["input_tokens"] for r in deepseek["formats"]} == recorded
    assert deepseek["total"]["input_tokens"] != o200k["total"]["input_tokens"]


def _simulated_power(codes: np.ndarray, q: float, deltas: list[float], alpha: float, reps: int = 2000
                     ) -> list[float]:
    """Share of ``reps`` simulated runs in which the report's paired test rejects at ``alpha``, per true difference:
    independent pairs with discordance max(q, δ), the CR2 t test on Imbens–Kolesár df (``cluster.cr2_tests``, what
    ``stats.paired_comparison`` runs where pairs share source items; checked on a few runs here). The same random
    numbers for every δ, so the curve rises smoothly."""
    draw = np.random.default_rng(44).random((reps, codes.size))
    design = cluster.Design.of(codes)
    out = []
    for delta in deltas:
        qd = max(q, delta)
        d = (draw < (qd + delta) / 2).astype(float) - ((draw >= (qd + delta) / 2) & (draw < qd))
        _, se, _, p = cluster.cr2_tests(d, codes, design)
        for i in range(3):
            a, b = (d[i] == 1).astype(float), (d[i] == -1).astype(float)
            one = stats.paired_comparison(a, b, np.ones(a.size), np.ones(a.size), codes)
            assert one.test == stats.TEST_CLUSTERED and one.p_value == pytest.approx(p[i])
        out.append(float(np.mean(p < alpha)))
    return out


@pytest.mark.slow  # builds the comprehension task twice and simulates 10,000 runs: about 30 s
@pytest.mark.parametrize("questions", [40, None])
def test_planned_detectable_difference_matches_a_monte_carlo_of_the_reports_test(questions: int | None) -> None:
    """40 comprehension questions (the task's own paired subset) and all of them: the plan's detectable difference
    is within 10% of the difference at which a simulation of the report's test reaches 80% power."""
    args = [] if questions is None else [f"questions={questions}", "seed=0"]
    frame = question_clusters(load_task("comprehension", args))
    planned = power.plan_comparisons(frame, 1)
    first = planned[0]
    assert first.clusters < first.pairs and len({c.mdd for c in planned}) == 1  # every pair on the same questions
    codes = cluster.codes_of(frame.drop_duplicates("pair")["cluster"])
    assert codes.size == first.pairs == (questions or 663)
    grid = [first.mdd * f for f in (0.8, 0.9, 1.0, 1.1, 1.2)]
    rates = _simulated_power(codes, power.ASSUMED_DISCORDANCE, grid, stats.ALPHA / first.family)
    assert rates[0] < 0.8 < rates[-1]
    simulated = float(np.interp(0.8, rates, grid))
    assert first.mdd == pytest.approx(simulated, rel=0.10), (first.mdd, simulated, rates)


def test_plan_takes_an_absolute_task_path(capsys: pytest.CaptureFixture[str]) -> None:
    path = (REPO_ROOT / "evals" / "structure.py").resolve()
    assert path.is_absolute()
    assert main(["plan", str(path), "-T", "questions=2"]) == 0
    absolute = capsys.readouterr().out
    assert main(["plan", "evals/structure.py", "-T", "questions=2"]) == 0
    assert capsys.readouterr().out == absolute and "coonbench plan: structure" in absolute


@pytest.mark.parametrize(("task", "args"), [
    ("writing", ["questions=3", "sources=description,json", "formats=toon,yaml"]),
    ("generation", ["questions=5", "seed=3"]),
    ("modification", ["questions=4"]),
    ("structure", ["questions=7", "seed=1"]),
])
def test_the_plan_counts_the_samples_the_task_builds(task: str, args: list[str]) -> None:
    """Whatever a loader's draw reads (a writing case across its sources, a generation pair), the plan of
    ``-T questions=N`` counts exactly the samples the task builds with it."""
    [work] = load_workloads(task, args, ["mockllm/model"]).values()
    built = {str(s.id) for s in load_task(task, args).dataset}
    assert set(work.frame["id"]) == built
    assert len(work.pool) > len(work.frame)  # --detect still sees beyond the subset
