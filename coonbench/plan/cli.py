"""``coonbench plan``: registered on the main parser with ``register(subparsers)``; prints a plan, writes its JSON."""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from coonbench.report.load import ReportInputError
from coonbench.report.stats import ALPHA, POWER

SUBSET_HINT = ("A smaller run that stays paired: -T questions=N -T seed=S keeps N whole questions, every format of "
               "each (--limit N would give the formats different questions).")


def _num(value: float, digits: int = 0) -> str:
    return f"{value:,.{digits}f}" if math.isfinite(value) else "–"


def _points(mdd: float) -> str:
    """A detectable difference in points; beyond 100 no difference is detectable at all."""
    if not math.isfinite(mdd):
        return "nothing (too few pairs)"
    return f"{mdd * 100:.1f} points or more" if mdd < 1 else "nothing (the bound exceeds 100 points)"


def _money(value: float) -> str:
    return f"{value:,.2f}" if math.isfinite(value) else "–"


def _assumption(plan: dict[str, Any]) -> str:
    if plan["pilot"]:
        few = " A pilot of few pairs is a rough guide: each comparison says how many it had."
        return (f"discordance and clustering from the pilot {plan['pilot']} (a comparison it lacks: "
                f"{plan['assumed_discordance']:.0%} assumed, questions independent).{few}")
    epochs = " and the epochs of one question agreeing (they add cost, not pairs)" if plan["epochs"] > 1 else ""
    return (f"assumed discordance {plan['assumed_discordance']:.0%} (pairs where one format is right and the other "
            f"wrong), questions independent{epochs}; a pilot run measures both (--from LOGDIR)")


def _model_lines(plan: dict[str, Any], entry: dict[str, Any]) -> list[str]:
    from coonbench.plan.stopping import describe as stop_lines
    from coonbench.report.billing import describe as price_text

    priced = price_text(entry["price"])
    tokenizer = entry["tokenizer"] + (", standing in: none of this family ships offline" if entry.get("stand_in")
                                      else "")
    lines = [f"{entry['model']}  (tokenizer {tokenizer}; {priced}; output: {entry['output_source']})",
             f"  {'format':<22}{'samples':>9}{'input tokens':>15}{'output tokens':>15}{'USD':>10}"
             f"{'USD cached':>12}{'USD batch':>11}"]
    for r in [*entry["formats"], {"format": "total", **entry["total"]}]:
        lines.append(f"  {r['format']:<22}{_num(r['samples']):>9}{_num(r['input_tokens']):>15}"
                     f"{_num(r['output_tokens']):>15}{_money(r['usd']):>10}"
                     f"{_money(r.get('usd_cached', math.nan)):>12}{_money(r.get('usd_batch', math.nan)):>11}")
    if entry["price"]:
        lines.append("  USD cached: each format's shared prompt prefix (system prompt, primer) written to the "
                     "provider's cache once and read from it on every other call; USD batch: at batch prices "
                     "(inspect eval --batch)")
    lines.extend(_primer_lines(entry.get("primer") or []))
    if "stopping" in entry:
        lines.extend(stop_lines(entry["stopping"]))
    cmps = entry["comparisons"]
    if cmps:
        m = cmps[0]["family"]
        lines.append(f"  paired comparisons (the report's rule: Holm family of {m}, {POWER:.0%} power at "
                     f"α = {ALPHA:g}/{m}, clustered by source item):")
        for c in cmps:
            lines.append(f"    {c['format_a']} vs {c['format_b']}: {c['pairs']:,} pairs from {c['clusters']:,} "
                         f"source items, detects {_points(c['mdd'])} "
                         f"(discordance {c['discordance']:.0%} {c['source']}, design effect {c['design_effect']:.2f})")
    if "detect" in entry:
        lines.append("  " + _detect_line(entry["detect"]))
    return lines


def _primer_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The primer's tokens and break-even, with caching where the price table gives a cached-input price."""
    from coonbench.report.cost import primer_findings

    if not rows:
        return []
    import pandas as pd

    return ["  primer: " + text for text in primer_findings(pd.DataFrame(rows).fillna(math.nan))]


