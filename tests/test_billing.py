"""Cost as billed: cache reads and writes at their prices, ``--batch`` runs at batch prices, old price files still
read, the primer's break-even with caching, and ``coonbench plan --prices`` showing cached and batch money."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
import yaml
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import match

from coonbench.cli import main
from coonbench.report import billing, build_report
from coonbench.report.cost import cached_break_even, read_prices, usd
from coonbench.report.load import ReportInputError, load_samples
from coonbench.resources import REPO_ROOT

PRICES = REPO_ROOT / "docs" / "prices-example.yaml"
PRICE = {"input": 2.0, "cached_input": 0.5, "cache_write": 2.5, "output": 8.0, "batch_input": 1.0, "batch_output": 4.0}


def _write(path: Path, table: dict) -> Path:
    path.write_text(yaml.safe_dump(table), encoding="utf-8")
    return path


def test_old_price_files_stay_readable_and_bill_every_input_at_the_full_rate(tmp_path: Path) -> None:
    prices = read_prices(_write(tmp_path / "p.yaml", {"m": {"input": 1.0, "output": 4.0}}))
    assert prices == {"m": {"input": 1.0, "output": 4.0}}
    assert billing.rates(prices["m"], batch=True) == billing.rates(prices["m"]) == {
        "input": 1.0, "cache_read": 1.0, "cache_write": 1.0, "output": 4.0}
    assert read_prices(PRICES)["openai/gpt-4o"]["cached_input"] < read_prices(PRICES)["openai/gpt-4o"]["input"]


@pytest.mark.parametrize("entry,message", [
    ({"input": 1.0}, "needs 'input' and 'output'"),
    ({"input": 1.0, "output": 2.0, "cached": 0.5}, "unknown price key 'cached'"),
    ({"input": 1.0, "output": 2.0, "batch_input": "half"}, "'batch_input' must be a number"),
    ({"input": -1.0, "output": 2.0}, "'input' must be a number"),
])
def test_a_bad_price_entry_is_refused_naming_the_file_entry_and_key(tmp_path: Path, entry: dict, message: str) -> None:
    path = _write(tmp_path / "p.yaml", {"my/model": entry})
    with pytest.raises(ReportInputError, match=f"{path}.*entry 'my/model'.*{message}"):
        read_prices(path)


def test_usd_bills_cache_reads_writes_and_batch_runs_at_their_prices() -> None:
    frame = pd.DataFrame({
        "model": ["m", "m", "m"], "usage_input_tokens": [1000.0, 1000.0, 1000.0], "input_tokens": [1.0, 1.0, 1.0],
        "usage_output_tokens": [100.0, 100.0, 100.0], "usage_cache_read_tokens": [0.0, 600.0, 600.0],
        "usage_cache_write_tokens": [0.0, 200.0, 200.0], "batch": [False, False, True],
    })
    got = usd(frame, {"m": PRICE}).tolist()
    plain = (1000 * 2.0 + 100 * 8.0) / 1e6
    cached = (200 * 2.0 + 600 * 0.5 + 200 * 2.5 + 100 * 8.0) / 1e6
    batch = (200 * 1.0 + 600 * 0.25 + 200 * 1.25 + 100 * 4.0) / 1e6  # cache prices × the batch discount ½
    assert got == pytest.approx([plain, cached, batch])
    assert usd(frame, {"m": PRICE}, uncached=True, batch=False).tolist() == pytest.approx([plain] * 3)
    assert math.isnan(usd(frame, {"other": PRICE}).iloc[0])


def test_prefix_caching_before_a_run_writes_once_and_reads_the_rest() -> None:
    # 10 calls of 1,000 input tokens each opening with the same 400: one write, nine reads
    got = billing.prompt_usd(10_000, 500, PRICE, prefix=400, calls=10)
    assert got == pytest.approx((6_000 * 2.0 + 400 * 2.5 + 3_600 * 0.5 + 500 * 8.0) / 1e6)
    assert billing.prompt_usd(10_000, 500, PRICE) == pytest.approx((10_000 * 2.0 + 500 * 8.0) / 1e6)
    assert billing.prompt_usd(10_000, 500, PRICE, batch=True) == pytest.approx((10_000 * 1.0 + 500 * 4.0) / 1e6)
    assert math.isnan(billing.prompt_usd(1, 1, None))


def test_break_even_with_caching_scales_the_primer_by_the_cached_share() -> None:
    primer = pd.DataFrame([{"category": "c", "format": "coon", "primer_tokens": 300.0, "compression_ratio": 0.6,
                            "break_even_baseline_tokens": 300.0 / 0.4}])
    samples = pd.DataFrame({"category": ["c"], "model": ["m"]})
    out = cached_break_even(primer, samples, {"m": PRICE})
    assert out["break_even_cached_baseline_tokens"].iloc[0] == pytest.approx(0.25 * 300.0 / 0.4)
    assert "break_even_cached_baseline_tokens" not in cached_break_even(primer, samples, {"m": {"input": 1.0,
                                                                                               "output": 1.0}})


def _cached_task() -> Task:
    return Task(dataset=[Sample(id=f"q{i}", input=f"question {i}", target="yes", metadata={"format": "json"})
                         for i in range(3)], scorer=match())


@pytest.mark.slow  # a mockllm run and its report: 5-15 s
def test_a_run_records_cache_tokens_and_batch_and_the_report_bills_them(tmp_path: Path) -> None:
    usage = ModelUsage(input_tokens=100, output_tokens=10, total_tokens=1110, input_tokens_cache_read=900,
                       input_tokens_cache_write=100)
    outputs = []
    for _ in range(3):
        o = ModelOutput.from_content(model="mockllm", content="yes")
        o.usage = usage
        outputs.append(o)
    logs = tmp_path / "logs"
    inspect_eval(_cached_task(), model=get_model("mockllm/model", custom_outputs=outputs), log_dir=str(logs),
                 display="none", batch=True)
    samples, _ = load_samples([logs])
    assert samples["usage_input_tokens"].tolist() == [1100.0] * 3  # every input token: full rate + cache
    assert samples["usage_cache_read_tokens"].tolist() == [900.0] * 3
    assert samples["usage_cache_write_tokens"].tolist() == [100.0] * 3
    assert samples["batch"].all()
    prices = _write(tmp_path / "p.yaml", {"mockllm/model": PRICE})
    paths = build_report([str(logs)], tmp_path / "out", prices=prices)
    cost = pd.read_csv(tmp_path / "out" / "tables" / "cost_tokens.csv")
    billed = 3 * (100 * 1.0 + 900 * 0.25 + 100 * 1.25 + 10 * 4.0) / 1e6
    assert cost["usd_total"].iloc[0] == pytest.approx(billed)
    assert cost["usd_uncached_standard"].iloc[0] == pytest.approx(3 * (1100 * 2.0 + 10 * 8.0) / 1e6)
    assert "a --batch run, priced at batch prices" in paths.markdown.read_text(encoding="utf-8")


@pytest.mark.slow  # plans the comprehension task: 10-20 s on a loaded machine
def test_plan_prices_show_cached_and_batch_money(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "plan.json"
    assert main(["plan", "evals/comprehension.py", "-T", "questions=4", "-T", "formats=coon,coon-noprimer,dart",
                 "--model", "openai/gpt-4o", "--max-tokens", "16", "--prices", str(PRICES), "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "USD cached" in text and "USD batch" in text and "cached input 1.25" in text
    import json

    entry = json.loads(out.read_text())["models"][0]
    price = read_prices(PRICES)["openai/gpt-4o"]
    for r in entry["formats"]:
        assert r["usd_batch"] == pytest.approx((r["input_tokens"] * price["batch_input"]
                                                + r["output_tokens"] * price["batch_output"]) / 1e6)
        assert r["cacheable_prefix_tokens"] > 0 and r["usd_cached"] < r["usd"]
    [primer] = [p for p in entry["primer"] if p["format"] == "coon"]
    assert primer["break_even_cached_baseline_tokens"] == pytest.approx(
        0.5 * primer["break_even_baseline_tokens"])
    assert "read from the provider's prompt cache" in text
