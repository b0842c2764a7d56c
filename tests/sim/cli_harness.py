"""Run any ``python -m sim.*`` command's ``main(argv)`` in process, in a fresh working
directory, with its work (playing games, compiling, searching) replaced by a marker that
says the input was accepted: what a bad input does is then seen in milliseconds.

This module holds no tests; ``test_cli_inputs.py`` drives it with hypothesis, and running it
(``python -m tests.sim.cli_harness``) throws a fixed list of bad inputs at every command and
lists the tracebacks and the inputs wrongly accepted (the survey of issue 26).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock


class Accepted(BaseException):
    """Raised in place of a command's work: every check of the input passed (not an
    Exception, so that no command's own handler of failed work catches it)."""


def _accept(*args: Any, **kwargs: Any) -> Any:
    raise Accepted


# The work of each command, replaced by _accept: module -> names in it.  Everything a
# command does before these is validation, and must end in exit status 0 or 2.
WORK: dict[str, tuple[str, ...]] = {
    "sim.batch.cli": ("play_run",),
    "sim.compare": ("play_variants", "compare"),
    "sim.replay": ("replay",),
    "sim.play": ("play",),
    "sim.tournament": ("play_tournament",),
    "sim.metagame": ("play_lineups",),
    "sim.tune": ("open_study",),
    "sim.experiment": ("run_experiment",),
    "sim.design": ("open_design_study",),
    "sim.decisions": ("judged_run",),
    "sim.compile": ("Parallel",),
    "sim.bench": ("bench_kernel", "bench_python", "bench_search_table",
                  "bench_search_decisions", "bench_all_cores"),
}

# Each command and the module holding its main().
COMMANDS: dict[str, str] = {
    "sim.batch": "sim.batch.cli", "sim.compare": "sim.compare", "sim.report": "sim.report",
    "sim.replay": "sim.replay", "sim.play": "sim.play", "sim.tournament": "sim.tournament",
    "sim.metagame": "sim.metagame", "sim.tune": "sim.tune",
    "sim.experiment": "sim.experiment", "sim.design": "sim.design",
    "sim.decisions": "sim.decisions", "sim.compile": "sim.compile", "sim.bench": "sim.bench",
    "sim.export": "sim.export",
}


@dataclass(frozen=True)
class Outcome:
    """What one command line did."""

    status: int | None          # exit status (None: a traceback)
    accepted: bool              # reached the work
    stderr: str
    error: str = ""             # the traceback's last line
    written: tuple[str, ...] = ()

    @property
    def traceback(self) -> bool:
        return self.status is None


def listing(root: Path) -> set[str]:
    """Every file and folder under ``root``, relative."""
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@contextlib.contextmanager
def inside(folder: Path) -> Iterator[None]:
    """Run with ``folder`` as the working directory."""
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def run(command: str, argv: list[str], cwd: Path) -> Outcome:
    """Run ``command``'s main(argv) in ``cwd`` with its work replaced (see WORK)."""
    module = importlib.import_module(COMMANDS[command])
    patches = [mock.patch(f"{name}.{attr}", _accept) for name, attrs in WORK.items()
               if name == module.__name__ for attr in attrs]
    err, out = io.StringIO(), io.StringIO()
    before = listing(cwd)
    accepted, status, error = False, None, ""
    with contextlib.ExitStack() as stack:
        for p in patches:
            stack.enter_context(p)
        stack.enter_context(inside(cwd))
        stack.enter_context(contextlib.redirect_stderr(err))
        stack.enter_context(contextlib.redirect_stdout(out))
        try:
            kwargs = {"stdin": io.StringIO("")} if command == "sim.play" else {}
            status = module.main(list(argv), **kwargs)
        except Accepted:
            accepted, status = True, 0
        except SystemExit as stop:
            status = stop.code if isinstance(stop.code, int) else (0 if stop.code is None
                                                                   else 2)
        except Exception:                   # what the property test forbids
            error = traceback.format_exc().strip().splitlines()[-1]
    written = tuple(sorted(listing(cwd) - before))
    return Outcome(status, accepted, err.getvalue(), error, written)


