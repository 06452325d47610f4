"""Run fusion: combine several runs into one (ranx's 25 methods and 8 normalisations),
vectorised over topics and documents, and tune its parameters on held-out topics.

See docs/fusion.md for every method's formula, paper and name, and where cwlkit's
conventions differ from ranx's.
"""

from __future__ import annotations

from .fuse import fuse
from .methods import ALIASES, METHODS
from .normalise import NORMS
from .optimise import FusionOptimisation, optimize_fusion

__all__ = ["ALIASES", "METHODS", "NORMS", "FusionOptimisation", "fuse", "optimize_fusion"]
