"""The documents of several rankings as integer codes of one dictionary (for the pages and
measures that compare two runs' rankings: ``cwlkit diff``, reproducibility)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ParamError

if TYPE_CHECKING:  # pragma: no cover
    from .ranking import RankingBatch

__all__ = ["document_codes"]


def document_codes(
    batches: Sequence[RankingBatch], rows: Sequence[np.ndarray]
) -> tuple[list[np.ndarray], Any]:
    """Each batch's rankings at ``rows[i]`` (its rows, in the order wanted) as int64[len(rows[i]),
    D] document codes, -1 past each ranking, and the dictionary (a pyarrow array of the ids:
    code ``k`` is ``dictionary[k]``), one for every batch, so that a code names the same
    document in all of them. The batches must carry their document ids (``keep_docs``)."""
    import pyarrow as pa

    cells = []
    for b in batches:
        got = b.doc_cells()
        if got is None:
            raise ParamError("the rankings were read without their document ids")
        r, c, ids = got
        ids = ids if isinstance(ids, (pa.Array, pa.ChunkedArray)) else pa.array(ids, pa.string())
        ids = pa.chunked_array([ids] if isinstance(ids, pa.Array) else ids.chunks)
        cells.append((np.asarray(r), np.asarray(c), ids.cast(pa.large_string())))
    joined = pa.chunked_array([ch for _, _, ids in cells for ch in ids.chunks], pa.large_string())
    encoded = joined.combine_chunks().dictionary_encode()
    codes_all = np.asarray(encoded.indices.fill_null(-1), dtype=np.int64)
    out, start = [], 0
    for b, (r, c, ids), keep in zip(batches, cells, rows, strict=True):
        where = np.full(b.n_topics, -1, dtype=np.int64)
        where[np.asarray(keep)] = np.arange(len(keep))
        codes = np.full((len(keep), b.max_depth), -1, dtype=np.int64)
        mine = codes_all[start : start + len(ids)]
        start += len(ids)
        sel = where[r] >= 0
        codes[where[r[sel]], c[sel]] = mine[sel]
        out.append(codes)
    return out, encoded.dictionary
