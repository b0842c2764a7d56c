"""What every ``python -m sim.*`` command shares: bad input is one line and exit status 2."""

from __future__ import annotations

import argparse


class UsageError(Exception):
    """Bad input: one line for the user, exit status 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors raise :class:`UsageError` (the command prints it as
    one line and exits with status 2) instead of printing the usage."""

    def error(self, message: str) -> None:
        raise UsageError(message)