def _detect_line(d: dict[str, Any]) -> str:
    head = f"--detect {d['target'] * 100:g}:"
    if d["questions"] is None:
        return f"{head} no number of questions reaches it (the discordance leaves too little to detect)"
    cost = (f"{_num(d['input_tokens'])} input + {_num(d['output_tokens'])} output tokens, USD {_money(d['usd'])}")
    if d["beyond"]:
        return (f"{head} {d['questions']:,} questions needed (detecting {_points(d['mdd'])}), more than the "
                f"{d['available']:,} every format has here; at their mean cost per question: {cost}. Add questions "
                f"(-T corpus=DIR for your own code) or measure the discordance with a pilot")
    return (f"{head} {d['questions']:,} questions (of {d['available']:,}) detect {_points(d['mdd'])} in every "
            f"comparison: -T questions={d['questions']} -T seed=0, {cost}")


def render(plan: dict[str, Any]) -> str:
    """The plan as text: what runs, then per model its tokens, money and detectable differences."""
    lines = [
        f"coonbench plan: {plan['task']}, {plan['questions']:,} questions × {len(plan['formats'])} "
        f"format{'s' if len(plan['formats']) > 1 else ''} = "
        f"{plan['samples']:,} samples, {plan['epochs']} epoch{'s' if plan['epochs'] > 1 else ''}, "
        f"{plan['clusters']:,} source items",
        "input tokens: the prompts the task's solvers send (primers included), counted in each model's tokenizer",
        "power: " + _assumption(plan), "",
    ]
    for entry in plan["models"]:
        lines.extend([*_model_lines(plan, entry), ""])
    lines.append(SUBSET_HINT)
    return "\n".join(lines) + "\n"


def _models(values: list[str]) -> list[str]:
    return [m.strip() for v in values for m in v.split(",") if m.strip()]


def _detect(value: str | None) -> float | None:
    if value is None:
        return None
    points = float(value.rstrip("%"))
    if not 0 < points < 100:
        raise ValueError(f"--detect {value}: a difference in accuracy in points, between 0 and 100 (e.g. 5)")
    return points / 100


def cmd_plan(args: argparse.Namespace) -> int:
    from coonbench.cli import task_args
    from coonbench.plan.build import Settings, make_plan
    from coonbench.plan.workload import load_workloads
    from coonbench.report.cost import read_prices
    from coonbench.report.load import load_samples

    try:
        prices = read_prices(args.prices) if args.prices else None
        pilot = load_samples([args.pilot])[0] if args.pilot else None
    except ReportInputError as err:
        print(f"coonbench plan: {err}", file=sys.stderr)
        return 2
    models = _models(args.model) or ["mockllm/model"]
    settings = Settings(models, args.epochs, args.max_tokens, prices, pilot, args.pilot, _detect(args.detect))
    plan = make_plan(load_workloads(args.task, args.task_arg, models), settings, task_args(args.task_arg))
    sys.stdout.write(render(plan))
    if args.output:
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        Path(args.output).write_text(json.dumps(plan, indent=1, default=float) + "\n", encoding="utf-8")
        print(f"wrote {args.output}")
    return 0


def register(subparsers: Any) -> None:
    """Add the ``plan`` subcommand."""
    p = subparsers.add_parser("plan", help="what a run will cost (tokens, money) and what it can detect, beforehand")
    p.add_argument("task", help="a task: comprehension, coonbench/comprehension or evals/comprehension.py")
    p.add_argument("-T", dest="task_arg", action="append", default=[], help="task argument NAME=VALUE")
    p.add_argument("--model", action="append", default=[], help="a model as Inspect names it (repeat or comma-list)")
    p.add_argument("--epochs", type=int, default=1, help="epochs per sample (default 1)")
    p.add_argument("--max-tokens", type=int, help="output tokens per reply at most (expected output, unless --from)")
    p.add_argument("--prices", metavar="FILE", help="YAML/JSON {model: {input: USD/1M tokens, output: USD/1M tokens}}")
    p.add_argument("--from", dest="pilot", metavar="LOGDIR", help="a pilot run's logs: its output tokens, discordance "
                                                                  "and clustering")
    p.add_argument("--detect", metavar="POINTS", help="also: how many questions detect this accuracy difference")
    p.add_argument("-o", "--output", metavar="FILE", help="write the plan as JSON (name it coonbench-plan.json in the "
                                                          "run's log folder and the report sets it against the run)")
    p.set_defaults(fn=cmd_plan)
