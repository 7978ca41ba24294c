"""Reuse of shared prompt prefixes in llama.cpp without changing a single answer.

Why: one task's prompts share long prefixes (the primer; the same source file under several questions), and on a
CPU evaluating the prompt is most of a sample's time. llama-cpp-python reuses the longest prefix that its cache
holds, but it then evaluates the rest of the prompt in batches that start where the prefix ended: the floating-point
path of every later token changes with the split, so a greedy answer would depend on which sample ran before it.

Here reuse is held to whole blocks of ``block`` tokens, and prompts are evaluated in batches of exactly ``block``
tokens from position 0 (``n_batch = n_ubatch = block``). A token is then always computed in the same batch, with the
same neighbours, at the same cache cells, whether its prefix was reused or evaluated fresh: completions are
byte-identical with and without reuse (``benchmarks/prefix_reuse.py`` checks it on real models). Besides what the
context holds, the key/value state of recent prefixes (cut at a block boundary) is kept in memory, up to
``max_bytes``, so that prompts of several formats interleaved in a run each find their own prefix.
"""

from __future__ import annotations

import ctypes
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

DEFAULT_BLOCK = 128
"""Tokens per evaluation batch and per reusable block: at most ``block - 1`` cached tokens are evaluated again."""
DEFAULT_MAX_BYTES = 768 * 1024 * 1024
"""Memory for saved prefix states (the 1.5B model's state is about 28 KiB a token: some 27,000 tokens)."""


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """Length of the longest common prefix of two token sequences."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


@dataclass
class PrefixStats:
    """What the cache did: prompt tokens sent, reused from a cache and evaluated, over all calls and the last."""

    sent: int = 0
    reused: int = 0
    last_sent: int = 0
    last_reused: int = 0

    @property
    def evaluated(self) -> int:
        return self.sent - self.reused


class PrefixCache:
    """Block-aligned prefix reuse for one ``llama_cpp.Llama`` (installed on it by ``install``; call under the
    model's lock, as every llama.cpp call must be)."""

    def __init__(self, llama: Any, block: int = DEFAULT_BLOCK, enabled: bool = True,
                 max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        if llama.n_batch != block:
            raise ValueError(f"the model evaluates batches of {llama.n_batch} tokens, the cache's block is {block}")
        self.llama = llama
        self.block = block
        self.enabled = enabled
        self.max_bytes = max_bytes
        self.saved: OrderedDict[tuple[int, ...], bytes] = OrderedDict()
        self.stats = PrefixStats()
        self._generate = llama.generate
        llama.generate = self._aligned_generate

    def _aligned(self, n: int) -> int:
        return n - n % self.block

    def _held(self) -> list[int]:
        return list(self.llama.input_ids[: self.llama.n_tokens])

    def _truncate(self, n: int) -> None:
        """Keep the first ``n`` tokens of the context (all of its cache after them is dropped)."""
        if n <= 0:
            self.llama.reset()
            self.llama._ctx.kv_cache_clear()
        else:
            self.llama._ctx.kv_cache_seq_rm(0, n, -1)
            self.llama.n_tokens = n
        self.llama._requires_eval = True

    def _restore(self, tokens: tuple[int, ...], state: bytes) -> None:
        """Load a saved prefix state into the (cleared) context."""
        self._truncate(0)
        buffer = (ctypes.c_uint8 * len(state)).from_buffer_copy(state)
        import llama_cpp

        if llama_cpp.llama_state_seq_set_data(self.llama._ctx.ctx, buffer, len(state), 0) == 0:
            raise RuntimeError("llama.cpp could not load a saved prefix state")
        self.llama.input_ids[: len(tokens)] = tokens
        self.llama.n_tokens = len(tokens)
        self.saved.move_to_end(tokens)

    def _save(self, tokens: list[int]) -> None:
        """Cut the context at the last block boundary before its prompt's end and keep that state."""
        n = self._aligned(len(tokens))
        if n <= 0:
            return
        key = tuple(tokens[:n])
        self._truncate(n)
        if key in self.saved:
            self.saved.move_to_end(key)
            return
        import llama_cpp

        ctx = self.llama._ctx.ctx
        size = llama_cpp.llama_state_seq_get_size(ctx, 0)
        buffer = (ctypes.c_uint8 * size)()
        written = llama_cpp.llama_state_seq_get_data(ctx, buffer, size, 0)
        self.saved[key] = bytes(buffer)[:written]
        while self.saved and sum(map(len, self.saved.values())) > self.max_bytes:
            self.saved.popitem(last=False)

    def _prepare(self, prompt: list[int]) -> int:
        """Put the longest block-aligned prefix of ``prompt`` that any cache holds in the context; its length."""
        if not self.enabled:
            self._truncate(0)
            return 0
        usable = prompt[:-1]  # at least one token is evaluated, so the model has fresh logits to sample from
        here = self._aligned(common_prefix(self._held(), usable))
        best, best_key = here, None
        for key in self.saved:
            n = self._aligned(min(len(key), common_prefix(key, usable)))
            if n > best:
                best, best_key = n, key
        if best_key is not None:
            self._restore(best_key, self.saved[best_key])
        self._truncate(best)
        return best

    def _aligned_generate(self, tokens: Sequence[int], *args: Any, **kwargs: Any) -> Iterator[int]:
        prompt = list(tokens)
        reused = self._prepare(prompt)
        self.stats.sent += len(prompt)
        self.stats.reused += reused
        self.stats.last_sent, self.stats.last_reused = len(prompt), reused
        try:
            yield from self._generate(prompt, *args, **kwargs)
        finally:
            if self.enabled:
                self._save(prompt)
