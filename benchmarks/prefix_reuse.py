"""Prefix reuse on the embedded models: prompt tokens sent, prompt tokens evaluated, samples per minute, and whether
every completion is byte-identical with the reuse on and off.

Why: one task's prompts share long prefixes (the primer, the same source under several questions), and on a CPU
evaluating the prompt is most of a sample's time. ``coonbench.providers.prefix_cache`` reuses them block-aligned,
which must not change one answer. This runs the same paired subset of a task twice through Inspect (greedy,
temperature 0, same seed), once with ``-M prefix_cache=false`` and once with it on, and compares.

    python benchmarks/prefix_reuse.py --model qwen2.5-coder-0.5b --task comprehension --questions 5
    python benchmarks/prefix_reuse.py --model smollm2 --task structure --questions 8

Goal (issue 42): evaluated ≤ 0.5 × sent on comprehension and structure, completions identical.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from typing import Any

from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model

from coonbench.evals.comprehension import comprehension
from coonbench.evals.structure import structure

TASKS = {"comprehension": comprehension, "structure": structure}


def run_once(task_name: str, model_name: str, questions: int, reuse: bool, max_tokens: int,
             args: dict[str, Any]) -> tuple[dict[str, str], int, int, float]:
    """One Inspect run: completions by sample id, prompt tokens sent and read from the cache, wall seconds."""
    model = get_model(f"gguf/{model_name}", prefix_cache=reuse, memoize=False)
    task = TASKS[task_name](questions=questions, **args)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as logs:  # the log's samples are read while its file exists
        log = inspect_eval(task, model=model, log_dir=logs, display="none", max_tokens=max_tokens, temperature=0.0,
                           seed=0)[0]
        wall = time.perf_counter() - start
        if log.status != "success" or not log.samples:
            sys.exit(f"the {'reused' if reuse else 'fresh'} run did not succeed: {log.status} {log.error}")
        completions = {str(s.id): s.output.completion for s in log.samples}
        reused = sum(u.input_tokens_cache_read or 0 for s in log.samples for u in s.model_usage.values())
        sent = reused + sum(u.input_tokens for s in log.samples for u in s.model_usage.values())
    return completions, sent, reused, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="qwen2.5-coder-0.5b", help="an embedded gguf/ model name")
    parser.add_argument("--task", choices=sorted(TASKS), default="comprehension")
    parser.add_argument("--questions", type=int, default=5, help="whole questions (every format of each)")
    parser.add_argument("--bands", default=None, help="comprehension only: simple, medium, complex")
    parser.add_argument("--max-tokens", type=int, default=64)
    args = parser.parse_args()
    extra = {"bands": args.bands} if args.bands and args.task == "comprehension" else {}

    fresh, sent_fresh, reused_fresh, wall_fresh = run_once(args.task, args.model, args.questions, False,
                                                            args.max_tokens, extra)
    cached, sent, reused, wall = run_once(args.task, args.model, args.questions, True, args.max_tokens, extra)
    same = sum(fresh[k] == cached.get(k) for k in fresh)
    n = len(fresh)
    print(f"model gguf/{args.model}, task {args.task}, {n} samples ({args.questions} questions), max_tokens "
          f"{args.max_tokens}")
    print(f"reuse off: sent {sent_fresh:,} prompt tokens, evaluated {sent_fresh - reused_fresh:,}, "
          f"{n / wall_fresh * 60:.1f} samples/min ({wall_fresh:.0f} s)")
    print(f"reuse on:  sent {sent:,} prompt tokens, evaluated {sent - reused:,} "
          f"({(sent - reused) / max(sent, 1):.2f} × sent), {n / wall * 60:.1f} samples/min ({wall:.0f} s)")
    print(f"speed-up {wall_fresh / wall:.2f}×; completions identical: {same} of {n}")
    if same != n or sent != sent_fresh:
        sys.exit("the reuse changed an answer or the prompts")


if __name__ == "__main__":
    main()
