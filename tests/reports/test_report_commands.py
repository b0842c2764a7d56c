"""The commands the reports print to reproduce their numbers: every one in every
``reports/*/README.md`` is a command the toolkit accepts as written (its experiment file,
meta-game, design search or judged run validated as the command validates it, nothing
played), so a reader who copies one gets the report's run and not an error."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from sim.batch.cli import build_parser as batch_parser
from sim.batch.cli import spec_from_args
from sim.decisions import build_parser as decisions_parser
from sim.design import build_parser as design_parser
from sim.design import design_from_args
from sim.experiment import Experiment
from sim.metagame import build_parser as metagame_parser
from sim.metagame import lineup_specs, settings_from_args
from sim.tournament import build_parser as tournament_parser

ROOT = Path(__file__).resolve().parents[2]
READMES = sorted((ROOT / "reports").glob("*/README.md"))
COMMAND = re.compile(r"`python -m (sim\.[a-z_]+) ([^`]+)`")


def commands(readme: Path) -> list[tuple[str, list[str]]]:
    """The ``python -m sim.X ARGS`` commands quoted in a report, each once."""
    found = dict.fromkeys(COMMAND.findall(readme.read_text(encoding="utf-8")))
    return [(module, shlex.split(args)) for module, args in found]


def elsewhere(argv: list[str], out: Path) -> list[str]:
    """The arguments with ``--out`` pointing at ``out`` (a fresh folder), so that validating
    does not meet the reader's own finished run."""
    argv = list(argv)
    if "--out" in argv:
        argv[argv.index("--out") + 1] = str(out)
    return argv


def check_experiment(argv: list[str], out: Path) -> None:
    [path] = [a for a in argv if a.endswith(".toml")]
    Experiment.load(ROOT / path)


def check_metagame(argv: list[str], out: Path) -> None:
    settings, _ = settings_from_args(metagame_parser().parse_args(elsewhere(argv, out)))
    lineup_specs(settings)


def check_design(argv: list[str], out: Path) -> None:
    argv = [str(ROOT / a) if a.endswith(".toml") else a for a in elsewhere(argv, out)]
    design_from_args(design_parser().parse_args(argv))


def check_batch(argv: list[str], out: Path) -> None:
    spec_from_args(batch_parser().parse_args(elsewhere(argv, out)))


def check_parsed(parser):
    def check(argv: list[str], out: Path) -> None:
        parser().parse_args(elsewhere(argv, out))
    return check


CHECKS = {"sim.experiment": check_experiment, "sim.metagame": check_metagame,
          "sim.design": check_design, "sim.batch": check_batch,
          "sim.decisions": check_parsed(decisions_parser),
          "sim.tournament": check_parsed(tournament_parser)}


def test_the_commands_are_found():
    assert COMMAND.findall("run `python -m sim.metagame g --players 3` (or `make x`)") == [
        ("sim.metagame", "g --players 3")]
    found = commands(ROOT / "reports" / "paris-damis" / "README.md")
    assert {module for module, _ in found} >= {"sim.experiment", "sim.metagame", "sim.design"}
    assert len(found) == len({(module, tuple(argv)) for module, argv in found})


@pytest.mark.parametrize("readme", READMES, ids=lambda p: p.parent.name)
def test_every_command_a_report_prints_is_accepted(readme, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    found = commands(readme)
    unknown = sorted({module for module, _ in found} - set(CHECKS))
    assert not unknown, f"{readme.parent.name}: commands this test cannot check: {unknown}"
    for i, (module, argv) in enumerate(found):
        try:
            CHECKS[module](argv, tmp_path / f"out-{i}")
        except (Exception, SystemExit) as error:
            pytest.fail(f"{readme.parent.name}: python -m {module} {shlex.join(argv)}: "
                        f"{error!r}")
