"""The INST paper's Equation 7 and Table 2: how deep rankings must be judged."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cwlkit.errors import ParamError
from cwlkit.measures.cwl.eval_depth import (
    evaluation_depth,
    inst_beyond,
    inst_evaluation_depth,
    inst_expected_depth,
    inst_tail_mass,
    matching_rbp_p,
    rbp_evaluation_depth,
    tail_masses,
)
from cwlkit.measures.cwl.inst import INSQ, INST
from cwlkit.measures.cwl.rbp import RBP
from cwlkit.measures.cwl.tbg import TBG

# Table 2, as printed: expected depth; then per delta the depth n and "prob. going beyond"
TABLE2_INST = {
    1: (2.58, {0.05: (30, "0.39%"), 0.01: (154, "0.02%")}),
    3: (6.53, {0.05: (105, "0.29%"), 0.01: (547, "0.01%")}),
    10: (20.51, {0.05: (371, "0.26%"), 0.01: (1931, "0.01%")}),
}
TABLE2_RBP = {
    0.612: {0.05: (7, "3.22%"), 0.01: (10, "0.74%")},
    0.847: {0.05: (19, "4.26%"), 0.01: (28, "0.96%")},
    0.951: {0.05: (60, "4.91%"), 0.01: (92, "0.98%")},
}


def pct(x: float) -> str:
    return f"{100 * x:.2f}%"


@pytest.mark.parametrize("T", sorted(TABLE2_INST))
def test_table2_inst_rows(T):
    ed, rows = TABLE2_INST[T]
    assert round(inst_expected_depth(T), 2) == ed
    for delta, (n, beyond) in rows.items():
        assert inst_evaluation_depth(T, delta) == n
        assert inst_tail_mass(T, n) < delta <= inst_tail_mass(T, n - 1)
        assert pct(inst_beyond(T, n)) == beyond


@pytest.mark.parametrize("T,p", [(1, 0.612), (3, 0.847), (10, 0.951)])
def test_table2_rbp_rows(T, p):
    # the RBP parameters match INST's expected depth: p = 1 - 1/E
    assert round(matching_rbp_p(T), 3) == p
    for delta, (n, beyond) in TABLE2_RBP[p].items():
        assert rbp_evaluation_depth(p, delta) == n
        assert pct(p**n) == beyond  # RBP: the weight past n and the users past n are p^n


def test_equation7_as_printed():
    # rho_N = 1 - (1/S_{2T-1}) sum_{i=1}^{N} 1/(i+2T-1)^2, S_m = pi^2/6 - sum_{j<=m} 1/j^2
    for T in (1, 2, 3, 10):
        m = 2 * T - 1
        S = math.pi**2 / 6 - sum(1 / j**2 for j in range(1, m + 1))
        for N in (0, 1, 10, 105, 1000):
            want = 1 - sum(1 / (i + m) ** 2 for i in range(1, N + 1)) / S
            assert inst_tail_mass(T, N) == pytest.approx(want, rel=1e-10, abs=1e-13)


def test_equation7_is_the_engines_tail():
    # the weight past n of INST on a ranking with no gain, from the C/W/L engine
    for T in (0.3, 1.0, 2.5, 10.0):
        rho = tail_masses(INST(T), 200)
        assert np.allclose(rho, inst_tail_mass(T, np.arange(201)), rtol=1e-9, atol=1e-12)


def test_the_papers_limit_N():
    # "when T <= 5, N = 2 x 10^4 suffices, and for T <= 50, N = 2 x 10^5 is necessary"
    # (delta < 5 x 10^-4, three decimal places)
    assert inst_evaluation_depth(5, 5e-4) <= 20_000
    assert 20_000 < inst_evaluation_depth(50, 5e-4) <= 200_000


def test_generic_evaluation_depth():
    assert evaluation_depth(INST(3.0), 0.05) == 105
    assert evaluation_depth(INSQ(3.0), 0.05) == 105  # INSQ is INST's all-zero user
    assert evaluation_depth(RBP(0.847), 0.05) == 19
    # numerically, for a metric without a closed form here
    n = evaluation_depth(TBG(), 0.05)
    rho = tail_masses(TBG(), n)
    assert rho[n] < 0.05 <= rho[n - 1]


def test_bad_arguments():
    with pytest.raises(ParamError):
        inst_evaluation_depth(0, 0.05)
    with pytest.raises(ParamError):
        inst_evaluation_depth(1, 0)
    with pytest.raises(ParamError):
        rbp_evaluation_depth(1.0, 0.05)
    from cwlkit.measures.cwl.rr import RR

    with pytest.raises(ParamError, match="never stops"):
        evaluation_depth(RR(), 0.05)
