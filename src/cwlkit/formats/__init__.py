"""Text formats over :class:`~cwlkit.results.Results`: the anchors' own outputs, byte for byte
(trec_eval, cwl_eval, gdeval, ndeval, LETOR's scripts, rbp_eval, inst_eval), and cwlkit's
tables (:mod:`~cwlkit.formats.table`, :mod:`~cwlkit.formats.correlation`). Nothing is
imported until a module is used.
"""
