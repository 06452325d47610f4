"""trec_eval's measures: per-family modules over a shared relevance-code view
(:mod:`._ctx`), the one measure table (:mod:`.spec`), the evaluation (:mod:`.evaluate`), and
the registered measures generated from the table under canonical and trec_eval names
(:mod:`.registered`)."""

from . import registered as _registered  # noqa: F401  (registers the measures)
