"""``python -m sim.tune``: what is searched, a tiny study that resumes from its storage and
saves a profile, the profile played by the compiled kernel with its parameters (and in the
run's manifest), and bad input (exit status 2, one line, nothing written)."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from functools import partial
from pathlib import Path

import numpy as np
import optuna
import pytest

import agents
import engines
from agents import profiles
from agents.ascenseur_atouts import EstimatorParams
from agents.betzanbloo import ContrarianParams, ResponderParams, SafeParams
from agents.paris_damis import GreedyParams
from agents.search import ISMCTSParams
from sim import tune
from sim.batch.run import new_run
from sim.batch.spec import RunSpec
from sim.batch.tables import play_chunk, uses_kernel
from tests.sim.test_batch_support import batch_main, call_main, env, run_module

tune_main = partial(call_main, tune.main)
TINY = ("--trials", 3, "--games-per-trial", 8, "--eval-games", 16, "--no-progress")


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """A working directory and a profile directory of the test's own."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "profiles"
    folder.mkdir()
    monkeypatch.setenv("TAPIS_VERT_PROFILES", str(folder))
    (folder / "paris-damis.toml").write_text(
        "[greedy.wild]\nmargin = 55\nvalue_per_point = 90\nbalance = 0\n\n"
        "[cautious.bad]\nbalance = 5000\n")
    return tmp_path


def files_under(path: Path) -> dict[str, bytes]:
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*"))
            if p.is_file()}


# --- what is searched -------------------------------------------------------------------------
def test_the_search_space_is_every_field_with_a_range():
    names = [f.name for f in tune.search_space(GreedyParams)]
    assert names == [f.name for f in dataclasses.fields(GreedyParams)
                     if f.name != "random_bet"]         # a handicap, marked tuned=False
    assert [f.name for f in tune.search_space(ISMCTSParams)] == ["placing"]
    assert [f.name for f in tune.search_space(EstimatorParams)] == ["excuse_value",
                                                                    "take_percent"]
    assert [f.name for f in tune.search_space(SafeParams)] == ["card"]
    assert [f.name for f in tune.search_space(ResponderParams)] == ["prior"]
    assert tune.search_space(ContrarianParams) == []


def test_suggestions_stay_in_range_and_fixed_values_hold():
    study = optuna.create_study(sampler=optuna.samplers.RandomSampler(seed=1))
    for _ in range(20):
        params = tune.suggest(study.ask(), GreedyParams, {"margin": 3})
        assert params.margin == 3
        assert 1 <= params.value_per_point <= 100 and 0 <= params.balance <= 1000
    assert tune.suggest(study.ask(), SafeParams, {}).card in ("lowest", "highest")


def test_blocks_cover_the_games_once():
    for games in (1, 3, 8, 401):
        parts = tune.blocks(games)
        assert sum(c for _, c in parts) == games
        assert [s for s, _ in parts] == list(np.cumsum([0] + [c for _, c in parts])[:-1])


def test_the_default_pool_is_the_other_strategy_bots_or_the_bot_itself():
    assert tune.default_pool("paris-damis", "greedy") == ("cautious", "aggressive")
    assert tune.default_pool("ascenseur-atouts", "estimator") == ("estimator",)


# --- the kernel plays a bot with other parameters ------------------------------------------
def paris_spec(*names: str, games: int = 6) -> RunSpec:
    params = engines.params_class("paris-damis")()
    return RunSpec(game="paris-damis", params=params, agents=names, seating="rotate",
                   seed=3, games=games, chunk_size=games)


def python_tables(spec: RunSpec) -> dict:
    """The chunk's tables through the Python API (the kernel's reference)."""
    from sim.batch import tables
    original = tables.uses_kernel
    tables.uses_kernel = lambda s: False
    try:
        return play_chunk(spec, 0, spec.games)
    finally:
        tables.uses_kernel = original


def test_a_profile_plays_in_the_kernel_as_through_the_python_api(sandbox):
    spec = paris_spec("greedy@wild", "cautious", "greedy", "aggressive")
    assert uses_kernel(spec)
    kernel = play_chunk(spec, 0, spec.games)
    assert kernel["players"].equals(python_tables(spec)["players"])
    default = play_chunk(paris_spec("greedy", "cautious", "greedy", "aggressive"), 0, 6)
    assert not kernel["players"].equals(default["players"])


