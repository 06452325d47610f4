"""cwlkit's version (one place; ``cwlkit.__version__`` is this)."""

VERSION = "0.1.0"
