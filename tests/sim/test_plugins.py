"""Plugins: bots of one's own named ``package.module:Class``, registered with
``agents.register`` or declared by an installed package's entry points, in every command and
on every backend (worker processes rebuild them from the import path the run records); games
added the same way; the one-line errors."""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import shutil
import sys
from functools import partial
from pathlib import Path

import pytest

import agents
import engines
import sim.experiment as experiment
import sim.play as play
import sim.tournament as tournament
from engines.core import plugins
from sim import results
from sim.batch.seating import seating
from sim.batch.spec import RunSpec
from sim.runner import play_python
from tests.sim.test_batch_support import batch_main, call_main, load_sorted, replay_main

tournament_main = partial(call_main, tournament.main)

BOT = '''
from dataclasses import dataclass

from engines.core.params import Params, param


class Lean:
    """The highest action code, or with chance 1/2 a random legal action."""

    name = "lean"

    def act(self, observation, legal_actions, rng):
        if rng.random() < 0.5:
            return legal_actions[int(rng.integers(len(legal_actions)))]
        return max(legal_actions, key=lambda a: a.code)


def make_lean():
    return Lean()


class NotABot:
    pass


@dataclass(frozen=True)
class PickyParams(Params):
    game = "picky"
    bet: int = param(1, "the bet it makes", min=1, max=4)


class Picky(Lean):
    Params = PickyParams

    def __init__(self, **options):
        self.params = self.Params.from_kwargs(**options)

    def act(self, observation, legal_actions, rng):
        for action in legal_actions:
            if action.text == f"bet {self.params.bet}":
                return action
        return super().act(observation, legal_actions, rng)


class OnlyRikiki(Lean):
    games = ("rikiki",)
'''
PATH = "tests_pkg.mod:Lean"


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """A package ``tests_pkg`` on the Python path (of this process and of its children)."""
    root = tmp_path / "plugin-root"
    (root / "tests_pkg").mkdir(parents=True)
    (root / "tests_pkg" / "__init__.py").write_text("")
    (root / "tests_pkg" / "mod.py").write_text(BOT)
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        p for p in (str(root), os.environ.get("PYTHONPATH")) if p))
    monkeypatch.setattr(agents, "_REGISTERED", {})
    monkeypatch.setattr(engines, "_REGISTERED", {})
    importlib.invalidate_caches()
    yield root
    for name in [m for m in sys.modules if m == "tests_pkg" or m.startswith("tests_pkg.")]:
        del sys.modules[name]


def batch(out: Path, agent_list: str, *extra: object) -> tuple[int, str, str]:
    return batch_main("paris-damis", "--games", 24, "--players", 3, "--agents", agent_list,
                      "--chunk-size", 6, "--seed", 3, "--out", out, "--no-progress",
                      "--format", "json", *extra)


def test_a_bot_named_by_import_path_plays_through_the_python_api(plugin, tmp_path):
    code, _, err = batch(tmp_path / "run", f"{PATH},random,greedy", "--jobs", 1,
                         "--backend", "threads")
    assert code == 0, err
    manifest = results.read_manifest(tmp_path / "run")
    assert manifest["spec"]["agents"] == [PATH, "random", "greedy"]
    assert manifest["kernel"] is False
    players = load_sorted(tmp_path / "run")["players"]
    assert set(players.agent) == {PATH, "random", "greedy"}
    # the same games as the bot loaded by hand, game by game
    game = engines.load("paris-damis", players=3)
    spec = RunSpec.from_json(manifest["spec"])
    bots = [agents.load(a, game="paris-damis") for a in spec.agents]
    for index in (0, 7, 23):
        seats = seating(spec, index, 1)[0]
        final = play_python(game, [bots[a] for a in seats], spec.seed, index)
        ranks = players[players.game_id == index].sort_values("seat")["rank"].tolist()
        assert ranks == list(final.result().ranks)


def tables_on(backend: str, jobs: int, out: Path) -> dict:
    """The tables of a run of a bot by import path and a registered one, on ``backend``."""
    code, _, err = batch(out, f"{PATH},leaner,random", "--jobs", jobs, "--backend", backend)
    assert code == 0, err
    return load_sorted(out)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["loky", "dask"])
def test_plugin_bots_give_the_same_tables_on_threads_and_in_worker_processes(
        plugin, tmp_path, backend):
    # one bot by import path, one by a name registered in this process only: the worker
    # processes rebuild both from the import paths the spec carries
    if backend == "dask":
        pytest.importorskip("distributed")
    assert agents.register("leaner", "tests_pkg.mod:make_lean") == "tests_pkg.mod:make_lean"
    threads = tables_on("threads", 1, tmp_path / "threads")
    workers = tables_on(backend, 2, tmp_path / backend)
    for name in threads:
        assert threads[name].equals(workers[name]), name
    manifest = results.read_manifest(tmp_path / backend)
    assert manifest["spec"]["agent_sources"] == {"leaner": "tests_pkg.mod:make_lean"}
    assert manifest["backend"] == backend

    # a fresh process knows nothing of the registration: the manifest rebuilds it
    agents._REGISTERED.clear()
    code, out, err = replay_main(tmp_path / backend, "--game", 5)
    assert code == 0, err
    seats = out.splitlines()[0]
    assert "leaner" in seats and PATH in seats
    ranks = threads["players"][threads["players"].game_id == 5].sort_values("seat")["rank"]
    replayed = [int(line.split()[1]) for line in out.splitlines()
                if line.strip().startswith("rank ")]
    replayed_seats = [int(line.split()[3]) for line in out.splitlines()
                      if line.strip().startswith("rank ")]
    assert dict(zip(replayed_seats, replayed, strict=True)) == dict(enumerate(ranks.tolist()))


