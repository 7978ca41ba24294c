"""The Python corpus (``data/python/``): real files from the standard library and permissively licensed packages,
chosen by ``benchmarks/select_python_corpus.py``, in four bands of size and branching.

A file's band is read off two of its metrics (``coonbench.languages.python.metrics``) with fixed thresholds, so
it depends on that file alone: ``short`` up to ``SHORT_LOC`` lines of code, else ``long``; ``simple`` when its
cyclomatic number is at most ``SIMPLE_CC`` for a short file (twice that for a long one), else ``branchy`` (the
thresholds are the medians of the candidates the selection script saw, so the bands are about even).
"""

from __future__ import annotations

from coonbench.resources import DATA_DIR

CORPUS_DIR = DATA_DIR / "python"
BANDS: tuple[str, ...] = ("short-simple", "short-branchy", "long-simple", "long-branchy")
BAND_SIZES: dict[str, int] = dict.fromkeys(BANDS, 28)
SHORT_LOC = 60
SIMPLE_CC = 5


def band_of(loc: int, cyclomatic: int) -> str:
    """The band of a file with ``loc`` lines of code and cyclomatic number ``cyclomatic``."""
    short = loc <= SHORT_LOC
    simple = cyclomatic <= (SIMPLE_CC if short else 2 * SIMPLE_CC)
    return f"{'short' if short else 'long'}-{'simple' if simple else 'branchy'}"
