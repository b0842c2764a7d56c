"""Every game has a batch kernel, and it plays exactly the games of the game's Python path:
the same seeds give the same final states, summary rows and round rows, with random seats
and with each of the game's compiled bots, and the batch runner writes the same tables
through either; and a second process loads every compiled loop from numba's cache instead
of compiling it again."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

import numpy as np
import pytest

import engines
from agents.search import ISMCTSParams
from engines.core.streams import has_rounds
from sim.batch.spec import RunSpec
from sim.batch.tables import play_chunk, uses_kernel
from sim.kernels import factory, has_kernel, kernel_for
from tests.engines.helpers import assert_kernel_plays_python

# Shorter games where the default one is long (seconds of Python play per game).
SHORT = {
    "rami": {"num_hands": 1},
    "petite-ecole": {"max_hands": 1},
    "pinacle": {"max_hands": 1},
    "empereur": {"num_rounds": 1},
    "baccara": {"max_coups": 8},
    "pharaon": {"num_coups": 4},
    "tarot": {"num_deals": 2},
    "tarot-lorrain": {"num_deals": 2},
    "tarot-tare": {"num_deals": 2},
    "belote-a-trois": {"target": 300},
    "belote-comptoir": {"target": 300},
    "vicaire": {"num_games": 1},
    "chasse-coeur": {"num_hands": 2},
    "petasse": {"num_hands": 2},
    "ascenseur-atouts": {"target_errors": 2},
    "nain-jaune": {"max_deals": 2},
    "paris-damis": {"rounds": 3},
}


def short_game(slug: str):
    """The game at its defaults, shortened where ``SHORT`` says."""
    return engines.load(slug, **SHORT.get(slug, {}))


def seatings(slug: str, players: int) -> list[list[str]]:
    """All seats random, then each compiled bot of the game at every other seat."""
    bots = kernel_for(slug).bots(slug)
    return [["random"] * players] + [[bot if p % 2 == 0 else "random" for p in range(players)]
                                     for bot in bots]


@pytest.mark.parametrize("slug", engines.available())
def test_every_game_has_a_kernel_that_plays_the_games_of_its_python_path(slug):
    assert has_kernel(slug)
    game = short_game(slug)
    for names in seatings(slug, game.num_players):
        assert_kernel_plays_python(game, names, seed=5, start=3, count=6)


@pytest.mark.parametrize("slug", ["paris-damis", "betzanbloo", "rikiki", "tarot",
                                  "huit-americain", "baccara", "rami"])
def test_the_searches_play_in_the_kernel_the_games_of_the_python_path(slug):
    """``flatmc`` and ``ismcts`` are one compiled search, called by the kernel and by the
    Python agents: the same seeds give the same games."""
    game = short_game(slug)
    names = (["ismcts", "flatmc"] + ["random"] * game.num_players)[:game.num_players]
    assert_kernel_plays_python(game, names, seed=2, start=1, count=2,
                               options={"ismcts": {"iterations": 4},
                                        "flatmc": {"iterations": 5}})


@pytest.mark.parametrize("slug, rollout", [("paris-damis", "greedy"), ("betzanbloo", "random"),
                                           ("huit-americain", "random")])
def test_searches_rewarding_the_placing_play_in_the_kernel_the_games_of_the_python_path(
        slug, rollout):
    """``placing`` > 0 (with a horizon where the game counts rounds): the kernel's searches
    choose as the Python ones, and not as they do without it."""
    game = short_game(slug)
    horizon = 1 if has_rounds(game.rules) else 0
    names = (["ismcts", "flatmc"] + ["random"] * game.num_players)[:game.num_players]
    own = {"iterations": 12, "rollout": rollout, "horizon": horizon}
    if rollout == "random":         # a default profile may trust its rollout bot
        own["trust"] = 0
    options = {"ismcts": own, "flatmc": own}
    placed = assert_kernel_plays_python(
        game, names, seed=3, start=0, count=2,
        options={name: {**own, "placing": 0.5} for name, own in options.items()})
    plain = assert_kernel_plays_python(game, names, seed=3, start=0, count=2, options=options)
    assert not np.array_equal(placed.finals, plain.finals)      # placing was exercised


@pytest.mark.parametrize("slug", ["paris-damis", "rikiki"])
def test_searches_with_a_horizon_play_in_the_kernel_the_games_of_the_python_path(slug):
    game = short_game(slug)
    names = (["ismcts", "flatmc"] + ["random"] * game.num_players)[:game.num_players]
    assert_kernel_plays_python(game, names, seed=2, start=1, count=2,
                               options={"ismcts": {"iterations": 4, "horizon": 1},
                                        "flatmc": {"iterations": 5, "horizon": 2}})


@pytest.mark.parametrize("slug, rollout", [("paris-damis", "greedy"), ("paris-damis", "cautious"),
                                           ("betzanbloo", "responder"), ("rikiki", "counter"),
                                           ("ascenseur-atouts", "estimator"),
                                           ("huit-americain", "shedder")])
def test_searches_with_strategy_rollouts_play_in_the_kernel_the_games_of_the_python_path(
        slug, rollout):
    """A search's rollouts played by one of the game's compiled bots (with a horizon where
    the game counts rounds): the kernel's games are those of the Python search, whose
    rollouts the Python bot plays."""
    game = short_game(slug)
    horizon = 1 if has_rounds(game.rules) else 0
    names = (["ismcts", "flatmc"] + ["random"] * game.num_players)[:game.num_players]
    assert_kernel_plays_python(
        game, names, seed=4, start=0, count=2,
        options={"ismcts": {"iterations": 3, "rollout": rollout, "horizon": horizon},
                 "flatmc": {"iterations": 4, "rollout": rollout}})


@pytest.mark.parametrize("slug, rollout", [("paris-damis", "greedy"), ("rikiki", "counter"),
                                           ("huit-americain", "random"),
                                           ("tarot", "prudent")])
def test_ismcts_with_widening_plays_in_the_kernel_the_games_of_the_python_path(slug, rollout):
    """Progressive widening, the rollout policy's action expanded first: the same games in
    the kernel as in the Python path (through the Python search where the rollouts are a
    bot's, through the compiled search from the Python API where they are random)."""
    game = short_game(slug)
    names = (["ismcts"] + ["random"] * game.num_players)[:game.num_players]
    widened = assert_kernel_plays_python(
        game, names, seed=7, start=0, count=2,
        options={"ismcts": {"iterations": 12, "rollout": rollout, "widening": 0.5}
                 | ({"trust": 0} if rollout == "random" else {})})
    kernel = kernel_for(slug)
    ids, weights = kernel.lineup([("ismcts", ISMCTSParams(iterations=12, rollout=rollout))]
                                 + [("random", None)] * (game.num_players - 1), slug)
    plain = kernel.play(game, np.tile(ids, (2, 1)), 7, 0, 2, keep_states=True,
                        weights=weights)
    assert not np.array_equal(widened.finals, plain.finals)     # widening was exercised


@pytest.mark.parametrize("slug, rollout", [("paris-damis", "greedy"), ("huit-americain", "random"),
                                           ("rikiki", "counter")])
def test_flatmc_halving_plays_in_the_kernel_the_games_of_the_python_path(slug, rollout):
    """Sequential halving: the kernel's flatmc chooses as the Python one (the compiled
    search from the Python API with random rollouts, the common API's with a bot's), and
    not as flatmc without it."""
    game = short_game(slug)
    names = (["flatmc"] + ["random"] * game.num_players)[:game.num_players]
    options = {"iterations": 24, "rollout": rollout}
    halved = assert_kernel_plays_python(game, names, seed=6, start=0, count=2,
                                        options={"flatmc": {**options, "halving": True}})
    plain = assert_kernel_plays_python(game, names, seed=6, start=0, count=2,
                                       options={"flatmc": {**options, "halving": False}})
    assert not np.array_equal(halved.finals, plain.finals)      # halving was exercised


@pytest.mark.parametrize("slug, rollout, delegate", [
    ("paris-damis", "greedy", "discard,hand_change"), ("rikiki", "counter", "bidding"),
    ("tarot", "prudent", "bidding,écart")])
def test_delegated_phases_play_in_the_kernel_the_games_of_the_python_path(slug, rollout,
                                                                          delegate):
    """Both searches leaving the phases named to their rollout policy: the kernel's games
    are the Python path's (where the rollout bot decides those phases on the seat's
    observation), and not the games of the searches deciding everything."""
    game = short_game(slug)
    names = (["ismcts", "flatmc"] + ["random"] * game.num_players)[:game.num_players]
    options = {"ismcts": {"iterations": 6, "rollout": rollout},
               "flatmc": {"iterations": 8, "rollout": rollout}}
    left, searched = (assert_kernel_plays_python(
        game, names, seed=5, start=0, count=2,
        options={name: {**own, "delegate": phases} for name, own in options.items()})
        for phases in (delegate, ""))
    assert not np.array_equal(left.finals, searched.finals)    # delegation was exercised


@pytest.mark.parametrize("slug, rollout", [("paris-damis", "greedy"), ("rikiki", "counter"),
                                           ("huit-americain", "shedder"),
                                           ("tarot", "prudent")])
def test_a_trusting_search_plays_in_the_kernel_the_games_of_the_python_path(slug, rollout):
    """Both searches trusting their rollout bot (flatmc plain and halving): the kernel's
    games are the Python path's (where the bot's choice is made on the seat's observation
    before the search), and not those of the searches trusting nothing."""
    game = short_game(slug)
    options = {"ismcts": {"iterations": 12, "rollout": rollout, "widening": 0.5},
               "flatmc": {"iterations": 16, "rollout": rollout}}
    names = (["ismcts", "flatmc"] + ["random"] * game.num_players)[:game.num_players]
    for halving in (False, True):
        own = {name: {**opts, "halving": halving} if name == "flatmc" else opts
               for name, opts in options.items()}
        trusting, plain = (assert_kernel_plays_python(
            game, names, seed=8, start=0, count=2,
            options={name: {**opts, "trust": trust} for name, opts in own.items()})
            for trust in (1.0, 0.0))
        assert not np.array_equal(trusting.finals, plain.finals)     # trust was exercised


def test_a_rollout_profile_plays_its_parameters_and_explores(tmp_path, monkeypatch):
    """``rollout=NAME@PROFILE``: the rollouts play the profile's parameters and ``explore``,
    in the kernel as in the Python path."""
    (tmp_path / "paris-damis.toml").write_text(
        "[greedy.wild]\nmargin = 3\nvalue_per_point = 40\nexplore = 0.3\n")
    monkeypatch.setenv("TAPIS_VERT_PROFILES", str(tmp_path))
    game = short_game("paris-damis")
    out = assert_kernel_plays_python(
        game, ["ismcts", "greedy", "random", "random"], seed=6, start=0, count=2,
        options={"ismcts": {"iterations": 4, "rollout": "greedy@wild", "horizon": 2}})
    plain = assert_kernel_plays_python(
        game, ["ismcts", "greedy", "random", "random"], seed=6, start=0, count=2,
        options={"ismcts": {"iterations": 4, "rollout": "greedy", "horizon": 2}})
    assert not np.array_equal(out.finals, plain.finals)


def test_a_rollout_the_kernel_cannot_play_names_its_policies():
    kernel = kernel_for("paris-damis")
    with pytest.raises(ValueError, match="no compiled rollout policy 'safe' in paris-damis; "
                                         "rollout policies: aggressive, cautious, greedy, "
                                         "random"):
        kernel.lineup([("ismcts", ISMCTSParams(rollout="safe"))])
    assert not kernel.plays("ismcts", ISMCTSParams(rollout="safe"))
    assert kernel.plays("ismcts", ISMCTSParams(rollout="greedy@tuned"))
    with pytest.raises(ValueError, match="a profile needs the game"):
        kernel.lineup([("ismcts", ISMCTSParams(rollout="greedy@tuned"))])


@pytest.mark.parametrize("slug, bot", [("paris-damis", "greedy"), ("rikiki", "counter"),
                                       ("betzanbloo", "responder"), ("huit-americain", "shedder"),
                                       ("paris-damis", "ismcts")])
def test_exploring_bots_play_in_the_kernel_the_games_of_the_python_path(slug, bot):
    game = short_game(slug)
    names = ([bot, "random"] * game.num_players)[:game.num_players]
    names[-1] = bot
    search = {"iterations": 4} if bot == "ismcts" else {}
    assert_kernel_plays_python(game, names, seed=3, start=0, count=3,
                               options={bot: {"explore": 0.3, **search}})


def test_exploring_breaks_the_ties_of_a_table_of_copies():
    """A table of ``responder`` copies in betzanbloo shares the win in every game (they all
    play alike); with ``explore`` they play apart."""
    game = engines.load("betzanbloo")
    kernel = kernel_for("betzanbloo")
    winners = {}
    for explore in (0.0, 0.1):
        ids, weights = kernel.lineup([("responder", None, explore)] * game.num_players)
        out = kernel.play(game, np.tile(ids, (40, 1)), 1, 0, 40, keep_states=True,
                          weights=weights)
        ranks = out.finals[:, game.rules.RANK:game.rules.RANK + game.num_players]
        winners[explore] = (ranks == 1).sum(axis=1)
    assert (winners[0.0] == game.num_players).all()
    assert (winners[0.1] < game.num_players).mean() > 0.5


def test_a_loop_without_search_seats_is_compiled_without_the_searches():
    """Seats that never search play the loop compiled without the searches (no search room,
    a type of its own); a search seat, the loop with them, and each plays the games of the
    Python path (see the tests above)."""
    game, kernel = short_game("baccara"), kernel_for("baccara")
    loop = factory._LOOP
    rooms = []

    def recorded(*args):
        rooms.append(args[-1])
        return loop(*args)
    searcher = [("ismcts", ISMCTSParams(iterations=2))]
    with mock.patch.object(factory, "_LOOP", recorded):
        for lineup in ([], searcher):
            ids, weights = kernel.lineup(lineup + [("random", None)] * (game.num_players
                                                                         - len(lineup)))
            kernel.play(game, np.tile(ids, (2, 1)), 1, 0, 2, weights=weights)
    assert rooms[0] is None and rooms[1].nodes.shape[0] == 3       # 2 iterations, a root


def test_make_test_compiles_with_the_searches_the_kernels_these_tests_search_in():
    """The Makefile's SEARCHED_KERNELS (compiled by sim.compile before the suite) holds every
    game whose kernel a test here plays with search seats."""
    listed = re.search(r"^SEARCHED_KERNELS := (.*)$",
                       (Path(__file__).parents[2] / "Makefile").read_text(), re.M)
    assert listed is not None
    searched = set()
    for test in (test_the_searches_play_in_the_kernel_the_games_of_the_python_path,
                 test_searches_rewarding_the_placing_play_in_the_kernel_the_games_of_the_python_path,
                 test_searches_with_a_horizon_play_in_the_kernel_the_games_of_the_python_path,
                 test_searches_with_strategy_rollouts_play_in_the_kernel_the_games_of_the_python_path,
                 test_ismcts_with_widening_plays_in_the_kernel_the_games_of_the_python_path,
                 test_exploring_bots_play_in_the_kernel_the_games_of_the_python_path):
        for case in test.pytestmark[0].args[1]:
            searched.add(case if isinstance(case, str) else case[0])
    assert searched | {"baccara"} <= set(listed.group(1).split(","))


def test_a_game_with_more_round_rows_than_room_is_played_again_with_room():
    game = short_game("chasse-coeur")
    kernel = kernel_for("chasse-coeur")
    seats = np.zeros((4, game.num_players), dtype=np.int32)
    roomy = kernel.play(game, seats, 9, 0, 4)
    cramped = type(kernel).__new__(type(kernel))
    cramped.__dict__.update(kernel.__dict__)
    object.__setattr__(cramped, "max_round_rows", lambda params: 1)
    tight = cramped.play(game, seats, 9, 0, 4)
    assert (roomy.round_counts > 1).all()
    assert np.array_equal(tight.round_counts, roomy.round_counts)
    assert np.array_equal(tight.rounds, roomy.rounds)
    assert np.array_equal(tight.rows, roomy.rows)


@pytest.mark.slow
def test_a_second_process_compiles_no_kernel_again(tmp_path):
    """numba finds every game's compiled loop in its cache: the loop is specialised per game
    by an argument's type, not by passing compiled functions, which would defeat the cache."""
    script = textwrap.dedent("""
        import numpy as np, engines
        from sim.kernels import factory, kernel_for
        for slug in ("bataille", "chasse-coeur", "paris-damis"):
            game, kernel = engines.load(slug), kernel_for(slug)
            kernel.play(game, np.zeros((2, game.num_players), dtype=np.int32), 1, 0, 2)
        misses = sum(factory._LOOP.stats.cache_misses.values())
        hits = sum(factory._LOOP.stats.cache_hits.values())
        print(hits, misses)
    """)
    path = tmp_path / "load.py"
    path.write_text(script)
    for _ in range(2):      # the first run may compile (a fresh cache); the second may not
        done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                              check=True)
    hits, misses = map(int, done.stdout.split())
    assert (hits, misses) == (3, 0)


