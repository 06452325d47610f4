"""trec_eval's measures: per-family modules over a shared relevance-code view
(:mod:`._ctx`), the measure table (:mod:`._spec`), the evaluation (:mod:`.evaluate`), and
their registration under canonical and trec_eval names (:mod:`.api`)."""

from . import api as _api  # noqa: F401  (registers the measures)