# --------------------------------------------------------------------------------------
# The survey: bad inputs every command must refuse with one line and status 2
# --------------------------------------------------------------------------------------
GAME = "paris-damis"
COMMON = [["--games", "1e3"], ["--games", "0"], ["--games", "-5"], ["--games", "1.5"],
          ["--games", "10000000000000"], ["--seed", "-1"], ["--seed", str(2**64)],
          ["--jobs", "0"], ["--jobs", "-1"], ["--jobs", "100000"], ["--players", "0"],
          ["--players", "99"], ["--agents", ""], ["--agents", ","], ["--variant", ""],
          ["--variant", "jokers=nan"], ["--out", ""], ["--format", "xml"]]


def survey_inputs(command: str) -> list[list[str]]:
    """About twenty bad command lines for ``command``."""
    by_game = {"sim.batch", "sim.compare", "sim.tournament", "sim.metagame", "sim.tune",
               "sim.decisions", "sim.replay", "sim.play", "sim.design", "sim.bench"}
    lines: list[list[str]] = [[""], ["--nope"], ["no-such-game"]]
    head = [GAME]
    if command == "sim.compare":
        head = [GAME, "--variant", "a:jokers=0", "--variant", "b:jokers=1"]
    if command in ("sim.tournament", "sim.metagame"):
        head = [GAME, "--agents", "random,greedy"]
    if command == "sim.tune":
        head = [GAME, "--agent", "greedy"]
    if command == "sim.experiment":
        head = ["exp.toml"]
    if command in ("sim.report", "sim.export"):
        head = ["run"]
    if by_game or command in ("sim.experiment", "sim.report", "sim.export"):
        lines += [head + extra for extra in COMMON]
    extras = {
        "sim.play": [["--pace", "inf"], ["--pace", "nan"], ["--seat", "-1"]],
        "sim.metagame": [["--alpha", "inf"], ["--alpha", "nan"], ["--bootstrap", "-1"]],
        "sim.decisions": [["--margin", "nan"], ["--tries", "1e2"]],
        "sim.design": [["--trials", "0"], ["--games-per-trial", "1e3"],
                       ["--players", "3,,4"], ["--space", ""]],
        "sim.bench": [["--repeat", "0"], ["--batch-games", "-1"]],
        "sim.compile": [["--jobs", "0"], ["--jobs", "-3"], ["--jobs", "1e2"]],
        "sim.report": [["run", "--out", ""]],
        "sim.export": [["run", "--table", ""], ["run", "--format", "pdf"]],
        "sim.replay": [[GAME, "--index", "-1"], [GAME, "--game", "1e3"]],
        "sim.tune": [[GAME, "--agent", "greedy", "--save", "../x"],
                     [GAME, "--agent", "greedy", "--trials", "0"]],
    }
    return lines + [head + e if e[0].startswith("--") else e for e in extras.get(command, [])]


