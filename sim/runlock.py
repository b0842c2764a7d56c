"""One writer per run directory: every command that writes into a run (``sim.batch``,
``sim.report`` into the run, ``sim.decisions``, ``sim.play --save``, the runs of
``sim.compare``, ``sim.tournament``, ``sim.metagame``, ``sim.experiment`` and ``sim.design``;
``sim.metagame`` and ``sim.experiment`` their whole directory's too) holds the run's lock
(the file ``.lock``, a ``filelock`` lock) from before it writes anything to its end; a
second writer is refused with one line.

A batch run's writer writes its token into the lock file before its workers start; they
check, before they play a chunk and before they write it, that the token is still theirs and
its holder still holds the lock, and stop otherwise: a killed run leaves no worker writing
chunks.
"""

from __future__ import annotations

import os
import secrets
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock, Timeout

from sim.cli import UsageError

LOCK = ".lock"
# How long a writer waits for the lock before it is refused: long enough to let a worker's
# check (which takes the lock for an instant when its holder is gone) go by.
WAIT_SECONDS = 0.2


class RunInUse(UsageError):
    """The run directory is held by another writer (one line)."""


class RunAbandoned(RuntimeError):
    """A worker's run is no longer held by the process that started it."""


@dataclass(frozen=True)
class Owner:
    """The holder of a run's lock, as its workers know it."""

    run_dir: str
    token: str              # "<command> pid <pid> on <host> <random>"
    pid: int


def command_name() -> str:
    """The running command (``sim.batch`` for ``python -m sim.batch``), for the lock's
    token."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    name = getattr(spec, "name", None) or Path(sys.argv[0] or "python").name
    return name.removesuffix(".__main__")


@contextmanager
def writing(run_dir: str | os.PathLike, command: str | None = None) -> Iterator[Owner]:
    """Hold ``run_dir``'s lock while the block runs (the directory must exist); the token
    names ``command`` (default: the running one).  Raises :class:`RunInUse` naming the
    holder when another process has it, UsageError when the lock cannot be written."""
    command = command or command_name()
    folder = Path(run_dir)
    lock = FileLock(folder / LOCK)
    try:
        lock.acquire(timeout=WAIT_SECONDS)
    except Timeout:
        raise in_use(folder) from None
    except OSError as error:
        raise UsageError(f"cannot write to {folder}: {error.strerror}") from None
    try:
        yield Owner(str(folder), f"{command} pid {os.getpid()} on {socket.gethostname()} "
                                 f"{secrets.token_hex(8)}", os.getpid())
    finally:
        lock.release()


def claim(owner: Owner) -> None:
    """Write ``owner``'s token into its lock file, before its workers start (they check
    it); a command refused after taking the lock has written nothing."""
    (Path(owner.run_dir) / LOCK).write_text(owner.token + "\n", encoding="utf-8")


def check_free(run_dir: str | os.PathLike) -> None:
    """Raise :class:`RunInUse` when a writer holds ``run_dir`` (a directory without a lock
    file is free; nothing is written)."""
    folder = Path(run_dir)
    if not (folder / LOCK).is_file():
        return
    probe = FileLock(folder / LOCK)
    try:
        probe.acquire(timeout=WAIT_SECONDS)
    except Timeout:
        raise in_use(folder) from None
    except OSError:
        return
    probe.release()


def in_use(folder: Path) -> RunInUse:
    """The refusal of a second writer of ``folder``."""
    return RunInUse(f"{folder} is in use by another process (it holds {folder / LOCK}); "
                    f"wait for it to finish or choose another directory")


def still_owner(owner: Owner) -> bool:
    """Whether ``owner`` still holds its run's lock: its token is in the lock file and the
    lock is held (by this very process, or by one that is alive to hold it)."""
    path = Path(owner.run_dir) / LOCK
    try:
        if path.read_text(encoding="utf-8").strip() != owner.token:
            return False
    except OSError:
        return False
    if owner.pid == os.getpid():
        return True
    probe = FileLock(path)
    try:
        probe.acquire(timeout=0)
    except Timeout:
        return True             # held, and the token is the owner's
    except OSError:
        return False
    probe.release()
    return False


def check_owner(owner: Owner | None) -> None:
    """Raise :class:`RunAbandoned` unless ``owner`` (None: no check) still holds its run."""
    if owner is not None and not still_owner(owner):
        raise RunAbandoned(f"{owner.run_dir}: the run is no longer held by the process that "
                           f"started this worker; stopping without writing")
