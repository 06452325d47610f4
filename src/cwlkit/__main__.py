"""``python -m cwlkit``."""

from .cli.main import entry

entry()
