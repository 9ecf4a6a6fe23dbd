"""A tqdm progress bar on stderr when stderr is a terminal, and nothing otherwise (pipes, logs and
tests see only the report). SQLSIM_PROGRESS=0 turns it off, =1 forces it on and draws every update
(callers update once per slice of work, so logs stay short and what they show does not depend on
how fast the machine is)."""

from __future__ import annotations

import os
import sys


class _Silent:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n=1):
        pass

    def set_postfix_str(self, text):
        pass


def forced() -> bool:
    return os.environ.get("SQLSIM_PROGRESS") == "1"


def enabled() -> bool:
    setting = os.environ.get("SQLSIM_PROGRESS")
    if setting in ("0", "1"):
        return setting == "1"
    return sys.stderr.isatty()


def progress(total: int, desc: str, unit: str = "it", initial: int = 0):
    if not enabled():
        return _Silent()
    try:
        from tqdm import tqdm
    except ImportError:  # tqdm is a dependency of the wheel; a bare checkout may lack it
        return _Silent()
    every_update = {"mininterval": 0, "miniters": 1} if forced() else {}
    return tqdm(total=total, desc=desc, unit=unit, initial=initial, file=sys.stderr, dynamic_ncols=True,
                leave=False, **every_update)