def test_replay_from_a_seed_takes_a_bot_by_import_path(plugin):
    code, out, err = replay_main("paris-damis", "--players", 2, "--agents", f"{PATH},random",
                                 "--index", 4, "--seed", 9)
    assert code == 0, err
    assert out.splitlines()[0] == f"paris-damis, seed 9, game 4: seat 0 {PATH}, seat 1 random"


def test_a_tournament_rates_a_plugin_bot(plugin, tmp_path):
    code, _, err = tournament_main("paris-damis", "--agents", f"random,{PATH}", "--players", 2,
                                   "--games", 40, "--jobs", 1, "--no-progress",
                                   "--out", tmp_path / "t")
    assert code == 0, err
    lineups = sorted(p.name for p in (tmp_path / "t").iterdir()
                     if (p / results.MANIFEST).is_file())
    assert lineups == [f"random+{PATH}"]
    standings = json.loads((tmp_path / "t" / "tournament.json").read_text())
    assert PATH in json.dumps(standings)


def test_a_plugin_bot_plays_a_profile(plugin, tmp_path, monkeypatch):
    profiles = tmp_path / "profiles"
    profiles.mkdir()
    (profiles / "paris-damis.toml").write_text('["tests_pkg.mod:Picky".two]\nbet = 2\n')
    monkeypatch.setenv("TAPIS_VERT_PROFILES", str(profiles))
    bot = agents.load("tests_pkg.mod:Picky@two", game="paris-damis")
    assert bot.params.bet == 2
    code, _, err = batch(tmp_path / "run", "tests_pkg.mod:Picky@two,random,random",
                         "--jobs", 1, "--backend", "threads")
    assert code == 0, err
    manifest = results.read_manifest(tmp_path / "run")
    assert manifest["agent_params"] == {"tests_pkg.mod:Picky@two": {"bet": "2"}}
    code, _, err = batch(tmp_path / "bad", "tests_pkg.mod:Picky@three", "--jobs", 1)
    assert code == 2 and "unknown profile 'three'" in err and "Picky@two" in err


@pytest.mark.parametrize("name, message", [
    ("no_such_pkg.mod:Bot", "cannot import no_such_pkg.mod (ModuleNotFoundError"),
    ("tests_pkg.mod:Missing", "tests_pkg.mod has no attribute 'Missing'"),
    ("tests_pkg.mod:NotABot", "tests_pkg.mod:NotABot is not an agent"),
    ("tests_pkg.mod:OnlyRikiki", "plays rikiki, not paris-damis"),
    ("tests_pkg.mod:", "is not an import path"),
])
def test_a_bad_plugin_is_one_line_and_exit_2_in_every_command(plugin, tmp_path, name, message):
    for command, args in [(batch_main, ("paris-damis", "--agents", name)),
                          (replay_main, ("paris-damis", "--agents", name)),
                          (tournament_main, ("paris-damis", "--agents", f"random,{name}"))]:
        out = tmp_path / "out"
        code, stdout, err = command(*args, "--out", out) if command is not replay_main \
            else command(*args)
        assert code == 2, (command, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and message in lines[0], err
        assert not out.exists()


def test_register_refuses_what_other_processes_cannot_rebuild(plugin):
    class Local:
        def act(self, observation, legal_actions, rng):
            return legal_actions[0]

    with pytest.raises(ValueError, match="cannot be found again by import path"):
        agents.register("local", Local)
    with pytest.raises(ValueError, match="built-in agent"):
        agents.register("greedy", PATH)
    with pytest.raises(ValueError, match="bad agent name"):
        agents.register("a,b", PATH)
    module = importlib.import_module("tests_pkg.mod")
    assert agents.register("lean", module.Lean) == PATH
    assert "lean" in agents.available("paris-damis")
    assert agents.source("lean@x") == PATH


def test_installed_packages_add_bots_and_games_by_entry_point(plugin):
    dist = plugin / "tapis_extra-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: tapis-extra\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[tapis_vert.agents]\nleanbot = tests_pkg.mod:Lean\ngreedy = tests_pkg.mod:Lean\n\n"
        "[tapis_vert.games]\nmy-pouilleux = engines.games.pouilleux:Pouilleux\n"
        "rikiki = engines.games.pouilleux:Pouilleux\n")
    importlib.invalidate_caches()
    plugins._entry_points.cache_clear()
    assert "leanbot" in agents.available("paris-damis")
    assert agents.source("leanbot") == PATH
    assert type(agents.load("leanbot", game="paris-damis")).__name__ == "Lean"
    # an installed name does not replace a built-in bot
    assert agents.source("greedy") == "agents.paris_damis:GreedyAgent"
    assert agents.builtin("greedy") and not agents.builtin("leanbot")
    assert "my-pouilleux" in engines.available()
    assert engines.source("my-pouilleux") == "engines.games.pouilleux:Pouilleux"
    assert not engines.builtin("my-pouilleux") and engines.builtin("pouilleux")
    assert engines.source("rikiki") == "engines.games.rikiki:Rikiki"     # not replaced
    state = engines.load("my-pouilleux", players=3).new_state(seed=1)
    assert state.legal_actions()


