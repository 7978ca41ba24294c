"""Anytime-valid confidence sequences for a mean paired difference in [-1, 1], valid under continuous monitoring.

The hedged betting confidence sequence of Waudby-Smith & Ramdas (2023, "Estimating means of bounded random
variables by betting", JRSS-B, Theorem 3 with the predictable plug-in bets of their §5.1): differences d in [-1, 1]
are mapped to x = (d + 1) / 2 in [0, 1]; for each candidate mean m on a grid two gamblers bet that the mean is above
and below m with the predictable stake

    λ_t = √(2 log(2/α) / (σ̂²_{t−1} · t · log(1 + t)))

truncated to c/m (betting up) and c/(1 − m) (betting down), c = ¾, and their average wealth K_t(m) is a nonnegative
martingale when m is the true mean (observations independent with a common mean, or any sequence whose conditional
mean given the past is m). Ville's inequality bounds the chance that it ever reaches 1/α by α, so the set of m
whose wealth has never reached 1/α covers the mean at every time at once: a run may look after every observation
and stop whenever it likes. The interval is that set's hull, widened by one grid step so that grid rounding never
narrows it; it only shrinks (a running intersection).

Everything works on a leading batch of independent sequences as well (simulation: coverage, expected stopping).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

GRID = 801  # candidate means on [-1, 1]: a step of 0.0025 in the difference
BET_CAP = 0.75  # c: a gambler betting on m stakes at most c/m (up) or c/(1 − m) (down) of its wealth
METHOD = ("hedged betting confidence sequence (Waudby-Smith & Ramdas 2023), anytime-valid: holds at every "
          "look at once, so stopping once decided keeps its level")



@dataclass
class BettingCS:
    """A confidence sequence at level 1 − ``alpha`` for the mean of differences in [-1, 1], over ``batch``
    independent sequences (shape ``batch``; ``()`` for one)."""

    alpha: float
    batch: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not 0 < self.alpha < 1:
            raise ValueError(f"alpha must lie in (0, 1), got {self.alpha}")
        grid = np.linspace(0.0, 1.0, GRID)
        self.m = grid[1:-1]  # the mean of x: its ends are never rejected by betting and stay as bounds
        shape = (*self.batch, self.m.size)
        self.log_up = np.zeros(shape)
        self.log_down = np.zeros(shape)
        self.alive = np.ones(shape, dtype=bool)
        self.t = np.zeros(self.batch)
        self.sum_x = np.zeros(self.batch)
        self.sum_sq = np.zeros(self.batch)  # Σ (x_i − μ̂_{i−1})², the predictable variance's numerator
        self.threshold = math.log(1 / self.alpha)

    def update(self, d: float | np.ndarray, active: np.ndarray | bool = True) -> None:
        """Observe one difference per sequence (``active`` False: that sequence observes nothing now)."""
        x = (np.clip(np.asarray(d, dtype=float), -1.0, 1.0) + 1.0) / 2.0
        on = np.broadcast_to(np.asarray(active, dtype=bool), self.t.shape)
        t = self.t + 1
        mean_before = (0.5 + self.sum_x) / t  # μ̂_{t−1} (with the prior point ½)
        var_before = (0.25 + self.sum_sq) / t  # σ̂²_{t−1}
        lam = np.sqrt(2 * math.log(2 / self.alpha) / (var_before * t * np.log1p(t)))
        lam = lam[..., None]
        up = np.minimum(lam, BET_CAP / self.m)
        down = np.minimum(lam, BET_CAP / (1 - self.m))
        step = x[..., None] - self.m
        log_up = self.log_up + np.log1p(up * step)
        log_down = self.log_down + np.log1p(-down * step)
        wealth = np.logaddexp(log_up, log_down) - math.log(2)  # log of (K⁺ + K⁻) / 2
        mask = on[..., None]
        self.log_up = np.where(mask, log_up, self.log_up)
        self.log_down = np.where(mask, log_down, self.log_down)
        self.alive &= ~(mask & (wealth >= self.threshold))
        self.sum_sq = np.where(on, self.sum_sq + (x - mean_before) ** 2, self.sum_sq)
        self.sum_x = np.where(on, self.sum_x + x, self.sum_x)
        self.t = np.where(on, t, self.t)

    def interval(self) -> tuple[np.ndarray, np.ndarray]:
        """(low, high) of the mean difference, per sequence: the hull of the candidates never rejected, one grid
        step wider on each side (within [-1, 1])."""
        step = self.m[1] - self.m[0]
        any_alive = self.alive.any(axis=-1)
        first = np.argmax(self.alive, axis=-1)
        last = self.m.size - 1 - np.argmax(self.alive[..., ::-1], axis=-1)
        low_x = np.where(any_alive, self.m[first] - step, np.nan)
        high_x = np.where(any_alive, self.m[last] + step, np.nan)
        low = np.clip(2 * low_x - 1, -1.0, 1.0)
        high = np.clip(2 * high_x - 1, -1.0, 1.0)
        return low, high

    def estimate(self) -> np.ndarray:
        """The running mean difference (NaN before any observation)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.t > 0, 2 * self.sum_x / np.maximum(self.t, 1) - 1, np.nan)


def decide(low: np.ndarray, high: np.ndarray, margin: float) -> np.ndarray:
    """Per interval: "differ" when it excludes 0, "equivalent" when it lies inside (−margin, margin), else ""."""
    low, high = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
    differ = (low > 0) | (high < 0)
    equivalent = (low > -margin) & (high < margin) & ~differ
    return np.where(differ, "differ", np.where(equivalent, "equivalent", ""))
