"""Counting a full comprehension dataset in each tokenizer, against ``o200k_base`` (goal: the slowest within 2x).

The texts are what every sample of ``comprehension`` (default formats, every band and question type) shows the
model: its primer and prompt, exactly as ``sample_metadata`` counts them (checked against the o200k counts the
samples record). Each tokenizer is loaded afresh for each of ``--rounds`` passes (a fresh SentencePiece line memo
too), and a pass's CPU time is the time to count every text once; the ratio is the median pass's against
``o200k_base``'s. Loading is timed apart (once per process in a task).

    python benchmarks/tokenizer_speed.py [--rounds 5] [--encoding NAME ...] [--limit N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from coonbench.datasets.comprehension import comprehension_samples, primer_text
from coonbench.tokens import DEFAULT_ENCODING, TokenizerUnavailable, count_tokens, get_tokenizer, tokenizer_names

GOAL = 2.0


def dataset_texts(limit: int | None = None) -> list[str]:
    """The input text of every comprehension sample (primer, blank line, prompt), as ``sample_metadata`` has it."""
    samples, _ = comprehension_samples()
    texts = []
    for sample in samples[:limit]:
        meta = sample.metadata or {}
        primer = meta.get("legend") or primer_text(meta["format"])
        text = f"{primer}\n\n{sample.input}" if primer else str(sample.input)
        if count_tokens(text) != meta["input_tokens_o200k"]:
            raise RuntimeError(f"{sample.id}: the text rebuilt here is not the one the sample counted")
        texts.append(text)
    return texts


def time_passes(name: str, texts: list[str], rounds: int) -> tuple[float, list[float], int]:
    """(load seconds of the first load, CPU seconds of each pass, tokens counted)."""
    tokenizer = get_tokenizer(name)
    passes: list[float] = []
    load = 0.0
    total = 0
    for k in range(rounds):
        start = time.perf_counter()
        count = tokenizer.load()
        if k == 0:
            load = time.perf_counter() - start
        start = time.process_time()
        total = sum(count(text) for text in texts)
        passes.append(time.process_time() - start)
    return load, passes, total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="passes per tokenizer (median taken)")
    parser.add_argument("--encoding", action="append", help="a tokenizer to time (repeatable; default: all)")
    parser.add_argument("--limit", type=int, help="only the first N samples (a quick check)")
    args = parser.parse_args(argv)
    texts = dataset_texts(args.limit)
    chars = sum(len(t) for t in texts)
    print(f"comprehension dataset: {len(texts)} samples, {chars / 1e6:.2f} M characters; {args.rounds} passes each")
    names = [DEFAULT_ENCODING, *[n for n in (args.encoding or tokenizer_names()) if n != DEFAULT_ENCODING]]
    medians: dict[str, float] = {}
    print(f"{'tokenizer':12} {'load s':>7} {'count s':>8} {'MB/s':>6} {'tokens':>10} {'x o200k':>8}")
    for name in names:
        try:
            load, passes, total = time_passes(name, texts, args.rounds)
        except TokenizerUnavailable as err:
            print(f"{name:12} unavailable: {err}")
            continue
        medians[name] = statistics.median(passes)
        ratio = medians[name] / medians[DEFAULT_ENCODING]
        print(f"{name:12} {load:7.2f} {medians[name]:8.3f} {chars / 1e6 / medians[name]:6.1f} {total:10} {ratio:8.2f}")
    slowest = max(medians, key=medians.__getitem__)
    ratio = medians[slowest] / medians[DEFAULT_ENCODING]
    verdict = "met" if ratio <= GOAL else "NOT met"
    print(f"slowest: {slowest}, {ratio:.2f}x o200k_base (goal <= {GOAL:.0f}x: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