def test_a_registered_game_is_recorded_by_import_path(plugin):
    with pytest.raises(ValueError, match="built-in game"):
        engines.register("pouilleux", "engines.games.pouilleux:Pouilleux")
    engines.register("other-pouilleux", "engines.games.pouilleux:Pouilleux")
    spec = RunSpec(game="other-pouilleux", params=engines.params_class("pouilleux")(),
                   agents=("random",) * 3, seating="rotate", seed=0, games=4, chunk_size=2)
    data = spec.to_json()
    assert data["game_source"] == "engines.games.pouilleux:Pouilleux"
    engines._REGISTERED.clear()
    with pytest.raises(ValueError, match="unknown game 'other-pouilleux'"):
        engines.game_class("other-pouilleux")
    assert RunSpec.from_json(json.loads(json.dumps(data))) == spec


def test_a_person_plays_a_registered_bot_and_the_saved_game_replays(plugin, tmp_path):
    agents.register("leaner", "tests_pkg.mod:make_lean")
    save = tmp_path / "game"
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = play.main(["paris-damis", "--players", "2", "--seed", "5", "--pace", "0",
                          "--variant", "rounds=2", "--agents", "leaner", "--save", str(save)],
                         stdin=io.StringIO("1\n" * 400), stdout=io.StringIO())
    assert code == 0, err.getvalue()
    spec = results.read_manifest(save)["spec"]
    assert spec["agents"] == ["human", "leaner"]
    assert spec["agent_sources"] == {"leaner": "tests_pkg.mod:make_lean"}
    agents._REGISTERED.clear()          # as in a new process
    code, out, err_text = replay_main(save, "--game", 0)
    assert code == 0, err_text
    assert out.splitlines()[0].endswith("seat 0 human, seat 1 leaner")


def test_an_experiment_file_seats_a_plugin_bot(plugin, tmp_path):
    file = tmp_path / "mine.toml"
    file.write_text(f'title = "Lean"\nquestion = "Does lean beat random?"\n'
                    f'game = "paris-damis"\ngames = 12\nplayers = [2]\n'
                    f'lineups = ["{PATH}+random"]\n')
    code, _, err = call_main(experiment.main, file, "--out", tmp_path / "out", "--jobs", 1,
                             "--no-progress")
    assert code == 0, err
    cells = [p for p in (tmp_path / "out" / "cells").iterdir()
             if (p / results.MANIFEST).is_file()]
    assert len(cells) == 1
    assert results.read_manifest(cells[0])["spec"]["agents"] == [PATH, "random"]


def test_a_run_of_a_registered_bot_resumes_where_it_was_never_registered(plugin, tmp_path):
    agents.register("leaner", "tests_pkg.mod:make_lean")
    code, _, err = batch(tmp_path / "whole", "leaner,random,greedy", "--jobs", 1,
                         "--backend", "threads")
    assert code == 0, err
    run = tmp_path / "run"
    shutil.copytree(tmp_path / "whole", run)
    for start in (12, 18):
        for table in ("games", "players", "rounds"):
            (run / table / results.part_name(start)).unlink()
    manifest = results.read_manifest(run)
    results.write_manifest(run, manifest | {"status": "running", "finished": None})
    agents._REGISTERED.clear()          # as in a new process
    code, _, err = batch_main("--resume", run, "--jobs", 1, "--no-progress")
    assert code == 0, err
    whole, resumed = load_sorted(tmp_path / "whole"), load_sorted(run)
    for name in whole:
        assert whole[name].equals(resumed[name]), name


def test_a_plugin_game_may_be_a_lone_module(plugin):
    # a house variant of a shipped game, in a top-level file of one's own
    (plugin / "lone_game.py").write_text(
        "from engines.games.pouilleux import Pouilleux\n\n\n"
        "class LonePouilleux(Pouilleux):\n    title = 'Le pouilleux solitaire'\n")
    importlib.invalidate_caches()
    try:
        assert engines.register("lone", "lone_game:LonePouilleux") == "lone_game:LonePouilleux"
        game = engines.load("lone", players=3)
        assert game.title == "Le pouilleux solitaire" and game.params.players == 3
        assert game.new_state(seed=2).legal_actions()
    finally:
        sys.modules.pop("lone_game", None)