@pytest.mark.parametrize("game, names, profile", [
    ("betzanbloo", ("safe@high", "safe", "contrarian", "responder@wary", "responder"),
     "[safe.high]\ncard = \"highest\"\n\n[responder.wary]\nprior = 12.0\n"),
    ("ascenseur-atouts", ("estimator@bold", "estimator", "random", "estimator"),
     "[estimator.bold]\nexcuse_value = 100\ntake_percent = 5\n"),
])
def test_profiles_of_the_other_compiled_bots_play_in_their_kernels(sandbox, game, names,
                                                                   profile):
    (sandbox / "profiles" / f"{game}.toml").write_text(profile)
    spec = RunSpec(game=game, params=engines.params_class(game)(players=len(names)),
                   agents=names, seating="rotate", seed=5, games=12, chunk_size=12)
    assert uses_kernel(spec)
    kernel = play_chunk(spec, 0, spec.games)
    assert kernel["players"].equals(python_tables(spec)["players"])
    plain = dataclasses.replace(spec, agents=tuple(n.split("@")[0] for n in names))
    assert not kernel["players"].equals(play_chunk(plain, 0, plain.games)["players"])


@pytest.mark.slow
def test_sim_batch_plays_a_profile_and_its_manifest_shows_the_parameters(sandbox):
    """... and a plain name's default profile."""
    with (sandbox / "profiles" / "paris-damis.toml").open("a") as file:
        file.write("\n[cautious.default]\ntarget = 2\n")
    code, out, err = batch_main("paris-damis", "--games", 40, "--agents",
                                "greedy@wild,cautious,aggressive,cautious", "--jobs", 1,
                                "--out", sandbox / "run", "--format", "json", "--no-progress")
    assert code == 0, err
    manifest = json.loads((sandbox / "run" / "manifest.json").read_text())
    assert manifest["kernel"] is True
    assert manifest["agent_params"]["greedy@wild"]["margin"] == "55"
    assert manifest["agent_params"]["greedy@wild"]["finish_spend"] == "12"
    assert manifest["agent_params"]["cautious"]["target"] == "2"
    assert "greedy@wild" in json.loads(out)["win_share_by_agent"]


# --- a tiny study ---------------------------------------------------------------------------
@pytest.mark.slow
def test_a_tiny_study_resumes_and_saves_a_profile_that_loads(sandbox):
    storage = f"sqlite:///{sandbox / 'study.db'}"
    args = ("paris-damis", "--agent", "greedy", "--players", 3, "--storage", storage, *TINY)
    code, out, err = tune_main(*args)
    assert code == 0, err
    assert "3 trials" in out and "best trial" in out and "fresh evaluation" in out
    code, out, err = tune_main(*args, "--trials", 2, "--save", "t")
    assert code == 0, err
    study = optuna.load_study(study_name="paris-damis-greedy-3p", storage=storage)
    assert len(study.trials) == 5                       # the second run added two trials
    assert study.trials[0].params == {               # the defaults come first
        f.name: getattr(GreedyParams(), f.name) for f in tune.search_space(GreedyParams)}
    saved = agents.load("greedy@t", game="paris-damis").params
    assert {k: getattr(saved, k) for k in study.best_params} == study.best_params
    text = (sandbox / "profiles" / "paris-damis.toml").read_text()
    assert "# python -m sim.tune paris-damis --agent greedy" in text
    assert "[greedy.wild]" in text                      # other profiles kept
    assert "saved greedy@t in" in out


@pytest.mark.slow
def test_a_seeded_study_is_reproducible(sandbox):
    found = []
    for name in ("a", "b"):
        code, _, err = tune_main("ascenseur-atouts", "--agent", "estimator", "--study", name,
                                 "--storage", f"sqlite:///{sandbox / (name + '.db')}",
                                 "--seed", 4, *TINY)
        assert code == 0, err
        study = optuna.load_study(study_name=name, storage=f"sqlite:///{sandbox / name}.db")
        found.append([(t.params, t.value) for t in study.trials])
    assert found[0] == found[1]


def test_resuming_a_study_made_for_other_games_is_refused(sandbox):
    storage = f"sqlite:///{sandbox / 'study.db'}"
    first = ("ascenseur-atouts", "--agent", "estimator", "--storage", storage)
    assert tune_main(*first, "--trials", 1, "--games-per-trial", 4, "--eval-games", 4,
                     "--no-progress")[0] == 0
    before = files_under(sandbox)
    code, out, err = tune_main(*first, "--games-per-trial", 5)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "games_per_trial=4" in err
    assert files_under(sandbox) == before


