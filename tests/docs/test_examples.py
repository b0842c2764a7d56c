"""The examples of the newcomers' guides (docs/write-a-bot.md, docs/add-a-variant.md,
docs/add-a-game.md): the code the pages show is the code of docs/examples/ (or of the
sources a page quotes), and the examples run as the pages say."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import agents
import engines
import sim
from sim import results
from sim.runner import play_python
from tests.sim.test_batch_support import ROOT, load_sorted

DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"
PAGES = ["write-a-bot.md", "add-a-variant.md", "add-a-game.md"]
# the sources a page may quote in excerpts (blocks with "...")
QUOTED = [*EXAMPLES.rglob("*.py"), *(ROOT / "engines" / "games" / "paris_damis").glob("*.py")]


def blocks(page: str, language: str) -> list[str]:
    """The page's fenced code blocks in ``language``."""
    text = (DOCS / page).read_text(encoding="utf-8")
    return [b for b in re.findall(rf"^ *```{language}\n(.*?)^ *```", text, re.S | re.M)]


def run_example(*args: str, cwd: Path = EXAMPLES, extra_env: dict[str, str] | None = None,
                timeout: float = 900) -> subprocess.CompletedProcess:
    """``python ARGS`` in ``cwd`` as a newcomer runs it: the project importable, the
    folder of the examples the current one."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    env = os.environ | {"PYTHONPATH": path} | (extra_env or {})
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)


@pytest.fixture
def examples_on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLES))
    yield
    for name in [m for m in sys.modules if m.split(".")[0] in ("my_bots", "my_games")]:
        del sys.modules[name]


@pytest.mark.parametrize("page", PAGES)
def test_the_code_a_page_shows_is_the_code_that_runs(page):
    sources = {path: path.read_text(encoding="utf-8") for path in QUOTED}
    shown = blocks(page, "python")
    assert shown, page
    for block in shown:
        if "..." not in block:          # a whole file or a whole definition, verbatim
            assert any(block.strip() in text for text in sources.values()), block
            continue
        quoted = " ".join(sources.values())     # an excerpt: every line it quotes exists
        for line in block.splitlines():
            if line.strip() and "..." not in line:
                assert line.strip() in quoted, (page, line)


def test_the_ten_line_bot_is_ten_lines_and_bets_two(examples_on_path):
    bot_block = blocks("write-a-bot.md", "python")[0]
    assert len([line for line in bot_block.splitlines() if line.strip()]) <= 10
    bot = agents.load("my_bots:BetTwo", game="paris-damis")
    game = engines.load("paris-damis", players=3)
    seen: list[tuple[list[str], str]] = []

    class Watch:
        def act(self, observation, legal_actions, rng):
            action = bot.act(observation, legal_actions, rng)
            seen.append(([a.text for a in legal_actions], action.text))
            return action

    play_python(game, [Watch(), agents.load("random"), agents.load("random")], seed=0, index=2)
    could_bet_two = [(legal, played) for legal, played in seen if "bet 2" in legal]
    assert could_bet_two and all(played == "bet 2" for _, played in could_bet_two)


def test_play_one_prints_the_game_the_python_api_plays(examples_on_path):
    done = run_example("play_one.py")
    assert done.returncode == 0, done.stderr
    game = engines.load("paris-damis", players=3)
    bots = [agents.load("my_bots:BetTwo"), agents.load("greedy"), agents.load("random")]
    ranks = play_python(game, bots, seed=0, index=7).result().ranks
    assert done.stdout.strip() == str(tuple(ranks))


@pytest.mark.slow
def test_the_command_lines_of_write_a_bot_run(tmp_path):
    commands = [line for block in blocks("write-a-bot.md", "sh") for line in block.splitlines()
                if line.startswith("python -m sim.")]
    assert [c.split()[2] for c in commands][:3] == ["sim.tournament", "sim.batch", "sim.replay"]
    for command in commands[:3]:
        words = command.replace("runs/bettwo", str(tmp_path / "bettwo")).split()
        if "--games" in words:          # the page's games, fewer
            words[words.index("--games") + 1] = "24"
        if words[2] == "sim.tournament":
            words += ["--out", str(tmp_path / "tournament")]
        done = run_example(*words[1:], cwd=EXAMPLES)
        assert done.returncode == 0, (command, done.stderr)
    manifest = results.read_manifest(tmp_path / "bettwo")
    assert manifest["spec"]["agents"] == ["my_bots:BetTwo", "random", "greedy"]
    assert "my_bots:BetTwo" in done.stdout.splitlines()[0]      # the replay's header


@pytest.mark.slow
def test_the_python_tournament_example_runs(tmp_path):
    done = run_example("tournament.py", str(tmp_path / "t"))
    assert done.returncode == 0, done.stderr
    lineups = {p.name for p in (tmp_path / "t").iterdir() if (p / results.MANIFEST).is_file()}
    # every table of three seats with at least two different bots: 10 - 3 mirror tables,
    # 5 of them with BetTwo
    assert len(lineups) == 7 and all(len(set(name.split("+"))) > 1 for name in lineups)
    assert sum("my_bots:BetTwo" in name.split("+") for name in lineups) == 5
    assert (tmp_path / "t" / "tournament.json").is_file()


def test_a_profile_of_ones_own_bot_plays_its_parameters(tmp_path, examples_on_path):
    toml = next(b for b in blocks("write-a-bot.md", "toml") if "FixedBet" in b)
    (tmp_path / "paris-damis.toml").write_text(toml)
    done = run_example("-m", "sim.batch", "paris-damis", "--agents",
                       "my_bots:FixedBet@low,random,greedy,cautious", "--games", "12",
                       "--jobs", "1", "--out", str(tmp_path / "run"), "--no-progress",
                       extra_env={"TAPIS_VERT_PROFILES": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    manifest = results.read_manifest(tmp_path / "run")
    assert manifest["agent_params"] == {"my_bots:FixedBet@low": {"bet": "1",
                                                                 "aim": "own-suit"}}
    rounds = load_sorted(tmp_path / "run")["rounds"]
    players = load_sorted(tmp_path / "run")["players"]
    mine = players[players.agent == "my_bots:FixedBet@low"][["game_id", "seat"]]
    bets = rounds.merge(mine, on=["game_id", "seat"])["bet"]
    assert len(bets) and (bets == 1).all()


def test_the_variant_example_documents_refuses_and_measures(examples_on_path):
    done = run_example("variant.py")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("column_tie=first-placed [A4] tie for a column")
    assert "valid values: first-placed, last-placed, nobody" in lines[1]
    measured = [line.split(":")[0].strip() for line in lines[2:]]
    assert measured == ["first-placed", "last-placed", "nobody"]


@pytest.mark.slow
def test_a_plugin_game_registers_and_plays_on_worker_processes(tmp_path, monkeypatch):
    done = run_example("register_game.py", str(tmp_path / "run"))
    assert done.returncode == 0, done.stderr
    monkeypatch.syspath_prepend(str(EXAMPLES))      # reading its run imports the game
    assert done.stdout.startswith("Le pouilleux à 32 cartes")
    manifest = results.read_manifest(tmp_path / "run")
    assert manifest["spec"]["game"] == "pouilleux-32"
    assert manifest["spec"]["game_source"] == "my_games.pouilleux32:Pouilleux32"
    assert manifest["spec"]["params"]["deck"] == "32" and manifest["backend"] == "loky"
    games = sim.load(tmp_path / "run", "games")
    assert sorted(games.game_id) == list(range(40))
