"""Find headless Chromium for the browser tests, installing Debian's package when allowed.

Used by ``test_report_browser.py``'s session fixture. Chromium is installed with
``apt-get install -y chromium`` only when it is missing, ``apt-get`` exists, we are root and
installing is allowed: under CI (``CI`` set), with ``CWLKIT_INSTALL_CHROMIUM=1``, or in a
container (``/.dockerenv`` or ``/run/.containerenv``). ``CWLKIT_INSTALL_CHROMIUM=0`` forbids
it. Otherwise the tests skip, and :func:`find_chromium` says why.
"""

from __future__ import annotations

import os
import shutil
import subprocess

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def _which() -> str | None:
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


def _install_allowed() -> tuple[bool, str]:
    flag = os.environ.get("CWLKIT_INSTALL_CHROMIUM", "")
    if flag == "0":
        return False, "CWLKIT_INSTALL_CHROMIUM=0 forbids installing it"
    if shutil.which("apt-get") is None:
        return False, "there is no apt-get to install Debian's chromium package with"
    if os.geteuid() != 0:
        return (
            False,
            "installing Debian's chromium package needs root (apt-get install -y chromium)",
        )
    container = os.path.exists("/.dockerenv") or os.path.exists("/run/.containerenv")
    if os.environ.get("CI") or flag == "1" or container:
        return True, ""
    return False, "set CWLKIT_INSTALL_CHROMIUM=1 (or CI) to let the tests install it"


def find_chromium(timeout: float = 900.0) -> tuple[str | None, str]:
    """``(path, "")`` of a Chromium binary, installing it when allowed, or ``(None, reason)``."""
    path = _which()
    if path:
        return path, ""
    ok, why = _install_allowed()
    if not ok:
        return None, f"headless Chromium is not installed and {why}"
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (
        ["apt-get", "install", "-y", "-q", "--no-install-recommends", "chromium"],
        ["apt-get", "update", "-q"],
        ["apt-get", "install", "-y", "-q", "--no-install-recommends", "chromium"],
    ):
        try:
            proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return None, f"'{' '.join(cmd)}' failed: {exc}"
        path = _which()
        if path:
            return path, ""
        if proc.returncode != 0 and cmd[1] == "update":
            tail = proc.stderr.strip().splitlines()[-1:] or ["?"]
            return None, f"apt-get update failed: {tail[0]}"
    return None, "apt-get install -y chromium did not install a chromium binary"


if (
    __name__ == "__main__"
):  # pragma: no cover - manual use: python tests/comparison/chromium_setup.py
    print(find_chromium())
