"""Progress bars on stderr for long work (many runs, many Monte-Carlo samples).

A bar is drawn with tqdm (the optional extra ``progress``) only when stderr is a terminal,
and only for work that lasts longer than half a second (tqdm's ``delay``). The environment
variable ``CWLKIT_PROGRESS`` overrides the terminal check: ``1`` always draws, ``0`` never.
Without tqdm nothing is drawn. Nothing here is imported by ``import cwlkit``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

#: seconds of work before a bar appears (quick work shows nothing)
DELAY = 0.5


def enabled(enable: bool | None = None) -> bool:
    """Whether to draw: ``enable`` if given, else ``CWLKIT_PROGRESS``, else stderr is a TTY."""
    if enable is not None:
        return bool(enable)
    env = os.environ.get("CWLKIT_PROGRESS", "").strip()
    if env in ("0", "1"):
        return env == "1"
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # closed or replaced stream
        return False


def make_bar(total: float | None, desc: str, unit: str, enable: bool | None) -> Any:
    if not enabled(enable):
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # the extra is not installed: no bar
        return None
    forced = enable is True or os.environ.get("CWLKIT_PROGRESS", "").strip() == "1"
    return tqdm(
        total=total,
        desc=desc,
        unit=unit,
        file=sys.stderr,
        leave=False,
        dynamic_ncols=True,
        delay=0.0 if forced else DELAY,
        disable=False,
    )


def track(
    items: Iterable[T],
    *,
    total: float | None = None,
    desc: str = "",
    unit: str = "it",
    size: Callable[[T], float] | None = None,
    enable: bool | None = None,
) -> Iterator[T]:
    """Yield ``items``, advancing a bar by ``size(item)`` (default 1) after each one.

    The bar is removed when the loop ends (or is left early).
    """
    bar = make_bar(total, desc, unit, enable)
    if bar is None:
        yield from items
        return
    try:
        for item in items:
            yield item
            bar.update(size(item) if size is not None else 1)
    finally:
        bar.close()
