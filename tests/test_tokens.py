"""Offline tiktoken: counts equal tiktoken's own, and mockllm works without network."""

from __future__ import annotations

import hashlib
from pathlib import Path
import os
import subprocess
import sys

import pytest
import tiktoken

from coonbench.tokens import ENCODINGS, count_tokens, get_encoding, tiktoken_cache_dir

# Published counts: OpenAI's cookbook ("How to count tokens with tiktoken") gives 6 for this string in
# cl100k_base; "hello world" is 2 tokens in both encodings.
KNOWN = [
    ("o200k_base", "hello world", 2),
    ("cl100k_base", "hello world", 2),
    ("cl100k_base", "tiktoken is great!", 6),
]


@pytest.mark.parametrize(("encoding", "text", "expected"), KNOWN)
def test_known_counts(encoding: str, text: str, expected: int) -> None:
    assert count_tokens(text, encoding) == expected


def test_counts_published_by_the_anchors() -> None:
    """o200k counts measured by TOON (gpt-tokenizer) and COON upstream, reproduced exactly."""
    import json

    from tests.conftest import reference_path

    toon = reference_path("toon", "generated")
    primers = json.loads((toon / "formats.json").read_text())
    encoded = json.loads((toon / "encoded.json").read_text())
    counts = json.loads((toon / "token-counts.json").read_text())
    checked = 0
    for dataset, per_format in counts.items():
        for fmt, expected in per_format.items():
            text = primers[fmt]["primer"] + "\n\n" + encoded[dataset][fmt]
            assert count_tokens(text) == expected, (dataset, fmt)
            checked += 1
    assert checked >= 60
    # COON's real-code analysis: the Instagram clone, measured with CRLF line endings, is 24,962 o200k tokens.
    app = reference_path("coon", "benchmarks", "observation-testing", "instagram-clone", "input", "flutter-context.txt")
    assert count_tokens(app.read_text().replace("\n", "\r\n")) == 24962


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_same_as_tiktoken(encoding: str) -> None:
    text = "The quick brown fox — naïve café 🚀 <|endoftext|> \n\t 12345"
    get_encoding(encoding)
    assert count_tokens(text, encoding) == len(tiktoken.get_encoding(encoding).encode(text, disallowed_special=()))


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_cache_file_has_tiktokens_hash(encoding: str) -> None:
    url, sha = ENCODINGS[encoding]
    get_encoding(encoding)
    path = os.path.join(tiktoken_cache_dir(), hashlib.sha1(url.encode()).hexdigest())
    with open(path, "rb") as fh:
        assert hashlib.sha256(fh.read()).hexdigest() == sha


def test_unknown_encoding() -> None:
    with pytest.raises(ValueError, match="unknown encoding"):
        count_tokens("x", "p50k_base")


def test_fresh_cache_dir_is_filled_offline(tmp_path) -> None:
    """A brand-new cache directory: importing coonbench leaves it empty (tests/test_import_side_effects.py), a
    task or command fills it (``install_offline_encodings``), and tiktoken then loads without network."""
    env = {**os.environ, "TIKTOKEN_CACHE_DIR": str(tmp_path)}
    code = (
        "import os, socket\n"
        "def no_net(*a, **k): raise OSError('network disabled in test')\n"
        "socket.socket.connect = no_net\n"
        "import coonbench, tiktoken\n"
        "assert os.listdir(os.environ['TIKTOKEN_CACHE_DIR']) == []\n"
        "from coonbench.tokens import install_offline_encodings\n"
        "install_offline_encodings()\n"
        "print(len(tiktoken.get_encoding('o200k_base').encode('hello world')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "2"
    assert len(list(tmp_path.iterdir())) == len(ENCODINGS)


def test_long_ordinary_text_counts_exactly() -> None:
    """Past DIRECT_LIMIT, text without degenerate runs is counted exactly as tiktoken counts it."""
    from coonbench.tokens import DIRECT_LIMIT, get_encoding

    text = (Path(__file__).resolve().parent.parent / "data" / "dart" / "complex" / "071_shop_app.dart").read_text()
    text = text * (DIRECT_LIMIT // len(text) + 2)
    assert len(text) > DIRECT_LIMIT
    assert count_tokens(text) == len(get_encoding().encode(text, disallowed_special=()))


def test_degenerate_runs_are_counted_in_linear_time() -> None:
    """5 MB of one letter takes raw tiktoken over 20 s (BPE is quadratic in one pre-token); count_tokens bounds it."""
    from tests.hostile import check_contract

    for text in ("x" * 5_000_000, "{" * 5_000_000, "ab" * 2_500_000):
        n = check_contract(count_tokens, text, label="count_tokens")
        assert 0 < n < len(text)
