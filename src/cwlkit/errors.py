"""Exceptions raised by cwlkit. Every message is one line, meant to be shown to a user as is."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class CwlkitError(Exception):
    """Base class of every error cwlkit raises on bad input or bad parameters."""


#: the most characters of a :class:`FormatError`'s message that are shown
MAX_MESSAGE = 500


class FormatError(CwlkitError):
    """A malformed input file: ``path:line: message``.

    Parameters
    ----------
    path : str
        The file name as the user gave it.
    line : int or None
        1-based line number of the offending line, or None when the problem is the whole file.
    msg : str
        What was expected and what was found.
    """

    def __init__(self, path: object, line: int | None, msg: str) -> None:
        self.path = str(path)
        self.line = line
        self.msg = msg
        where = f"{self.path}:{line}" if line is not None else self.path
        if len(msg) > MAX_MESSAGE:  # (a value quoted from a line of 100 kB stays readable)
            msg = msg[: MAX_MESSAGE - 5] + " [...]"
        super().__init__(f"{where}: {msg}")

    def __reduce__(self):  # picklable: raised in a worker process, re-raised in the caller
        return (type(self), (self.path, self.line, self.msg))


class ParamError(CwlkitError):
    """A measure or option parameter outside its domain."""


class NoTopicsError(CwlkitError):
    """Nothing to evaluate: the run and the qrels share no topic (under the default topics
    rule, ``topics="both"``; the message names both files), or the rule keeps no topic."""

    @classmethod
    def between(cls, run: object, qrels: object, topics: str = "both") -> NoTopicsError:
        """The error for ``run`` and ``qrels`` (their names) under the topics rule."""
        if topics == "both":
            return cls(f"no topics to evaluate: {run} and {qrels} share no topic")
        return cls("no topics to evaluate")


class UnknownMeasureError(CwlkitError):
    """A measure name that the registry does not know; suggests the closest names."""

    def __init__(self, name: str, known: Iterable[str] = (), *, hint: str | None = None) -> None:
        self.name = name
        if hint is None:
            close = difflib.get_close_matches(name, list(known), n=3, cutoff=0.6)
            hint = f"did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        super().__init__(f"unknown measure {name!r}" + (f"; {hint}" if hint else ""))


class NotInResultsError(CwlkitError, KeyError):
    """A measure or column asked of a :class:`~cwlkit.Results` that it does not hold (a
    ``KeyError`` too, as for a mapping)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class InputError(CwlkitError):
    """An object that is not one of the accepted forms of qrels or run (wrong type, missing
    columns); the message names the forms or columns expected."""
