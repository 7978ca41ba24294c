"""The betting confidence sequence (``coonbench.tasks.anytime``) held against ``confseq``'s ``betting_cs``, the
implementation by the method's authors (Waudby-Smith & Ramdas), on the same data.

Two comparisons, because the two differ in one place by design:

- **Same bets**: ``confseq`` builds the hedged capital processes, the truncation at c/m, the grid and the running
  intersection itself, fed our predictable bets. Then the two sequences are the same construction and must agree
  at every time to the two grids' resolution: a wrong cap, threshold, hedging weight or wealth update fails here.
- **The paper's bets**: ``confseq``'s default predictable plug-in bets estimate the variance with
  Σ (x_i − μ̂_i)², μ̂_i including x_i (the paper's §5.1); ours use μ̂_{i−1}. Both are predictable, so both
  keep the level; the sequences must stay close (within 0.05 of each other at the end of 150 differences and at
  most 10% wider at any time, measured 0.017 and 8%), which bounds what the choice costs.

Why it is skipped on a clean install: ``confseq`` 0.0.11 (the newest on PyPI) ships no wheel; its source build
needs Boost headers (``libboost-dev``) and pins pybind11 2.6.2 in its build requirements, which does not compile
against Python 3.11 (``PyFrameObject`` is opaque), so it builds only without build isolation against a current
pybind11 (``pip wheel --no-build-isolation confseq`` with pybind11, scikit-build, cmake and ninja installed);
and it imports only with NumPy's ``np.float_`` alias, which NumPy 2 removed (the project needs NumPy 2). It is
therefore not in the dev extra and ``.ci/run`` does not build it; where it is installed this module runs.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from coonbench.tasks.anytime import GRID, BettingCS

ALPHA = 0.05
BREAKS = 2000  # confseq's grid on [0, 1]
CASES = [(0, (0.2, 0.6, 0.2)), (1, (0.1, 0.7, 0.2)), (2, (0.3, 0.3, 0.4)), (3, (0.05, 0.9, 0.05))]


@pytest.fixture(scope="module")
def confseq_betting():  # noqa: ANN201 - the confseq.betting module
    saved = getattr(np, "float_", None)
    np.float_ = np.float64  # confseq's annotations name NumPy 1's alias (removed in NumPy 2); set only to import
    try:
        return importlib.import_module("confseq.betting")
    except ImportError as e:
        pytest.skip(f"confseq is not installed ({e}); see this module's docstring for why and how to build it")
    finally:
        if saved is None:
            del np.float_


def _differences(seed: int, p: tuple[float, float, float]) -> np.ndarray:
    return np.random.default_rng(seed).choice([-1.0, 0.0, 1.0], size=150, p=p)


def _ours(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    cs, lows, highs = BettingCS(ALPHA), [], []
    for v in d:
        cs.update(v)
        low, high = cs.interval()
        lows.append(float(low))
        highs.append(float(high))
    return np.array(lows), np.array(highs)


def _our_bets(x: np.ndarray, m: float) -> np.ndarray:
    """Our predictable stake, written from the paper's formula with our variance estimate (see the docstring)."""
    t = np.arange(1, len(x) + 1)
    mean_before = (0.5 + np.append(0.0, np.cumsum(x)[:-1])) / t
    var_before = (0.25 + np.append(0.0, np.cumsum((x - mean_before) ** 2)[:-1])) / t
    return np.sqrt(2 * np.log(2 / ALPHA) / (var_before * t * np.log1p(t)))


def _theirs(betting, d: np.ndarray, bets=None) -> tuple[np.ndarray, np.ndarray]:  # noqa: ANN001
    low, high = betting.betting_cs((d + 1) / 2, bets, bets, alpha=ALPHA, breaks=BREAKS, running_intersection=True,
                                   convex_comb=True, theta=0.5, trunc_scale=0.75, m_trunc=True)
    return 2 * low - 1, 2 * high - 1


@pytest.mark.parametrize(("seed", "p"), CASES)
def test_with_the_same_bets_confseq_builds_the_same_sequence(confseq_betting, seed: int, p) -> None:  # noqa: ANN001
    d = _differences(seed, p)
    ours, theirs = _ours(d), _theirs(confseq_betting, d, _our_bets)
    resolution = 2 / (GRID - 1) + 2 / BREAKS + 1e-9  # one step of each grid, in the difference's units
    for mine, lib in zip(ours, theirs):
        assert np.abs(mine - lib).max() <= resolution


@pytest.mark.parametrize(("seed", "p"), CASES)
def test_against_the_papers_bets_ours_is_as_tight(confseq_betting, seed: int, p) -> None:  # noqa: ANN001
    d = _differences(seed, p)
    (low, high), (lib_low, lib_high) = _ours(d), _theirs(confseq_betting, d)
    assert abs(low[-1] - lib_low[-1]) < 0.05 and abs(high[-1] - lib_high[-1]) < 0.05
    assert ((high - low) / (lib_high - lib_low)).max() <= 1.10
    assert low[-1] <= d.mean() <= high[-1] and lib_low[-1] <= d.mean() <= lib_high[-1]
