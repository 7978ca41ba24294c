"""Cluster-robust inference on a mean that holds its level with few or uneven clusters: CR2 standard errors with
Bell–McCaffrey degrees of freedom.

The report's means (an accuracy, a mean paired difference) are the OLS fit of the answers on a constant. With few
clusters, or clusters of very different sizes (TOON's 13 datasets, five of them a single question), the usual
CR1 sandwich with Student's t on G − 1 degrees of freedom rejects a true null too often. CR2, the bias-reduced
linearisation (Bell & McCaffrey 2002, "Bias reduction in standard errors for linear regression with multi-stage
samples", Survey Methodology 28(2)), scales each cluster's residuals by (I − H_gg)^(−1/2), which makes the
variance estimate unbiased when the errors are independent with equal variance; its t statistic is referred to
Student's t with the Bell–McCaffrey degrees of freedom, a Satterthwaite approximation under that working model
(Imbens & Kolesár 2016, "Robust standard errors in small samples: some practical advice", REStat 98(4), §3;
Pustejovsky & Tipton 2018, JBES 36(4), who call it the "BM" test).

For a regression on a constant both have closed forms, with h_g = n_g / n the share of the answers in cluster g
and S_g the sum of cluster g's residuals:

    V_CR2 = Σ_g S_g² / (1 − h_g) / n²        (all clusters singletons: HC2)
    ν_BM  = 1 / (Σ_g h_g² + (Σ_g u_g)² − Σ_g u_g²),   u_g = h_g² / (1 − h_g)

(ν_BM = (tr B)² / tr(B²) for B = D^(−1/2)(diag h − h hᵀ)D^(−1/2), D = diag(1 − h), whose trace is 1; equal
clusters give ν = G − 1.) ``tests/test_report_stats.py`` checks both against the general matrix computation.
Everything here is vectorised over rows, so that a Monte Carlo (``benchmarks/null_montecarlo.py``) and the
plan's power check run the report's very test.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats


def codes_of(groups: np.ndarray | pd.Series | list) -> np.ndarray:
    """Cluster labels as 0..G−1."""
    return pd.factorize(np.asarray(groups, dtype=object))[0]


def _trace_product(x: tuple, y: tuple) -> float:
    """tr(XY) of X = diag(d) + U Vᵀ and Y likewise (``(d, U, V)``), in O(G r²) without forming either."""
    dx, ux, vx = x
    dy, uy, vy = y
    return float(np.sum(dx * dy) + np.sum(dx[:, None] * uy * vy) + np.sum(dy[:, None] * ux * vx)
                 + np.sum((vx.T @ uy) * (vy.T @ ux).T))


@dataclass(frozen=True)
class Design:
    """What the Imbens–Kolesár degrees of freedom need of a cluster design, computed once: with a = 1/(1 − h),
    B(τ) = D^(−1/2)(P + τ·n·P²)D^(−1/2), P = diag h − h hᵀ, has tr B = t0 + τn·t1 and
    tr B² = q00 + 2τn·q01 + (τn)²·q11 (low-rank algebra: never a G × G matrix)."""

    n: int
    sizes: np.ndarray
    t0: float
    t1: float
    q00: float
    q01: float
    q11: float

    @classmethod
    def of(cls, codes: np.ndarray) -> Design:
        return cls.from_sizes(np.bincount(codes))

    @classmethod
    def from_sizes(cls, counts: np.ndarray) -> Design:
        """The design of clusters of these sizes (a planned run's, before any answer)."""
        sizes = np.asarray(counts, dtype=float)
        sizes = sizes[sizes > 0]
        n = float(sizes.sum())
        h = sizes / n
        r = np.sqrt(1 / (1 - h)) if sizes.size > 1 else np.ones(1)
        col = (r * h)[:, None]
        b0 = (r * r * h, -col, col)  # D^(−1/2) P D^(−1/2)
        w, s2 = h * h, float(np.sum(h * h))
        b1 = (r * r * w, np.stack([-r * w, -r * h, s2 * r * h], axis=1), np.stack([r * h, r * w, r * h], axis=1))
        return cls(int(n), sizes, _trace_product(b0, _identity(h.size)), _trace_product(b1, _identity(h.size)),
                   _trace_product(b0, b0), _trace_product(b0, b1), _trace_product(b1, b1))

    def df(self, rho: np.ndarray | float = 0.0) -> np.ndarray:
        """Satterthwaite degrees of freedom of the CR2 variance under the working model of independent answers
        with a cluster random effect of intra-cluster correlation ``rho`` (0: Bell–McCaffrey)."""
        if self.sizes.size < 2:
            return np.full(np.shape(rho), math.nan)
        rho = np.clip(np.asarray(rho, dtype=float), 0.0, 0.99)
        tau = rho / (1 - rho) * self.n
        return (self.t0 + tau * self.t1) ** 2 / (self.q00 + 2 * tau * self.q01 + tau * tau * self.q11)


def _identity(g: int) -> tuple:
    return np.ones(g), np.zeros((g, 1)), np.zeros((g, 1))


def bm_df(sizes: np.ndarray) -> float:
    """Bell–McCaffrey degrees of freedom of the CR2 t test of a mean, from the clusters' sizes (NaN below two):
    the closed form of the module's docstring."""
    n = np.asarray(sizes, dtype=float)
    n = n[n > 0]
    if n.size < 2:
        return math.nan
    h = n / n.sum()
    u = h * h / (1 - h)
    return float(1 / (np.sum(h * h) + u.sum() ** 2 - np.sum(u * u)))


def _member(codes: np.ndarray, g: int) -> np.ndarray:
    member = np.zeros((codes.size, g))
    member[np.arange(codes.size), codes] = 1.0
    return member


def _cluster_sums(x: np.ndarray, codes: np.ndarray, g: int) -> np.ndarray:
    if g <= 256 and x.shape[0] > 1:  # many rows, few clusters: one matrix product gives every row's sums
        return x @ _member(codes, g)
    return np.stack([np.bincount(codes, weights=r, minlength=g) for r in x])  # never an n × G matrix


def icc(x: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """One-way ANOVA estimate of the intra-cluster correlation of each row of ``x``, truncated to [0, 0.99]
    (0 where it cannot be estimated: every cluster a singleton, or no variance)."""
    x = np.atleast_2d(np.asarray(x, dtype=float))
    g = int(codes.max()) + 1
    n = codes.size
    sizes = np.bincount(codes, minlength=g).astype(float)
    if g < 2 or n <= g:
        return np.zeros(x.shape[0])
    sums = _cluster_sums(x, codes, g)
    grand = x.mean(axis=1)
    between = ((sums / sizes - grand[:, None]) ** 2 * sizes).sum(axis=1) / (g - 1)
    within = ((x * x).sum(axis=1) - (sums * sums / sizes).sum(axis=1)) / (n - g)
    n0 = (n - float(np.sum(sizes * sizes)) / n) / (g - 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = (between - within) / (between + (n0 - 1) * within)
    return np.clip(np.nan_to_num(rho, nan=0.0, posinf=0.0, neginf=0.0), 0.0, 0.99)


def _scaled_se(x: np.ndarray, codes: np.ndarray, power: int) -> np.ndarray:
    """√(Σ_g S_g² / (1 − h_g)^power) / n for each row of ``x``: CR2 with power 1, CR3 (the jackknife) with 2."""
    x = np.atleast_2d(np.asarray(x, dtype=float))
    n = x.shape[1]
    g = int(codes.max()) + 1
    sizes = np.bincount(codes, minlength=g).astype(float)
    sums = _cluster_sums(x - x.mean(axis=1, keepdims=True), codes, g)
    with np.errstate(divide="ignore", invalid="ignore"):
        var = (sums * sums / (1 - sizes / n) ** power).sum(axis=1) / (n * n)
    return np.sqrt(np.maximum(var, 0.0))


def cr2_se(x: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """CR2 standard error of the mean of each row of ``x`` (rows: replications; columns: the answers of clusters
    ``codes``). One row in, a 1-element array out."""
    return _scaled_se(x, codes, 1)


def cr3_se(x: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """CR3 (jackknife) standard error of the mean of each row of ``x``: √Σ_g (θ̂₍₋g₎ − θ̂)², θ̂₍₋g₎ the mean without
    cluster g, which for a mean is S_g / (n − n_g), so Σ_g S_g² / (1 − h_g)² / n² (Bell & McCaffrey 2002's CR3;
    MacKinnon, Nielsen & Webb 2023's CV3 without its (G − 1)/G). Never below CR2, and above it exactly where one
    cluster holds a large share of the answers: where few effective clusters make the t approximation fail."""
    return _scaled_se(x, codes, 2)


def cr2_tests(x: np.ndarray, codes: np.ndarray, design: Design | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(means, CR2 SEs, Imbens–Kolesár df, two-sided p-values of mean = 0) for each row of ``x``: the t statistic
    on the degrees of freedom of the design under a random-effects working model with the row's own estimated
    intra-cluster correlation. A row with SE 0 gets p = 1 when its mean is 0, else 0 (no variance at all)."""
    x = np.atleast_2d(np.asarray(x, dtype=float))
    means = x.mean(axis=1)
    se = cr2_se(x, codes)
    df = (design or Design.of(codes)).df(icc(x, codes))
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(se > 1e-12, 2 * stats.t.sf(np.abs(means) / se, df),
                     np.where(np.abs(means) < 1e-15, 1.0, 0.0))
    return means, se, df, p
