"""``python -m tests.mutants [NAME ...]``: do the tests catch broken rules?

Each mutant of ``tests/mutants.toml`` (a file, an original snippet, its mutated form, the
rule it breaks and the test files that should catch it) is applied to a temporary copy of
the repository, never to the working tree, and its test files are run there in a fresh
process.  A failing test *catches* the mutant; passing tests *miss* it.  The compiled cache
is keyed on a hash of the compiled sources (engines/__init__.py), so every mutant compiles
its own code: a mutant costs a compile of what its tests touch (a minute or three).

    python -m tests.mutants                     # every mutant, one at a time
    python -m tests.mutants paris-tie-last-placements tricks-led-beats-trump
    python -m tests.mutants --list              # names, files and rules
    python -m tests.mutants --jobs 2 --timeout 900

It prints one line per mutant (caught, missed, timeout or error, with its time) and the
score: caught / (caught + missed).  Exit status 0 when no mutant was missed, 1 otherwise, 2
for bad input (an unknown name, a snippet not found exactly once).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from sim.cli import Parser, UsageError, usage_error

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "tests" / "mutants.toml"
# What a copy needs to run the tests: the packages, the tests, the documented columns that
# the contract tests read, and the pytest settings.
COPIED = ("engines", "agents", "sim", "tests", "docs", "pyproject.toml")
IGNORED = shutil.ignore_patterns("__pycache__", ".numba-cache", ".pytest_cache", ".hypothesis")
CAUGHT, MISSED, TIMEOUT, ERROR = "caught", "missed", "timeout", "error"


@dataclass(frozen=True)
class Mutant:
    """One mutation: ``original`` replaced by ``mutated`` in ``file``, which breaks ``rule``
    and should make one of ``tests`` fail."""

    name: str
    file: str
    original: str
    mutated: str
    rule: str
    tests: tuple[str, ...]

    def apply(self, root: Path) -> None:
        """Mutate the copy of the repository at ``root``."""
        path = root / self.file
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(self.original, self.mutated), encoding="utf-8")


def load(path: Path = MUTANTS, root: Path = ROOT) -> list[Mutant]:
    """The mutants listed in ``path``, each checked against the sources under ``root``: its
    file and test files exist and its original snippet occurs exactly once."""
    with path.open("rb") as f:
        entries = tomllib.load(f)["mutant"]
    mutants = [Mutant(e["name"], e["file"], e["original"], e["mutated"], e["rule"],
                      tuple(e["tests"])) for e in entries]
    names = [m.name for m in mutants]
    for m in mutants:
        if names.count(m.name) > 1:
            raise UsageError(f"mutant {m.name!r} is listed twice in {path.name}")
        source = root / m.file
        if not source.is_file():
            raise UsageError(f"mutant {m.name}: no file {m.file}")
        found = source.read_text(encoding="utf-8").count(m.original)
        if found != 1:
            raise UsageError(f"mutant {m.name}: its original snippet occurs {found} times in "
                             f"{m.file} (it must occur exactly once)")
        missing = [t for t in m.tests if not (root / t.split("::")[0]).exists()]
        if missing:
            raise UsageError(f"mutant {m.name}: no test file {', '.join(missing)}")
    return mutants


def select(mutants: Sequence[Mutant], names: Sequence[str]) -> list[Mutant]:
    """The mutants named (all when none is), in the file's order."""
    known = {m.name for m in mutants}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise UsageError(f"unknown mutant {unknown[0]!r}; mutants: "
                         f"{', '.join(m.name for m in mutants)}")
    return [m for m in mutants if not names or m.name in names]


def copy_repository(where: Path) -> Path:
    """A copy of what the tests need, under ``where``."""
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, where / name, ignore=IGNORED)
        else:
            shutil.copy2(source, where / name)
    return where


def outcome(status: int) -> str:
    """What pytest's exit status says of a mutant: 1 (a test failed) caught, 0 missed, any
    other (no tests collected, an internal error, ...) an error of the setting."""
    return {0: MISSED, 1: CAUGHT}.get(status, ERROR)


def run(mutant: Mutant, timeout: float) -> tuple[str, float, str]:
    """Apply ``mutant`` to a fresh copy of the repository and run its tests there; returns
    the outcome, the seconds it took and the tail of pytest's output."""
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"mutant-{mutant.name}-") as tmp:
        root = copy_repository(Path(tmp))
        mutant.apply(root)
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
        env["PYTHONPATH"] = str(root)
        env["NUMBA_CACHE_DIR"] = str(Path(tmp) / "numba-cache")
        command = [sys.executable, "-m", "pytest", *mutant.tests, "-x", "-q",
                   "-p", "no:cacheprovider", "-m", "not slow"]
        try:
            done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            return TIMEOUT, time.monotonic() - started, ""
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-3:])
        return outcome(done.returncode), time.monotonic() - started, tail


def score_line(outcomes: Sequence[str]) -> str:
    """The score: caught / (caught + missed), with the timeouts and errors apart."""
    caught, missed = outcomes.count(CAUGHT), outcomes.count(MISSED)
    judged = caught + missed
    share = f" ({100 * caught / judged:.0f}%)" if judged else ""
    extra = "".join(f", {outcomes.count(k)} {k}" for k in (TIMEOUT, ERROR) if k in outcomes)
    return f"score: {caught}/{judged} caught{share}{extra}"


def parser() -> Parser:
    p = Parser(prog="python -m tests.mutants",
               description="Apply each curated rule mutation (tests/mutants.toml) to a "
                           "temporary copy of the repository and run its tests there: "
                           "caught when a test fails, missed when they pass.")
    p.add_argument("names", nargs="*", metavar="NAME",
                   help="mutants to run (default: every one)")
    p.add_argument("--list", action="store_true", help="list the mutants and exit")
    p.add_argument("--jobs", type=int, default=1,
                   help="mutants run at once (default 1; each compiles on one core)")
    p.add_argument("--timeout", type=float, default=1800.0,
                   help="seconds a mutant's tests may take before it counts as a timeout "
                        "(default 1800)")
    p.add_argument("--verbose", action="store_true",
                   help="show the end of pytest's output for each mutant")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = parser().parse_args(argv)
        if args.jobs < 1:
            raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
        if args.timeout <= 0:
            raise UsageError(f"--timeout must be above 0, got {args.timeout:g}")
        chosen = select(load(), args.names)
    except UsageError as error:
        return usage_error("tests.mutants", error)
    if args.list:
        for m in chosen:
            print(f"{m.name:32} {m.file}: {m.rule}")
        return 0
    width = max(len(m.name) for m in chosen)
    outcomes = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for m, (result, seconds, tail) in zip(
                chosen, pool.map(lambda m: run(m, args.timeout), chosen), strict=True):
            outcomes.append(result)
            print(f"{result:8} {m.name:{width}} {seconds:6.0f} s  {m.rule}", flush=True)
            if args.verbose or result == ERROR:
                print("    " + tail.replace("\n", "\n    "), flush=True)
    print(score_line(outcomes))
    return 1 if MISSED in outcomes else 0


if __name__ == "__main__":
    sys.exit(main())
