"""The example files bundled with the package, by name; ``example:NAME`` on the command line.

The cwl_eval paper's two topics (``qrels``, ``run``, ``costs``, ``metrics``), a real TREC
collection (TREC 2012 Web Track: ``web2012.qrels`` and three of the track's baseline runs at
their full depth, up to 1,000 documents a topic) and a LETOR data set (MQ2008 Fold1's test set,
with predictions and a ranking). Their sources and terms: ``cwlkit/data/README.md``.
"""

from __future__ import annotations

from importlib import resources

from ..errors import ParamError

#: what ``cwlkit.example(NAME)`` (and ``example:NAME`` on the command line) names -> the
#: file in the package's ``data`` folder
EXAMPLES: dict[str, str] = {
    "qrels": "example.qrels",
    "run": "example.run",
    "costs": "example.costs",
    "metrics": "example.metrics",
    "web2012.qrels": "web2012.qrels.gz",
    "web2012.ql.cata": "web2012.ql.cata.run.gz",
    "web2012.rm.cata": "web2012.rm.cata.run.gz",
    "web2012.ql.catb": "web2012.ql.catb.run.gz",
    "letor.features": "letor.MQ2008.Fold1.test.txt.gz",
    "letor.predictions": "letor.MQ2008.Fold1.test.pred.txt.gz",
    "letor.ranks": "letor.MQ2008.Fold1.test.ranks.txt.gz",
}

#: the command line's spelling of an example file: ``example:web2012.qrels``
PREFIX = "example:"


def example_path(name: str) -> str:
    """The path of the bundled example file ``name`` (a key of :data:`EXAMPLES`).

    Raises
    ------
    ParamError
        ``name`` is not one of the examples (the message lists them).
    """
    if not isinstance(name, str) or name not in EXAMPLES:
        names = ", ".join(EXAMPLES)
        raise ParamError(f"the example files are {names}; got {name!r}")
    return str(resources.files("cwlkit") / "data" / EXAMPLES[name])


def resolve_examples(argv: list[str]) -> list[str]:
    """Command-line arguments with every ``example:NAME`` (alone, or as an option's
    ``--opt=example:NAME``) replaced by the bundled file's path; other arguments unchanged.

    Raises
    ------
    ParamError
        An ``example:`` name that is not one of the examples.
    """
    out = []
    for tok in argv:
        if tok.startswith(PREFIX):
            tok = _path(tok)
        elif tok.startswith("-") and f"={PREFIX}" in tok:
            flag, value = tok.split("=", 1)
            tok = f"{flag}={_path(value)}"
        out.append(tok)
    return out


def _path(token: str) -> str:
    name = token[len(PREFIX) :]
    if name not in EXAMPLES:
        names = ", ".join(PREFIX + n for n in EXAMPLES)
        raise ParamError(f"{token}: no such example file (the examples are {names})")
    return example_path(name)
