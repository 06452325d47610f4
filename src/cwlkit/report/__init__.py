"""Output formats: text compatible with the peer tools, tsv, json; and comparison reports.

The package is callable: ``cwlkit.report(qrels, runs, measures, ...)`` is
:func:`cwlkit.report.build.report` (a :class:`~cwlkit.report.build.Report` in HTML, LaTeX,
Markdown, CSV or JSON). Nothing is imported until it is called.
"""

import sys as _sys
import types as _types


class _CallableModule(_types.ModuleType):
    def __call__(self, *args, **kwargs):
        """``cwlkit.report(qrels, runs, measures, ...)``: see :func:`cwlkit.report.build.report`."""
        from .build import report

        return report(*args, **kwargs)


_sys.modules[__name__].__class__ = _CallableModule
