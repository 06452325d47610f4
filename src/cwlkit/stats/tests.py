"""Paired significance tests over per-topic scores, vectorised over many comparisons.

Every test takes two arrays ``x`` and ``y`` of per-topic scores, paired along the last axis
(topics), and tests whether the per-topic differences ``d = x - y`` are centred on zero. Any
leading axes are independent comparisons, computed together: ``x`` of shape ``[C, n]``
against ``y`` of shape ``[C, n]`` (or ``[n]``, broadcast) gives ``C`` results at once.

All tests are two-sided. Each returns a :class:`PairedTestResult` with

- ``diff``: the difference of means, ``mean(x) - mean(y) = mean(d)``;
- ``p_value``: the two-sided p-value;
- ``ci_low``, ``ci_high``: a ``confidence`` interval, computed as the test's own inversion
  (the set of shifts ``theta`` for which the test of ``d - theta`` would not reject at level
  ``1 - confidence``) for the location parameter in ``estimate``:

  ======================  ===================  ==========================================
  test                    ``estimate``         confidence interval
  ======================  ===================  ==========================================
  ``t``                   mean of ``d``        ``mean +- t_{1-a/2, n-1} * sd / sqrt(n)``
  ``wilcoxon``            Hodges-Lehmann       Walsh averages ``W_(k) .. W_(N+1-k)``
                          pseudo-median
  ``sign``                median of ``d``      order statistics ``d_(k) .. d_(n+1-k)``
  ``randomization``       mean of ``d``        exact inversion of the sign-flip test
                                               over the same random sign vectors
  ``bootstrap``           mean of ``d``        percentile interval of the resampled means
  ======================  ===================  ==========================================

Conventions: when every difference is exactly zero no test can tell the runs apart and the
p-value is 1 (scipy returns NaN or raises there). Scores must be finite. The Monte-Carlo
tests draw from ``numpy.random.default_rng(seed)`` (``seed=0`` by default, so results are
reproducible; ``seed=None`` draws fresh entropy); one set of random sign vectors (or
bootstrap resamples of the topics) is shared by every comparison of a call.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from ..errors import ParamError
from ..support.checks import check_choice, check_int, check_probability, check_seed

TESTS: tuple[str, ...] = ("t", "wilcoxon", "sign", "randomization", "bootstrap")
#: other spellings :func:`paired_test` takes (any case)
ALIASES: dict[str, str] = {
    "ttest": "t",
    "t-test": "t",
    "student": "t",
    "signed-rank": "wilcoxon",
    "binomial": "sign",
    "permutation": "randomization",
    "fisher": "randomization",
}
#: most Monte-Carlo samples a call takes (more would run for hours)
MAX_SAMPLES = 100_000_000

#: Largest ``chunk * n`` of random samples held at once by the Monte-Carlo tests.
_CHUNK_CELLS = 1 << 21
#: Largest ``comparisons * walsh_averages`` held at once by the Wilcoxon interval.
_WALSH_CELLS = 1 << 22
#: Exact signed-rank null distribution up to this many pairs, normal approximation beyond.
_EXACT_SIGNED_RANK_N = 400


@dataclass(frozen=True)
class PairedTestResult:
    """The outcome of a paired test, one entry per comparison.

    Attributes
    ----------
    test : str
        The test's name (one of :data:`TESTS`).
    diff : numpy.ndarray
        ``mean(x - y)`` over topics: the difference of the mean scores.
    estimate : numpy.ndarray
        The location parameter the interval is about (see the module docstring): the mean
        difference, except the Hodges-Lehmann pseudo-median (Wilcoxon) and the median (sign).
    p_value : numpy.ndarray
        Two-sided p-value.
    ci_low, ci_high : numpy.ndarray
        The confidence interval for ``estimate``; infinite when the data cannot reject any
        shift at this level (too few topics).
    statistic : numpy.ndarray
        The test statistic: Student's t; Wilcoxon's min(T+, T-) (scipy's); the number of
        positive differences (sign); the mean difference (randomization, bootstrap).
    n : int
        Number of topics (pairs).
    confidence : float
        Confidence level of the interval, e.g. 0.95.
    samples : int or None
        Monte-Carlo samples (randomization, bootstrap).
    seed : int or None
        Seed of the random generator (randomization, bootstrap).
    """

    test: str
    diff: np.ndarray
    estimate: np.ndarray
    p_value: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    statistic: np.ndarray
    n: int
    confidence: float
    samples: int | None = None
    seed: int | None = None

    def to_records(self) -> list[dict[str, Any]]:
        """One dict per comparison (flattened in C order)."""
        arrays = {
            f.name: np.ravel(getattr(self, f.name))
            for f in fields(self)
            if isinstance(getattr(self, f.name), np.ndarray)
        }
        size = next(iter(arrays.values())).size
        scal = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in arrays}
        return [{**scal, **{k: float(v[i]) for k, v in arrays.items()}} for i in range(size)]


# ---------------------------------------------------------------------------- helpers


def _prepare(x: Any, y: Any, min_n: int = 1) -> tuple[np.ndarray, tuple[int, ...]]:
    """Differences as float64[C, n] and the batch shape (any input form of
    :func:`cwlkit.stats.inputs.paired`)."""
    from .inputs import check_spread, paired

    xa, ya = paired(x, y, ndim=None)
    try:
        d = xa - ya
    except ValueError:
        raise ParamError(f"cannot pair scores of shapes {xa.shape} and {ya.shape}") from None
    n = d.shape[-1]
    if n < min_n:
        raise ParamError(
            f"a paired test needs at least {min_n} topic{'s' if min_n > 1 else ''}; got {n}"
        )
    if not (np.isfinite(xa).all() and np.isfinite(ya).all()):
        raise ParamError("per-topic scores must be finite (got NaN or infinity)")
    if not np.isfinite(d).all():
        raise ParamError("per-topic scores are too large to subtract (the difference overflows)")
    check_spread("per-topic differences", d)
    shape = d.shape[:-1]
    return d.reshape(-1, n), shape


def _alpha(confidence: Any) -> float:
    c = check_probability("confidence", confidence)
    assert c is not None
    return 1.0 - c


def _samples(samples: Any) -> int:
    B = check_int("samples", samples, least=1, most=MAX_SAMPLES)
    assert B is not None
    return B


def _result(
    test: str,
    shape: tuple[int, ...],
    n: int,
    confidence: float,
    samples=None,
    seed=None,
    **arrays: np.ndarray,
) -> PairedTestResult:
    out = {k: np.asarray(v, dtype=np.float64).reshape(shape) for k, v in arrays.items()}
    return PairedTestResult(
        test=test, n=n, confidence=float(confidence), samples=samples, seed=seed, **out
    )


def _chunks(total: int, size: int):
    for start in range(0, total, size):
        yield start, min(size, total - start)


def _track_samples(chunks, total: int, desc: str):
    """``chunks`` with a progress bar over the ``total`` samples (on a terminal only)."""
    from ..support.progress import track

    return track(chunks, total=total, desc=desc, unit="sample", size=lambda c: c[1])


def _tolerance(d: np.ndarray) -> np.ndarray:
    """Absolute slack when comparing resampled means with the observed one (float noise)."""
    return 1e-10 * np.abs(d).mean(axis=1)


# ------------------------------------------------------------------------------- tests


def t_test(x: Any, y: Any, *, confidence: float = 0.95) -> PairedTestResult:
    """Paired Student's t-test (as ``scipy.stats.ttest_rel``).

    ``t = mean(d) / (sd(d) / sqrt(n))`` with ``sd`` the sample standard deviation (``n - 1``
    in the denominator); ``p = 2 * P(T_{n-1} > |t|)``. The interval is
    ``mean(d) +- t_{1-a/2, n-1} * sd(d) / sqrt(n)`` (scipy's ``confidence_interval``). When all
    differences are equal the variance is zero: ``t = +-inf`` and ``p = 0`` unless they are
    all zero, where ``t = 0`` and ``p = 1``.

    Parameters
    ----------
    x, y : array_like
        Per-topic scores, paired along the last axis (at least 2 topics).
    confidence : float
        Confidence level of the interval.
    """
    from scipy import stats

    alpha = _alpha(confidence)
    d, shape = _prepare(x, y, min_n=2)
    n = d.shape[1]
    mean = d.mean(axis=1)
    se = np.sqrt(d.var(axis=1, ddof=1) / n)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mean / se
    zero = (se == 0) & (mean == 0)
    t[zero] = 0.0
    p = 2.0 * stats.t.sf(np.abs(t), n - 1)
    p[zero] = 1.0
    half = stats.t.ppf(1.0 - alpha / 2.0, n - 1) * se
    return _result(
        "t",
        shape,
        n,
        confidence,
        diff=mean,
        estimate=mean,
        p_value=p,
        ci_low=mean - half,
        ci_high=mean + half,
        statistic=t,
    )


def _signed_rank_k(n: int, alpha: float) -> int:
    """Largest ``k`` with ``2 P(T+ <= k - 1) <= alpha`` under the signed-rank null (n pairs)."""
    if n <= _EXACT_SIGNED_RANK_N:
        total = n * (n + 1) // 2
        counts = np.zeros(total + 1)
        counts[0] = 1.0
        for r in range(1, n + 1):  # subsets of {1..n} by their sum: add rank r or not
            counts[r:] = counts[r:] + counts[:-r].copy()
        cdf = np.cumsum(counts) / 2.0**n
        return int(np.count_nonzero(2.0 * cdf <= alpha * (1 + 1e-12)))
    from scipy import stats

    mu = n * (n + 1) / 4.0
    sigma = np.sqrt(n * (n + 1) * (2 * n + 1) / 24.0)
    return max(0, int(np.floor(mu + 0.5 - stats.norm.ppf(1 - alpha / 2) * sigma)))


def _walsh_interval(d: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hodges-Lehmann estimate and the Wilcoxon interval from the Walsh averages."""
    C, n = d.shape
    iu, ju = np.triu_indices(n)
    N = iu.size
    k = _signed_rank_k(n, alpha)
    hl, lo, hi = np.empty(C), np.full(C, -np.inf), np.full(C, np.inf)
    step = max(1, _WALSH_CELLS // max(N, 1))
    mid = sorted({(N - 1) // 2, N // 2})
    kth = sorted(set(mid) | ({k - 1, N - k} if k > 0 else set()))
    for s, m in _chunks(C, step):
        w = np.partition(
            (d[s : s + m, iu] + d[s : s + m, ju]) / 2.0, kth, axis=1
        )  # only the needed order statistics
        hl[s : s + m] = (w[:, mid[0]] + w[:, mid[-1]]) / 2.0
        if k > 0:
            lo[s : s + m] = w[:, k - 1]
            hi[s : s + m] = w[:, N - k]
    return hl, lo, hi


def wilcoxon_test(x: Any, y: Any, *, confidence: float = 0.95) -> PairedTestResult:
    """Wilcoxon signed-rank test (``scipy.stats.wilcoxon``'s defaults).

    Zero differences are dropped (``zero_method="wilcox"``); the p-value is exact for up to
    50 non-zero differences without ties and from the normal approximation otherwise, without
    continuity correction (scipy's ``method="auto"``). ``p = 1`` when every difference is zero.

    The interval is Tukey's, for the Hodges-Lehmann pseudo-median (``estimate``, the median of
    the ``N = n(n+1)/2`` Walsh averages ``(d_i + d_j) / 2, i <= j``): the Walsh averages of
    order ``k`` and ``N + 1 - k``, with ``k`` the largest integer such that
    ``2 P(T+ <= k - 1) <= 1 - confidence`` under the exact signed-rank null distribution of
    ``n`` untied pairs (normal approximation with continuity correction beyond 400 pairs).
    All ``n`` differences, zeros included, enter the interval.
    """
    from scipy import stats

    alpha = _alpha(confidence)
    d, shape = _prepare(x, y, min_n=1)
    C, n = d.shape
    stat = np.zeros(C)
    p = np.ones(C)
    # one scipy call per comparison: scipy's vectorised call picks the exact or the normal
    # method for the whole array, so rows with and without zeros would not match their own
    # one-row results
    for i in np.flatnonzero((d != 0).any(axis=1)):
        res = stats.wilcoxon(d[i], zero_method="wilcox")
        stat[i] = res.statistic
        p[i] = res.pvalue
    hl, lo, hi = _walsh_interval(d, alpha)
    return _result(
        "wilcoxon",
        shape,
        n,
        confidence,
        diff=d.mean(axis=1),
        estimate=hl,
        p_value=p,
        ci_low=lo,
        ci_high=hi,
        statistic=stat,
    )


def sign_test(x: Any, y: Any, *, confidence: float = 0.95) -> PairedTestResult:
    """Sign test: the number of positive differences among the non-zero ones, against
    Binomial(m, 1/2) (two-sided, as ``scipy.stats.binomtest(k, m).pvalue``).

    With ``k+`` positive and ``k-`` negative differences, ``m = k+ + k-``,
    ``p = min(1, 2 * P(B <= min(k+, k-)))`` for ``B ~ Binomial(m, 1/2)`` (the two tails are
    symmetric); ``p = 1`` when ``m = 0``. The interval is the distribution-free one for the
    median of ``d`` (``estimate``): order statistics ``d_(k)`` and ``d_(n+1-k)`` of all ``n``
    differences, ``k`` the largest integer with ``2 P(Binomial(n, 1/2) <= k - 1) <= 1 -
    confidence``.
    """
    from scipy import stats

    alpha = _alpha(confidence)
    d, shape = _prepare(x, y, min_n=1)
    C, n = d.shape
    pos = (d > 0).sum(axis=1)
    neg = (d < 0).sum(axis=1)
    m = pos + neg
    p = np.minimum(1.0, 2.0 * stats.binom.cdf(np.minimum(pos, neg), m, 0.5))
    p[m == 0] = 1.0
    cdf = stats.binom.cdf(np.arange(n + 1), n, 0.5)
    k = int(np.count_nonzero(2.0 * cdf <= alpha * (1 + 1e-12)))
    srt = np.sort(d, axis=1)
    lo = srt[:, k - 1] if k > 0 else np.full(C, -np.inf)
    hi = srt[:, n - k] if k > 0 else np.full(C, np.inf)
    return _result(
        "sign",
        shape,
        n,
        confidence,
        diff=d.mean(axis=1),
        estimate=np.median(d, axis=1),
        p_value=p,
        ci_low=lo,
        ci_high=hi,
        statistic=pos,
    )


def _keep_smallest(best: np.ndarray | None, new: np.ndarray, k: int) -> np.ndarray:
    """The ``k`` smallest values per row of ``best`` and ``new`` together (unsorted)."""
    cand = new if best is None else np.concatenate([best, new], axis=1)
    if cand.shape[1] <= k:
        return cand
    return np.partition(cand, k - 1, axis=1)[:, :k]


def _kth_smallest(vals: np.ndarray, k: int) -> np.ndarray:
    return np.partition(vals, k - 1, axis=1)[:, k - 1]


def randomization_test(
    x: Any, y: Any, *, samples: int = 10_000, seed: int | None = 0, confidence: float = 0.95
) -> PairedTestResult:
    """Paired randomization (sign-flip permutation) test of the mean difference.

    Under the null hypothesis each topic's difference is as likely to have either sign. Each
    of ``samples`` random sign vectors ``s`` (independent fair +-1 per topic) gives a mean
    ``mean(s * d)``; with ``c`` of them at least as far from zero as the observed ``mean(d)``,
    ``p = (c + 1) / (samples + 1)`` (the observed assignment counts as one of the sample, so
    ``p`` is never 0 and the test is valid at every sample size).

    The interval is the exact inversion of this test over the same sign vectors: the set of
    shifts ``theta`` for which the test of ``d - theta`` gives ``p > 1 - confidence``. For each
    sign vector ``s`` with mean ``m`` and ``e = mean(s * (d - mean(d)))``, the test of
    ``d - theta`` counts it exactly when ``theta - mean(d)`` lies between ``e / (1 + m)`` and
    ``-e / (1 - m)`` (a closed interval that contains 0), so the acceptance region is an
    interval whose ends are order statistics of those bounds. It is infinite when even the
    most extreme shift cannot be rejected (``(1 + #{|m| = 1}) / (samples + 1) > 1 -
    confidence``). Sign vectors are drawn in chunks and shared by all comparisons.
    """
    alpha = _alpha(confidence)
    B = _samples(samples)
    seed = check_seed("seed", seed)
    d, shape = _prepare(x, y, min_n=1)
    C, n = d.shape
    rng = np.random.default_rng(seed)
    mean = d.mean(axis=1)
    tol = _tolerance(d)
    count = np.zeros(C, dtype=np.int64)
    K = max(0, int(np.floor(alpha * (B + 1) - 1 + 1e-9)) + 1)  # needed counts to accept
    low_best: np.ndarray | None = None  # K smallest lower bounds (of -upper for the top end)
    high_best: np.ndarray | None = None
    step = max(1, min(B, _CHUNK_CELLS // n))
    for _, m in _track_samples(_chunks(B, step), B, "randomization test"):
        signs = np.where(rng.random((m, n)) < 0.5, 1.0, -1.0)  # chunking does not change the draws
        sm = d @ signs.T / n  # [C, m] means of the sign-flipped differences
        count += (np.abs(sm) >= np.abs(mean)[:, None] - tol[:, None]).sum(axis=1)
        if K:
            ms = signs.mean(axis=1)  # [m]
            e = sm - mean[:, None] * ms[None, :]
            extreme = np.abs(ms) == 1.0  # all one sign: counted at every theta
            with np.errstate(divide="ignore", invalid="ignore"):
                a = e / (1.0 + ms)
                b = -e / (1.0 - ms)
            lower = np.where(extreme, -np.inf, np.minimum(a, b))
            upper = np.where(extreme, np.inf, np.maximum(a, b))
            low_best = _keep_smallest(low_best, lower, K)
            high_best = _keep_smallest(high_best, -upper, K)
    p = (count + 1.0) / (B + 1.0)
    zero = (d == 0).all(axis=1)
    p[zero] = 1.0
    if K > B:  # (a confidence so low that no shift is accepted: the interval is empty)
        lo, hi = np.full(C, np.nan), np.full(C, np.nan)
    elif K and low_best is not None and high_best is not None:
        lo = mean + _kth_smallest(low_best, K)
        hi = mean - _kth_smallest(high_best, K)
    else:
        lo, hi = np.full(C, -np.inf), np.full(C, np.inf)
    return _result(
        "randomization",
        shape,
        n,
        confidence,
        samples=B,
        seed=seed,
        diff=mean,
        estimate=mean,
        p_value=p,
        ci_low=lo,
        ci_high=hi,
        statistic=mean,
    )


def bootstrap_test(
    x: Any, y: Any, *, samples: int = 10_000, seed: int | None = 0, confidence: float = 0.95
) -> PairedTestResult:
    """Paired bootstrap: resample the topics with replacement.

    Each of ``samples`` resamples (``n`` topics drawn with replacement, the same draw for
    ``x`` and ``y``) gives a mean difference ``m_b``. The p-value is the shift method's: the
    resampled means are shifted to the null (``m_b - mean(d)``, the bootstrap distribution
    of ``d - mean(d)``) and ``p = (1 + #{|m_b - mean(d)| >= |mean(d)|}) / (samples + 1)``.
    The interval is the percentile interval: the ``(1 - confidence) / 2`` and
    ``(1 + confidence) / 2`` quantiles of the ``m_b`` (linear interpolation between order
    statistics, numpy's default quantile).
    """
    alpha = _alpha(confidence)
    B = _samples(samples)
    seed = check_seed("seed", seed)
    d, shape = _prepare(x, y, min_n=1)
    C, n = d.shape
    rng = np.random.default_rng(seed)
    mean = d.mean(axis=1)
    tol = _tolerance(d)
    count = np.zeros(C, dtype=np.int64)
    h_lo = (B - 1) * (alpha / 2.0)
    h_hi = (B - 1) * (1.0 - alpha / 2.0)
    j_lo = int(np.floor(h_lo))
    j_hi = int(np.floor(h_hi))
    keep_lo = min(B, j_lo + 2)  # order statistics j_lo, j_lo + 1 (0-based) from the bottom
    keep_hi = min(B, B - j_hi)  # order statistics j_hi, j_hi + 1 from the top
    low_best: np.ndarray | None = None
    high_best: np.ndarray | None = None
    pvals = np.full(n, 1.0 / n)
    step = max(1, min(B, _CHUNK_CELLS // n))
    for _, m in _track_samples(_chunks(B, step), B, "bootstrap"):
        w = rng.multinomial(n, pvals, size=m).astype(np.float64)  # [m, n] topic counts
        bm = d @ w.T / n  # [C, m]
        count += (np.abs(bm - mean[:, None]) >= np.abs(mean)[:, None] - tol[:, None]).sum(axis=1)
        low_best = _keep_smallest(low_best, bm, keep_lo)
        high_best = _keep_smallest(high_best, -bm, keep_hi)
    assert low_best is not None and high_best is not None
    low_sorted = np.sort(low_best, axis=1)
    top_sorted = -np.sort(high_best, axis=1)[:, ::-1]  # ascending: the largest keep_hi values

    def order_stat(j: int) -> np.ndarray:
        j = min(j, B - 1)
        if j < keep_lo:
            return low_sorted[:, j]
        return top_sorted[:, j - (B - keep_hi)]

    lo = order_stat(j_lo) + (h_lo - j_lo) * (order_stat(j_lo + 1) - order_stat(j_lo))
    hi = order_stat(j_hi) + (h_hi - j_hi) * (order_stat(j_hi + 1) - order_stat(j_hi))
    p = (count + 1.0) / (B + 1.0)
    p[(d == 0).all(axis=1)] = 1.0
    return _result(
        "bootstrap",
        shape,
        n,
        confidence,
        samples=B,
        seed=seed,
        diff=mean,
        estimate=mean,
        p_value=p,
        ci_low=lo,
        ci_high=hi,
        statistic=mean,
    )


def paired_test(
    x: Any,
    y: Any,
    test: str = "t",
    *,
    confidence: float = 0.95,
    samples: int = 10_000,
    seed: int | None = 0,
) -> PairedTestResult:
    """Run the paired ``test`` (one of :data:`TESTS`) on ``x - y``; see the module docstring.

    ``test`` may also be spelled ``ttest``, ``student`` (t), ``signed-rank`` (wilcoxon),
    ``binomial`` (sign), ``permutation`` or ``fisher`` (randomization), in any case.
    ``samples`` (an integer from 1 to 10^8) and ``seed`` (an integer >= 0, or None for fresh
    entropy) apply to the Monte-Carlo tests (randomization, bootstrap) only; they are
    checked for every test.

    ``x`` and ``y`` are per-topic scores in any form :mod:`cwlkit.stats.inputs` takes:
    arrays or lists (paired by position, any leading axes batched), or scores by topic
    (a one-measure :class:`~cwlkit.Results`, a mapping ``{topic: score}``, a pandas Series)
    paired by topic, the same topics on both sides.
    """
    name = _test_name(test)
    samples = _samples(samples)  # the Monte-Carlo settings are checked whichever test runs
    seed = check_seed("seed", seed)
    if name == "t":
        return t_test(x, y, confidence=confidence)
    if name == "wilcoxon":
        return wilcoxon_test(x, y, confidence=confidence)
    if name == "sign":
        return sign_test(x, y, confidence=confidence)
    if name == "randomization":
        return randomization_test(x, y, samples=samples, seed=seed, confidence=confidence)
    return bootstrap_test(x, y, samples=samples, seed=seed, confidence=confidence)


def _test_name(test: Any) -> str:
    """The canonical name of ``test`` (one of :data:`TESTS` or an alias, any case)."""
    if isinstance(test, str):
        key = test.lower()
        if key in TESTS:
            return key
        if key in ALIASES:
            return ALIASES[key]
    return check_choice("test", test, TESTS)
