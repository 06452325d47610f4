"""cwlkit.support.jsontext: the JSON cwlkit writes is strict."""

from __future__ import annotations


def test_json_is_strict():
    """NaN is null and infinities strings, so that strict parsers read every JSON cwlkit
    writes (Python's json wrote the bare tokens NaN and Infinity)."""
    import json
    import math

    import numpy as np

    from cwlkit.support.jsontext import dumps

    text = dumps({"a": [math.nan, math.inf, -math.inf, 1.5, np.float64("nan"), np.int64(3)]})
    assert json.loads(text) == {"a": [None, "inf", "-inf", 1.5, None, 3]}
    assert "NaN" not in text and "Infinity" not in text