# --- bad input ------------------------------------------------------------------------------
BAD = [
    (("paris-damis", "--agent", "nobody"), "greedy"),
    (("paris-damis",), "greedy"),
    (("betzanbloo", "--agent", "contrarian"), "safe"),
    (("paris-damis", "--agent", "greedy@wild"), "greedy"),
    (("nowhere", "--agent", "greedy"), "paris-damis"),
    (("paris-damis", "--agent", "greedy", "--against", "cautious,nobody"), "available agents"),
    (("paris-damis", "--agent", "greedy", "--against", "cautious@nope"), "profiles of cautious"),
    (("paris-damis", "--agent", "greedy", "--against", "cautious@bad"), "0..1000"),
    (("paris-damis", "--agent", "greedy", "--fix", "margin=999"), "1..60"),
    (("paris-damis", "--agent", "greedy", "--fix", "margn=3"), "valid keys"),
    (("paris-damis", "--agent", "greedy", "--players", 9), "players"),
    (("paris-damis", "--agent", "greedy", "--trials", 0), "--trials"),
    (("paris-damis", "--agent", "greedy", "--save", "a b"), "letters, digits"),
    (("paris-damis", "--agent", "greedy", "--storage", "nonsense://x"), "sqlite:///"),
    (("paris-damis", "--agent", "greedy", "--storage", "sqlite:////no/such/dir/x.db"),
     "sqlite:///"),
]


@pytest.mark.parametrize("args, word", BAD)
def test_bad_input_is_one_line_exit_status_2_and_nothing_written(sandbox, args, word):
    before = files_under(sandbox)
    code, out, err = tune_main(*args)
    assert code == 2, err
    assert out == "" and len(err.splitlines()) == 1, err
    assert err.startswith("sim.tune: error: ") and word in err, err
    assert files_under(sandbox) == before
    assert not (sandbox / "runs").exists()


@pytest.mark.slow
def test_the_command_exits_2_on_bad_input(sandbox):
    done = run_module("sim.tune", "paris-damis", "--agent", "greedy", "--fix",
                      "margin=0", cwd=sandbox)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "sim.tune: error: --fix: greedy: bad value for margin: 0; valid values: 1..60"]
    assert not (sandbox / "runs").exists()


def test_help_names_every_option():
    text = tune.build_parser().format_help()
    for option in ("--agent", "--players", "--against", "--trials", "--games-per-trial",
                   "--eval-games", "--storage", "--study", "--save", "--seed", "--jobs",
                   "--fix", "--variant", "--no-progress"):
        assert option in text
    assert profiles.SEPARATOR in text


def test_sim_batch_list_names_the_saved_profiles(sandbox):
    code, out, _ = batch_main("--list")
    assert code == 0
    assert "    profiles: greedy@wild, cautious@bad" in out.splitlines()


def test_resuming_a_run_whose_profile_changed_is_refused(sandbox):
    spec = paris_spec("greedy@wild", "cautious", "greedy", "aggressive")
    with new_run(spec, sandbox / "run") as (run_dir, _):         # started, no chunk played
        pass
    profile = sandbox / "profiles" / "paris-damis.toml"
    profile.write_text(profile.read_text().replace("margin = 55", "margin = 54"))
    before = files_under(sandbox)
    code, out, err = batch_main("--resume", run_dir, "--no-progress")
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    assert "greedy@wild has changed" in err
    assert files_under(sandbox) == before


@pytest.mark.slow
def test_two_processes_sharing_a_storage_work_on_one_study(sandbox):
    storage = f"sqlite:///{sandbox / 'shared.db'}"
    args = [sys.executable, "-m", "sim.tune", "ascenseur-atouts", "--agent", "estimator",
            "--storage", storage, *map(str, TINY)]
    tune_main(*args[3:])                                  # the study exists before both start
    workers = [subprocess.Popen(args, cwd=sandbox, env=env(), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True) for _ in range(2)]
    for worker in workers:
        _, err = worker.communicate(timeout=600)
        assert worker.returncode == 0, err
    study = optuna.load_study(study_name="ascenseur-atouts-estimator-4p", storage=storage)
    assert len(study.trials) == 9
    assert len({t.number for t in study.trials}) == 9


def test_a_trials_games_are_the_same_in_the_kernel_and_through_the_python_api(monkeypatch):
    setup = tune.setup_from_args(tune.build_parser().parse_args(
        ["paris-damis", "--agent", "greedy", "--players", "3", "--against", "cautious,greedy"]))
    params = GreedyParams(margin=40, value_per_point=70, balance=300)
    assert tune.kernel_path(setup, params)
    kernel = tune.shares(setup, params, 7, 2, 6)
    monkeypatch.setattr(tune, "kernel_path", lambda setup, params: False)
    python = tune.shares(setup, params, 7, 2, 6)
    np.testing.assert_array_equal(kernel, python)
    assert set(np.unique(kernel)) <= {0.0, 0.5, 1.0 / 3, 1.0}
    assert not np.array_equal(kernel, tune.shares(setup, GreedyParams(), 7, 2, 6))