# (slug, parameters, agents, seed, first game, games): every game at its short defaults with
# random seats, then games whose compiled bots change the tables (estimates, counts)
TABLE_CASES = [(slug, SHORT.get(slug, {}), None, 2, 0, 4) for slug in engines.available()]
TABLE_CASES += [
    ("rikiki", {"players": 3, "hands": (3, 6, 2)}, ("counter", "random", "random"), 4, 5, 20),
    ("ascenseur-atouts", {"players": 3}, ("estimator", "random", "random"), 4, 5, 20),
]


@pytest.mark.parametrize(
    "slug, params, names, seed, start, count", TABLE_CASES,
    ids=[case[0] if case[2] is None else f"{case[0]}-{case[2][0]}" for case in TABLE_CASES])
def test_the_batch_tables_are_the_same_through_the_kernel_and_the_python_path(
        slug, params, names, seed, start, count):
    game = engines.load(slug, **params)
    spec = RunSpec(game=slug, params=game.params,
                   agents=names or ("random",) * game.num_players, seating="rotate",
                   seed=seed, games=start + count, chunk_size=start + count)
    assert uses_kernel(spec)
    compiled = play_chunk(spec, start, count)
    with mock.patch("sim.batch.tables.uses_kernel", lambda spec: False):
        python = play_chunk(spec, start, count)
    assert sorted(compiled) == sorted(python) == ["games", "players", "rounds"]
    for name in compiled:
        assert compiled[name].schema == python[name].schema, (slug, name)
        assert compiled[name].equals(python[name]), (slug, name)


@pytest.mark.parametrize("allocates", [None, True])
def test_a_kernel_of_rules_that_may_allocate_is_refused(allocates):
    """The loop runs without numba's reference counting, so a kernel's rules must declare
    that they allocate nothing (``ALLOCATES = False``); every game's do (they load above)."""
    rules = SimpleNamespace(__name__="engines.games.example.rules")
    if allocates is not None:
        rules.ALLOCATES = allocates
    with pytest.raises(ValueError, match="ALLOCATES = False in engines.games.example.rules"):
        factory.Kernel("example-allocating", rules, None, {"random": 0})
    assert "example-allocating" not in factory._KERNELS
