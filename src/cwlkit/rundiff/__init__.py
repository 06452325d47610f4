"""Two runs side by side: :func:`diff` computes, topic by topic and rank by rank, what
separates them (``build``), and :meth:`Diff.to_html` draws it as one self-contained page
(``html``)."""

from __future__ import annotations

from .build import Diff, diff

__all__ = ["Diff", "diff"]