EXPERIMENTS = {
    "games-float": 'title="t"\nquestion="q"\ngame="paris-damis"\ngames=1e9\n',
    "games-text": 'title="t"\nquestion="q"\ngame="paris-damis"\ngames="many"\n',
    "seed-negative": 'title="t"\nquestion="q"\ngame="paris-damis"\nseed=-4\n',
    "players-table": 'title="t"\nquestion="q"\ngame="paris-damis"\n[players]\nk=3\n',
    "players-text": 'title="t"\nquestion="q"\ngame="paris-damis"\nplayers="3"\n',
    "lineups-number": 'title="t"\nquestion="q"\ngame="paris-damis"\nlineups=[3]\n',
    "variants-table": 'title="t"\nquestion="q"\ngame="paris-damis"\n[variants]\nname="a"\n',
    "variant-escape": 'title="t"\nquestion="q"\ngame="paris-damis"\n'
                      '[[variants]]\nname="../../escape"\n',
    "variant-params-list": 'title="t"\nquestion="q"\ngame="paris-damis"\n'
                           '[[variants]]\nname="a"\nparams=[1]\n',
    "tournament-list": 'title="t"\nquestion="q"\ngame="paris-damis"\ntournament=[1]\n',
    "tournament-games": 'title="t"\nquestion="q"\ngame="paris-damis"\n'
                        '[tournament]\nagents=["random","greedy"]\ngames="x"\n',
    "game-number": 'title="t"\nquestion="q"\ngame=3\n',
    "no-title": 'question="q"\ngame="paris-damis"\n',
    "analyses-text": 'title="t"\nquestion="q"\ngame="paris-damis"\nanalyses="x"\n',
    "bad-agent": 'title="t"\nquestion="q"\ngame="paris-damis"\nlineups=["nobody"]\n',
    "empty-lineup": 'title="t"\nquestion="q"\ngame="paris-damis"\nlineups=[""]\n',
}

DESIGNS = {
    "players-text": 'game="paris-damis"\nplayers="x"\nspace={jokers=true}\n',
    "players-table": 'game="paris-damis"\n[players]\na=1\n[space]\njokers=true\n',
    "trials-float": 'game="paris-damis"\ntrials=1e3\n[space]\njokers=true\n',
    "seed-negative": 'game="paris-damis"\nseed=-1\n[space]\njokers=true\n',
    "space-number": 'game="paris-damis"\nspace=3\n',
    "space-min-text": 'game="paris-damis"\n[space]\njokers={min="a",max=2}\n',
    "variant-number": 'game="paris-damis"\nvariant=3\n[space]\njokers=true\n',
    "agents-number": 'game="paris-damis"\nagents=[1,2]\n[space]\njokers=true\n',
    "game-list": 'game=["paris-damis"]\n[space]\njokers=true\n',
    "sampler-number": 'game="paris-damis"\nsampler=1\n[space]\njokers=true\n',
    "objectives-number": 'game="paris-damis"\nobjectives=3\n[space]\njokers=true\n',
}


def survey(cwd: Path) -> dict[str, list[tuple[list[str], Outcome]]]:
    """Every command's bad inputs and what each did; files written by the experiment and
    design cases are removed between cases."""
    found: dict[str, list[tuple[list[str], Outcome]]] = {}
    for command in COMMANDS:
        found[command] = [(argv, run(command, argv, cwd)) for argv in survey_inputs(command)]
    for name, files, command in (("exp", EXPERIMENTS, "sim.experiment"),
                                 ("design", DESIGNS, "sim.design")):
        for case, text in files.items():
            path = cwd / f"{name}-{case}.toml"
            path.write_text(text)
            argv = [path.name, "--out", f"out-{case}"]
            found[command].append((argv, run(command, argv, cwd)))
            path.unlink()
    return found


def main() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "exp.toml").write_text(
            'title="t"\nquestion="q"\ngame="paris-damis"\ngames=10\n')
        found = survey(Path(folder))
    total = tracebacks = accepted = clean = 0
    for command, outcomes in found.items():
        for argv, o in outcomes:
            total += 1
            if o.traceback:
                tracebacks += 1
                print(f"TRACEBACK {command} {argv}: {o.error}")
            elif o.accepted or o.status == 0:
                accepted += 1
                print(f"ACCEPTED  {command} {argv}")
            elif o.status == 2 and o.stderr.count("\n") == 1 and not o.written:
                clean += 1
            else:
                print(f"UNCLEAN   {command} {argv}: status {o.status}, written {o.written}, "
                      f"{o.stderr.strip()[:200]!r}")
    print(f"{total} bad inputs: {clean} one line and status 2, {tracebacks} tracebacks, "
          f"{accepted} accepted, {total - clean - tracebacks - accepted} unclean")


if __name__ == "__main__":
    main()
