"""Anytime-valid confidence sequences for a mean paired difference in [-1, 1], valid under continuous monitoring.

The hedged betting confidence sequence of Waudby-Smith & Ramdas (2023, "Estimating means of bounded random
variables by betting", JRSS-B, Theorem 3 with the predictable plug-in bets of their §5.1): differences d in [-1, 1]
are mapped to x = (d + 1) / 2 in [0, 1]; for each candidate mean m on a grid two gamblers bet that the mean is above
and below m with the predictable stake

    λ_t = √(2 log(2/α) / (σ̂²_{t−1} · t · log(1 + t)))

truncated to c/m (betting up) and c/(1 − m) (betting down), c = ¾ (σ̂² sums (x_i − μ̂_{i−1})² where the paper's
sums (x_i − μ̂_i)²: both are predictable, so the level holds; ``tests/test_anytime_confseq.py`` holds both against
``confseq``), and their average wealth K_t(m) is a nonnegative
martingale when m is the true mean (observations independent with a common mean, or any sequence whose conditional
mean given the past is m). Ville's inequality bounds the chance that it ever reaches 1/α by α, so the set of m
whose wealth has never reached 1/α covers the mean at every time at once: a run may look after every observation
and stop whenever it likes. The interval is that set's hull, widened by one grid step so that grid rounding never
narrows it; it only shrinks (a running intersection).

``BettingCS.decidable`` asks whether the observations left could still decide a sequence (the stopping rule's
futility), by replaying them as the most favourable constant continuations. Everything works on a leading batch
of independent sequences as well (simulation: coverage, expected stopping).
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
        on = np.broadcast_to(np.asarray(active, dtype=bool), self.t.shape)
        state = _advance(self._state(), self.m, self.threshold, self.alpha, np.asarray(d, dtype=float))
        for name, new in zip(STATE, state):
            old = getattr(self, name)
            mask = on[..., None] if new.ndim > on.ndim else on
            setattr(self, name, np.where(mask, new, old))

    def _state(self) -> tuple[np.ndarray, ...]:
        return tuple(getattr(self, name) for name in STATE)

    def interval(self) -> tuple[np.ndarray, np.ndarray]:
        """(low, high) of the mean difference, per sequence: the hull of the candidates never rejected, one grid
        step wider on each side (within [-1, 1])."""
        return _hull(self.alive, self.m)

    def decidable(self, remaining: int, margin: float) -> tuple[np.ndarray, np.ndarray]:
        """Per sequence: whether ``remaining`` more observations could still decide it (``decide``), and in how
        few of them (0: decided already; ``remaining + 1``: not at all).

        Tried continuations, each the same for every remaining observation: the high and the low end of the
        current interval (a difference as large, either way, as the observations so far still allow: ±1 before
        the first), and no difference (0, the nearest point of the interval to it: the fastest way to show
        equivalence). A sequence none of them decides is taken as undecidable within the budget: the rule's
        futility. It claims nothing about the difference, so stopping for it cannot make a decision wrong.
        """
        low, high = self.interval()
        steps = np.where(decide(low, high, margin) != "", 0, remaining + 1).astype(int).reshape(-1)
        todo = np.flatnonzero(steps > 0)
        if todo.size == 0 or remaining < 1:
            return steps.reshape(self.t.shape) == 0, steps.reshape(self.t.shape)
        low, high = low.reshape(-1)[todo], high.reshape(-1)[todo]
        tries = np.stack([high, low, np.clip(0.0, low, high)], axis=1)  # per open sequence: CONTINUATIONS
        # each open sequence × each continuation: a row of the state
        state = tuple(np.repeat(a.reshape(-1, *a.shape[len(self.batch):])[todo], tries.shape[1], axis=0)
                      for a in self._state())
        x_of = tries.reshape(-1)
        owner = np.repeat(todo, tries.shape[1])
        # only candidates still alive in some row can shape an interval: the others stay rejected
        alive = np.asarray(state[2].any(axis=0))
        first, last = int(np.argmax(alive)), int(alive.size - 1 - np.argmax(alive[::-1]))
        first, last = max(0, min(first, last - 1)), min(alive.size - 1, max(last, first + 1))
        m = self.m[first:last + 1]
        state = tuple(a[:, first:last + 1] if a.ndim == 2 else a for a in state)
        for step in range(1, remaining + 1):
            state = _advance(state, m, self.threshold, self.alpha, x_of)
            low, high = _hull(state[2], m)
            done = decide(low, high, margin) != ""
            steps[owner[done]] = np.minimum(steps[owner[done]], step)
            keep = steps[owner] > step  # rows whose sequence no continuation has decided yet
            if not keep.any():
                break
            state, x_of, owner = tuple(a[keep] for a in state), x_of[keep], owner[keep]
        shaped = steps.reshape(self.t.shape)
        return shaped <= remaining, shaped

    def estimate(self) -> np.ndarray:
        """The running mean difference (NaN before any observation)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.t > 0, 2 * self.sum_x / np.maximum(self.t, 1) - 1, np.nan)


STATE = ("log_up", "log_down", "alive", "t", "sum_x", "sum_sq")
CONTINUATIONS = ("high end", "low end", "no difference")  # what ``decidable`` tries for every observation left


def _advance(state: tuple[np.ndarray, ...], m: np.ndarray, threshold: float, alpha: float, d: np.ndarray
             ) -> tuple[np.ndarray, ...]:
    """The state (``STATE``) after one more difference ``d`` per sequence: both gamblers' wealth at every
    candidate mean, the candidates still alive, and the running sums of the predictable bets."""
    log_up, log_down, alive, t, sum_x, sum_sq = state
    x = (np.clip(d, -1.0, 1.0) + 1.0) / 2.0
    t_next = t + 1
    mean_before = (0.5 + sum_x) / t_next  # μ̂_{t−1} (with the prior point ½)
    var_before = (0.25 + sum_sq) / t_next  # σ̂²_{t−1}
    lam = np.sqrt(2 * math.log(2 / alpha) / (var_before * t_next * np.log1p(t_next)))[..., None]
    up = np.minimum(lam, BET_CAP / m)
    down = np.minimum(lam, BET_CAP / (1 - m))
    step = x[..., None] - m
    log_up = log_up + np.log1p(up * step)
    log_down = log_down + np.log1p(-down * step)
    wealth = np.logaddexp(log_up, log_down) - math.log(2)  # log of (K⁺ + K⁻) / 2
    return (log_up, log_down, alive & (wealth < threshold), t_next, sum_x + x,
            sum_sq + (x - mean_before) ** 2)


def _hull(alive: np.ndarray, m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) of the difference: the alive candidates' hull, one grid step wider (NaN when none is)."""
    step = m[1] - m[0]
    any_alive = alive.any(axis=-1)
    first = np.argmax(alive, axis=-1)
    last = m.size - 1 - np.argmax(alive[..., ::-1], axis=-1)
    low_x = np.where(any_alive, m[first] - step, np.nan)
    high_x = np.where(any_alive, m[last] + step, np.nan)
    return np.clip(2 * low_x - 1, -1.0, 1.0), np.clip(2 * high_x - 1, -1.0, 1.0)


def decide(low: np.ndarray, high: np.ndarray, margin: float) -> np.ndarray:
    """Per interval: "differ" when it excludes 0, "equivalent" when it lies inside (−margin, margin), else ""."""
    low, high = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
    differ = (low > 0) | (high < 0)
    equivalent = (low > -margin) & (high < margin) & ~differ
    return np.where(differ, "differ", np.where(equivalent, "equivalent", ""))
