"""The search bots ``flatmc`` and ``ismcts``: legal play on every game, no use of hidden
information, determinism, budgets, parameters, and a position with one winning move; plus
the engine support they rely on (``observation.determinize``, ``state.playout``)."""

from __future__ import annotations

import math
import re
import time

import numpy as np
import pytest

import agents
import agents.search as search_module
import engines
from agents.compiled_search import AT_RANK, reward, search_room, trusted
from agents.search import ISMCTS, FlatMC, ISMCTSParams, Node, placed
from engines.games.paris_damis import rules as R
from sim.runner import play_python
from tests.engines.paris_damis.paris_helpers import DIAMONDS, SPADES, build, play

BOTS = ("flatmc", "ismcts")
SMALL = 30                      # iterations: enough to search, small enough to be quick
# Rummy matches between random seats run to their turn caps hand after hand: here one hand
# with a lower cap (a capped hand still ends the game and is scored).
SHORT = {"rami": {"num_hands": 1, "max_turns": 150},
         "petite-ecole": {"max_hands": 1, "max_turns": 150},
         "pinacle": {"max_hands": 1, "max_turns": 150},
         "empereur": {"num_rounds": 1, "max_turns": 150},
         "menteur": {"players": 3, "deck": 32},
         "vicaire": {"match_target": 50}}


def paris(**params):
    return engines.load("paris-damis", **params)


def positions(game, seed, every=13):
    """States of a random game (clones) at every ``every``-th decision with a choice."""
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    out = []
    while not state.is_terminal():
        legal = state.legal_actions()
        if len(legal) > 1 and state.s[R.DECISIONS] % every == 0:
            out.append(state.clone())
        state.apply(legal[rng.integers(len(legal))])
    return out


def choose(bot, state, seed=7):
    player = state.current_player
    return bot.act(state.observation(player), state.legal_actions(),
                   np.random.default_rng(seed))


# ======================================================================================
# every game, legal actions
# ======================================================================================
@pytest.mark.parametrize("slug", engines.available())
def test_an_observation_made_before_a_move_is_not_determinized_after_it(slug):
    """What the search bots rely on: a determinization is drawn only from the position the
    observation was made in."""
    state = engines.load(slug).new_state(0)
    observation = state.observation(state.current_player)
    state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="stale observation"):
        observation.determinize(np.random.default_rng(0))


@pytest.mark.slow
@pytest.mark.parametrize("slug", engines.available())
@pytest.mark.parametrize("name", BOTS)
def test_bots_play_every_registered_game_to_its_end(slug, name):
    assert name in agents.available(slug)
    game = engines.load(slug, **SHORT.get(slug, {}))
    bot = agents.load(name, game=slug, iterations=10)
    chosen = []

    class Checked:
        """The bot, checking that every action it returns is one of the legal ones."""

        name = bot.name

        def act(self, observation, legal, rng):
            action = bot.act(observation, legal, rng)
            assert action in legal
            chosen.append(action)
            return action

    players = [Checked()] + [agents.load("random")] * (game.num_players - 1)
    final = play_python(game, players, seed=3)
    assert final.is_terminal()
    assert sum(final.result().win_shares) == pytest.approx(1.0)
    assert len(chosen) == final.result().details["decisions"][0]


# ======================================================================================
# hidden information
# ======================================================================================
def permuted(state, seed):
    """Another true state that the current player cannot tell from ``state``: the hidden
    cards (other hands, their discards, the deck order, the face-down points cards) and the
    future chance events drawn again."""
    p = state.current_player
    other = state.determinize(p, np.random.default_rng(seed))
    assert np.array_equal(other.observation(p).array, state.observation(p).array)
    assert not np.array_equal(other.s[R.LOCATION:R.LOCATION + R.PLAY_CARDS],
                              state.s[R.LOCATION:R.LOCATION + R.PLAY_CARDS])
    assert not np.array_equal(other._stream, state._stream)
    return other


def face_down_piles_differ(a, b) -> bool:
    return not np.array_equal(a.s[R.PILE:R.PILE + R.SUITS * R.POINTS_RANKS],
                              b.s[R.PILE:R.PILE + R.SUITS * R.POINTS_RANKS])


@pytest.fixture(scope="module")
def game_positions():
    return positions(paris(), seed=11)


def test_positions_cover_every_kind_of_decision(game_positions):
    assert {state.phase for state in game_positions} == {"turn", "discard", "hand_change"}


def test_a_determinization_depends_only_on_the_observation(game_positions):
    piles_permuted = 0
    for i, state in enumerate(game_positions):
        other = permuted(state, seed=100 + i)
        piles_permuted += face_down_piles_differ(state, other)
        p = state.current_player
        a = state.observation(p).determinize(np.random.default_rng(i))
        b = other.observation(p).determinize(np.random.default_rng(i))
        assert np.array_equal(a.s, b.s)
        assert np.array_equal(a._stream, b._stream)
    assert piles_permuted > 0


@pytest.mark.parametrize("name", BOTS)
@pytest.mark.parametrize("options", [{}, {"rollout": "greedy", "trust": 0.5}])
def test_the_choice_does_not_change_when_hidden_cards_are_permuted(name, options,
                                                                   game_positions):
    bot = agents.load(name, iterations=SMALL, **options)
    for i, state in enumerate(game_positions):
        other = permuted(state, seed=100 + i)
        assert choose(bot, state) == choose(bot, other), f"position {i} ({state.phase})"


class Cheating:
    """An observation that 'determinizes' to the true state itself (hidden cards and future
    chance included): what a bot would see if hidden information leaked."""

    def __init__(self, state):
        self.state = state

    def determinize(self, rng):
        return self.state.clone()


@pytest.mark.parametrize("name", BOTS)
def test_the_permutation_test_would_see_a_leak(name, game_positions):
    """The test above has power: with the true state leaking, choices do change."""
    bot = agents.load(name, iterations=SMALL)
    changed = 0
    for i, state in enumerate(game_positions):
        other = permuted(state, seed=100 + i)
        cheat = [bot.act(Cheating(s), s.legal_actions(), np.random.default_rng(7))
                 for s in (state, other)]
        changed += cheat[0] != cheat[1]
    assert changed > 0


def test_a_stale_observation_cannot_be_determinized():
    state = paris().new_state(5)
    obs = state.observation(state.current_player)
    obs.determinize(np.random.default_rng(0))
    state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="stale observation"):
        obs.determinize(np.random.default_rng(0))


# ======================================================================================
# determinism and budgets
# ======================================================================================
@pytest.mark.parametrize("name", BOTS)
def test_the_same_stream_gives_the_same_choice(name, game_positions):
    bot = agents.load(name, iterations=SMALL)
    for state in game_positions[:4]:
        assert choose(bot, state, seed=5) == choose(bot, state, seed=5)


@pytest.mark.parametrize("name", BOTS)
def test_the_choice_depends_on_the_stream(name, game_positions):
    bot = agents.load(name, iterations=5)
    state = next(s for s in game_positions if len(s.legal_actions()) > 10)
    assert len({choose(bot, state, seed) for seed in range(8)}) > 1


@pytest.mark.parametrize("name", BOTS)
def test_a_single_legal_action_is_played_without_search(name, game_positions):
    bot = agents.load(name)
    state = game_positions[0]
    only = state.legal_actions()[:1]
    rng = np.random.default_rng(0)
    assert bot.act(state.observation(state.current_player), only, rng) == only[0]
    assert rng.random() == np.random.default_rng(0).random()       # nothing drawn


@pytest.mark.parametrize("name", BOTS)
def test_a_time_budget_is_spent_whole(name, game_positions):
    bot = agents.load(name, seconds=0.2)
    state = max(game_positions, key=lambda s: len(s.legal_actions()))
    start = time.perf_counter()
    action = choose(bot, state)
    assert action in state.legal_actions()
    assert time.perf_counter() - start >= 0.2


@pytest.mark.parametrize("name", BOTS)
def test_a_time_budget_stops_the_search_at_its_first_look_past_the_deadline(
        name, game_positions, monkeypatch):
    # A clock that moves 0.05 s each time it is read: the search reads it once for its
    # deadline, then after each slice of work, and must stop at the read at or past 0.2 s
    # (on a real clock, how long a slice takes depends on the machine's load).
    reads = []
    monkeypatch.setattr(search_module.time, "perf_counter",
                        lambda: reads.append(0.05 * len(reads)) or reads[-1])
    bot = agents.load(name, seconds=0.2)
    state = max(game_positions, key=lambda s: len(s.legal_actions()))
    assert choose(bot, state) in state.legal_actions()
    assert reads == pytest.approx([0.0, 0.05, 0.1, 0.15, 0.2])


class APIOnly:
    """A state seen through the common API alone (no compiled ``playout``)."""

    def __init__(self, state):
        self.state = state

    @property
    def current_player(self):
        return self.state.current_player

    def legal_actions(self):
        return self.state.legal_actions()

    def apply(self, action):
        self.state.apply(action)

    def is_terminal(self):
        return self.state.is_terminal()

    def result(self):
        return self.state.result()

    def observation(self, player):
        return self.state.observation(player)

    def clone(self):
        return APIOnly(self.state.clone())


class APIOnlyObservation:
    def __init__(self, observation):
        self.observation = observation

    def determinize(self, rng):
        return APIOnly(self.observation.determinize(rng))


@pytest.mark.parametrize("placing", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("name", BOTS)
def test_compiled_playouts_choose_as_rollouts_through_the_api(name, placing, game_positions):
    bot = agents.load(name, iterations=SMALL, placing=placing)
    for state in game_positions[:5]:
        obs = state.observation(state.current_player)
        legal = state.legal_actions()
        fast = bot.act(obs, legal, np.random.default_rng(3))
        slow = bot.act(APIOnlyObservation(obs), legal, np.random.default_rng(3))
        assert fast == slow


@pytest.mark.parametrize("placing", [0.0, 0.5])
def test_flatmc_halving_chooses_compiled_as_through_the_api(placing, game_positions):
    """Sequential halving, compiled (random rollouts) and through the common API: the same
    choice from the same stream; and not always uniform flatmc's."""
    halving = agents.load("flatmc", iterations=40, placing=placing, halving=True)
    uniform = agents.load("flatmc", iterations=40, placing=placing)
    differ = 0
    for state in game_positions[:8]:
        obs = state.observation(state.current_player)
        legal = state.legal_actions()
        fast = halving.act(obs, legal, np.random.default_rng(3))
        assert fast == halving.act(APIOnlyObservation(obs), legal, np.random.default_rng(3))
        differ += fast != uniform.act(obs, legal, np.random.default_rng(3))
    assert differ > 0


def test_flatmc_halving_spends_its_rounds_on_the_better_half(game_positions):
    """Over n actions, ceil(log2 n) rounds of budget // rounds iterations: the actions out
    after round r were tried in the sweeps of rounds 1..r only, the two finalists in every
    sweep, and the one kept has the better mean of the two."""
    budget = 60
    bot = agents.load("flatmc", iterations=budget, halving=True)
    checked = 0
    for state in game_positions:
        legal = state.legal_actions()
        n = len(legal)
        if n < 5:
            continue
        obs = state.observation(state.current_player)
        choice = bot.act(obs, legal, np.random.default_rng(1))
        room = bot.compiled(obs).room
        tries, totals = room.tries[:n].copy(), room.totals[:n].copy()
        rounds, left, sweeps, expected = math.ceil(math.log2(n)), n, 0, []
        for _ in range(rounds):
            sweeps += max(1, budget // rounds // left)
            out = left - (left + 1) // 2
            expected += [sweeps] * out
            left -= out
        assert sorted(tries.tolist()) == sorted(expected + [sweeps])
        assert tries[legal.index(choice)] == sweeps
        assert tries.sum() <= budget + rounds * n
        kept = tries == sweeps
        assert (totals / tries)[legal.index(choice)] == (totals / tries)[kept].max()
        checked += 1
    assert checked >= 2


def test_flatmc_sweeps_reward_the_placing_compiled_as_through_the_api(game_positions):
    """With ``placing`` 1 a simulation's reward is the seat's placing alone: in Paris
    d'amis at 4 players 0, 1/3, 2/3 or 1 (a second or third place: no win share), the same
    compiled as through the common API."""
    bot = agents.load("flatmc", placing=1.0)
    thirds = set()
    for state in game_positions[:5]:
        obs = state.observation(state.current_player)
        legal = state.legal_actions()
        rewards = bot.sweeps(obs, legal, np.random.default_rng(4), 6)
        slow = bot.sweeps(APIOnlyObservation(obs), legal, np.random.default_rng(4), 6)
        assert np.allclose(rewards, slow, atol=1e-12)
        assert np.allclose(rewards * 3, np.round(rewards * 3), atol=1e-9)
        thirds |= set(np.round(rewards * 3).astype(int).ravel().tolist())
    assert thirds <= {0, 1, 2, 3} and {1, 2} <= thirds


def test_flatmc_sweeps_are_its_simulations_one_determinization_a_row(game_positions):
    bot = agents.load("flatmc")
    for state in game_positions[:5]:
        obs = state.observation(state.current_player)
        legal = state.legal_actions()
        rewards = bot.sweeps(obs, legal, np.random.default_rng(4), 6)
        assert rewards.shape == (6, len(legal))
        assert ((rewards >= 0) & (rewards <= 1 + 1e-12)).all()
        slow = bot.sweeps(APIOnlyObservation(obs), legal, np.random.default_rng(4), 6)
        assert np.allclose(rewards, slow, atol=1e-12)
        totals, tries = agents.load("flatmc", iterations=6 * len(legal)).values(
            obs, legal, np.random.default_rng(4))
        assert (tries == 6).all()
        assert np.allclose(rewards.sum(axis=0), totals, atol=1e-12)


def test_ismcts_stops_once_no_iteration_could_change_its_choice(game_positions, monkeypatch):
    """The search that stops early chooses as the one that spends its whole budget."""
    bot = agents.load("ismcts", iterations=60)
    runs = []
    monkeypatch.setattr(ISMCTS, "iterate", lambda self, *a, iterate=ISMCTS.iterate:
                        runs.append(1) or iterate(self, *a))

    def search(state):
        runs.clear()
        obs = APIOnlyObservation(state.observation(state.current_player))
        return bot.act(obs, state.legal_actions(), np.random.default_rng(5)), len(runs)

    early = [search(state) for state in game_positions[:6]]
    monkeypatch.setattr(Node, "settled", lambda self, remaining: False)
    whole = [search(state) for state in game_positions[:6]]
    assert [choice for choice, _ in early] == [choice for choice, _ in whole]
    assert all(runs == 60 for _, runs in whole)
    assert any(runs < 60 for _, runs in early)


# ======================================================================================
# parameters
# ======================================================================================
def test_the_searches_are_known_as_searches_with_or_without_a_profile():
    assert agents.is_search("ismcts") and agents.is_search("flatmc@plain")
    assert not agents.is_search("greedy@tuned") and not agents.is_search("random")
    with pytest.raises(ValueError, match="available agents"):
        agents.is_search("nobody")


def test_options_are_passed_through_the_registry():
    bot = agents.load("ismcts", iterations=200)
    assert isinstance(bot, ISMCTS)
    assert bot.params == ISMCTSParams(iterations=200)
    assert agents.load("flatmc", seconds=0.5, rollout="random").params.seconds == 0.5


@pytest.mark.parametrize("name, options, message", [
    ("ismcts", {"budget": 3}, "unknown parameter 'budget' for ismcts; valid keys: "
                              "iterations, seconds, rollout, horizon, placing, "
                              "delegate, trust, exploration, widening"),
    ("flatmc", {"exploration": 1.0}, "unknown parameter 'exploration' for flatmc; valid "
                                     "keys: iterations, seconds, rollout, horizon, placing, "
                                     "delegate, trust, halving"),
    ("ismcts", {"halving": True}, "unknown parameter 'halving' for ismcts"),
    ("flatmc", {"halving": True, "seconds": 0.5}, "flatmc: halving needs an iteration "
                                                  "budget, not seconds=0.5"),
    ("flatmc", {"halving": "sometimes"}, "flatmc: bad value for halving: 'sometimes'"),
    ("ismcts", {"iterations": 0}, "ismcts: bad value for iterations: 0; valid values: >= 1"),
    ("flatmc", {"iterations": 2.5}, "flatmc: bad value for iterations: 2.5 (expected an "
                                    "integer)"),
    ("ismcts", {"iterations": True}, "bad value for iterations: True (expected an integer)"),
    ("flatmc", {"seconds": 0}, "bad value for seconds: 0.0; valid values: a positive number "
                               "or none"),
    ("ismcts", {"seconds": float("inf")}, "bad value for seconds: inf (expected a finite "
                                          "number)"),
    ("ismcts", {"exploration": -0.1}, "bad value for exploration: -0.1; valid values: >= 0"),
    ("ismcts", {"exploration": "high"}, "bad value for exploration: 'high' (expected a "
                                        "number)"),
    ("flatmc", {"rollout": "oracle"}, "unknown rollout policy 'oracle'; available agents: "),
    ("ismcts", {"horizon": -1}, "bad value for horizon: -1; valid values: >= 0"),
    ("flatmc", {"placing": 1.5}, "flatmc: bad value for placing: 1.5; valid values: 0..1"),
    ("ismcts", {"placing": -0.5}, "ismcts: bad value for placing: -0.5; valid values: 0..1"),
    ("ismcts", {"trust": -1}, "ismcts: bad value for trust: -1"),
    ("flatmc", {"trust": 1}, "flatmc: trust=1 needs a rollout policy to trust, not "
                             "rollout=random; valid: a rollout bot of the game, or trust=0"),
])
def test_bad_options_are_refused(name, options, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        agents.load(name, **options)


@pytest.mark.parametrize("placing, expected", [
    (0.0, (0.5, 0.5, 0.0, 0.0)),
    (1.0, (1.0, 1.0, 1 / 3, 0.0)),
    (0.5, (0.75, 0.75, 1 / 6, 0.0)),
])
def test_the_reward_mixes_win_share_and_placing_on_a_finished_state(placing, expected):
    """A finished Paris d'amis state at 4 players whose first two seats share the win (ranks
    1, 1, 3, 4): the compiled searches' reward and the Python searches' give each seat
    (1 - placing) * win share + placing * (4 - rank) / 3."""
    game = paris(players=4)
    state = game.new_state(0)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    room = search_room(game, 1, np.int32, 1)
    world = state.s.copy()
    world[room.at[AT_RANK]:room.at[AT_RANK] + 4] = [1, 1, 3, 4]
    compiled = tuple(reward(world, room.at, seat, placing) for seat in range(4))
    assert compiled == pytest.approx(expected)
    assert placed([1, 1, 3, 4], placing) == compiled
    assert placed(list(state.result().ranks), 0.0) == state.result().win_shares


def test_defaults():
    assert FlatMC().params.iterations == 200 and FlatMC().params.rollout == "random"
    assert ISMCTS().params.exploration == 0.7 and ISMCTS().params.seconds is None


def test_parameters_round_trip_through_key_value_strings():
    params = ISMCTSParams(iterations=50, seconds=0.25, exploration=1.5,
                          delegate="discard,hand_change", rollout="greedy", trust=1.5)
    assert str(params) == ("iterations=50 seconds=0.25 rollout=greedy horizon=0 placing=0.0 "
                           "delegate=discard,hand_change trust=1.5 exploration=1.5 "
                           "widening=0.0")
    assert ISMCTSParams.from_strings(params.to_strings()) == params
    assert ISMCTSParams.from_strings(["seconds=none"]).seconds is None
    assert ISMCTSParams.from_strings(["exploration=2"]).exploration == 2.0


# ======================================================================================
# strength: an obviously winning move
# ======================================================================================
def last_turn():
    """The last round of a 2-player game scored by total points, one marker each.  P1 has
    placed 10♠ under A♠ (3 points); P0, to play, holds J♠ and 2♦ (7♦, 1 point, is face up):
    only ``place J♠ → spades`` wins; ``place 2♦`` or a bet loses."""
    state = build(2, {0: "J♠ 2♦", 1: "10♠"}, starter=1, rounds=1, markers=1,
                  scoring="total", faces={SPADES: "A♠", DIAMONDS: "7♦"})
    play(state, "P1 place 10♠ → spades")
    return state


def test_the_constructed_position_has_one_winning_move():
    state = last_turn()
    outcomes = {}
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        while not after.is_terminal():
            after.apply(after.legal_actions()[0])
        outcomes[action.text] = after.result().win_shares[0]
    assert outcomes == {"place J♠ → spades": 1.0, "place 2♦ → diamonds": 0.0,
                        "bet 1": 0.0, "bet 2": 0.0}


@pytest.mark.parametrize("name, options", [("flatmc", {}), ("ismcts", {}),
                                           ("flatmc", {"halving": True})])
def test_search_finds_the_winning_move(name, options):
    bot = agents.load(name, iterations=100, **options)
    for seed in range(3):
        assert choose(bot, last_turn(), seed).text == "place J♠ → spades"


# ======================================================================================
# the engine's compiled playout
# ======================================================================================
def test_playout_plays_the_game_the_random_agent_plays():
    """``playout(rng)`` draws each decision as ``random`` does from ``rng`` and each chance
    step from the state's own stream: the same final state, the same streams afterwards."""
    game = paris(players=3, jokers=1)
    random_agent = agents.load("random")
    for i, state in enumerate(positions(game, seed=4, every=29)[:6]):
        compiled, api = state.clone(), state.clone()
        rng_compiled, rng_api = np.random.default_rng(i), np.random.default_rng(i)
        shares = compiled.playout(rng_compiled)
        while not api.is_terminal():
            player = api.current_player
            api.apply(random_agent.act(api.observation(player), api.legal_actions(), rng_api))
        assert compiled.is_terminal()
        assert np.array_equal(compiled.s, api.s)
        assert np.array_equal(compiled._stream, api._stream)
        assert rng_compiled.random() == rng_api.random()
        assert shares == api.result().win_shares == compiled.result().win_shares


def test_a_horizon_is_refused_in_a_game_without_rounds():
    state = engines.load("huit-americain").new_state(0)
    bot = agents.load("ismcts", iterations=4, horizon=1)
    with pytest.raises(ValueError, match="horizon=1 needs a game that counts rounds, not "
                                         "huit-americain; games with rounds: .*paris-damis"):
        choose(bot, state)



@pytest.mark.parametrize("name", ["flatmc", "ismcts"])
def test_a_delegated_phase_is_played_as_the_rollout_policy_plays_it(name):
    """In the phases it delegates the search plays its rollout bot's choice (here the
    discards and hand changes, greedy@tuned's); elsewhere it searches."""
    rollout = agents.load("greedy@tuned", game="paris-damis")
    bot = agents.load(name, iterations=30, rollout="greedy@tuned", delegate="discard, hand_change")
    phases, differ = set(), 0
    for seed in range(4):
        for state in positions(paris(players=3), seed, every=3):
            observation, legal = state.observation(state.current_player), state.legal_actions()
            mine = bot.act(observation, legal, np.random.default_rng(seed))
            theirs = rollout.act(observation, legal, np.random.default_rng(seed))
            if observation.phase in ("discard", "hand_change"):
                phases.add(observation.phase)
                assert mine == theirs, (observation.phase, seed)
            else:
                differ += mine != theirs
    assert phases == {"discard", "hand_change"} and differ > 0


@pytest.mark.parametrize("name", ["flatmc", "ismcts"])
def test_a_search_that_trusts_its_rollout_policy_keeps_its_choice_but_for_a_clear_gain(name):
    """With a large trust the search plays its rollout bot's choice at every decision; with
    a moderate one it leaves that choice at some (and only for an action its simulations
    rate higher)."""
    rollout = agents.load("greedy", game="paris-damis")
    blind = agents.load(name, iterations=30, rollout="greedy", trust=1e6)
    trusting = agents.load(name, iterations=30, rollout="greedy", trust=0.5)
    differ = 0
    for seed in range(3):
        for state in positions(paris(players=3), seed, every=3):
            observation, legal = state.observation(state.current_player), state.legal_actions()
            theirs = rollout.act(observation, legal, np.random.default_rng(seed))
            assert blind.act(observation, legal, np.random.default_rng(seed)) == theirs
            differ += trusting.act(observation, legal, np.random.default_rng(seed)) != theirs
    assert differ > 0


@pytest.mark.parametrize("totals, tries, trust, expected", [
    ([30.0, 20.0], [40, 40], 1.0, 0),      # 0.74 against 0.50: 2.3 errors apart
    ([30.0, 20.0], [40, 40], 3.0, 1),      # ... not 3
    ([22.0, 20.0], [40, 40], 1.0, 1),      # 0.55 against 0.50: 0.4 errors
    ([3.0, 0.0], [3, 0], 1.0, 1),          # the policy's choice never simulated: uncertain
    ([12.0, 0.0], [12, 0], 1.0, 0),        # ... until the search's choice is clear enough
])
def test_the_search_leaves_the_trusted_choice_only_for_a_gain_beyond_its_errors(
        totals, tries, trust, expected):
    assert trusted(0, 1, np.array(totals), np.array(tries), trust) == expected
    assert trusted(1, 1, np.array(totals), np.array(tries), trust) == 1


@pytest.mark.parametrize("slug, delegate, message", [
    ("paris-damis", "discard,bidding", "ismcts: delegate='discard,bidding': paris-damis has no "
                                       "phase 'bidding'; its phases: discard, exchange, "
                                       "hand_change, over, recycle, setup, turn"),
    ("bataille", "play", "bataille has no phase 'play'; its phases: none (the game names no "
                         "phases)")])
def test_a_delegated_phase_is_checked_against_the_game(slug, delegate, message):
    params = ISMCTSParams(iterations=4, delegate=delegate)
    with pytest.raises(ValueError, match=re.escape(message)):
        params.check_game(slug)


def test_a_bad_delegated_phase_on_the_command_line_is_one_line_and_exit_2(tmp_path,
                                                                           monkeypatch):
    """A profile delegating a phase the game does not have: one line naming the game's
    phases, exit status 2, nothing written."""
    from tests.sim.test_batch_support import batch_main
    (tmp_path / "paris-damis.toml").write_text('[flatmc.lean]\ndelegate = "discards"\n')
    monkeypatch.setenv("TAPIS_VERT_PROFILES", str(tmp_path))
    out = tmp_path / "run"
    code, stdout, err = batch_main("paris-damis", "--games", 2, "--players", 3, "--agents",
                                   "flatmc@lean,random,random", "--out", out, "--no-progress")
    assert code == 2 and stdout == ""
    assert len(err.strip().splitlines()) == 1, err
    assert "no phase 'discards'; its phases: discard, exchange, hand_change" in err, err
    assert not out.exists()


def test_a_rollout_policy_is_checked_against_the_game(tmp_path, monkeypatch):
    """A rollout bot must play the game searched, and its profile must exist for it."""
    state = engines.load("betzanbloo").new_state(0)
    with pytest.raises(ValueError, match="ismcts: rollout=greedy: unknown agent 'greedy' for "
                                         "betzanbloo; available agents: .*responder"):
        choose(agents.load("ismcts", iterations=4, rollout="greedy"), state)
    monkeypatch.setenv("TAPIS_VERT_PROFILES", str(tmp_path))
    (tmp_path / "betzanbloo.toml").write_text("[ismcts.x]\nrollout = 'safe@fast'\n")
    with pytest.raises(ValueError, match="rollout=safe@fast: unknown profile 'fast' of safe "
                                         "for betzanbloo"):
        agents.check("ismcts@x", "betzanbloo")


def test_a_profile_with_a_horizon_is_checked_against_the_game(tmp_path, monkeypatch):
    monkeypatch.setenv("TAPIS_VERT_PROFILES", str(tmp_path))
    for game in ("huit-americain", "paris-damis"):
        (tmp_path / f"{game}.toml").write_text("[ismcts.short]\nhorizon = 1\n")
    assert agents.params_for("ismcts@short", "paris-damis") == ISMCTSParams(horizon=1)
    with pytest.raises(ValueError, match="huit-americain.*horizon=1 needs a game that counts "
                                         "rounds"):
        agents.check("ismcts@short", "huit-americain")


@pytest.mark.parametrize("value", ["1.5", "-0.1", "half"])
def test_a_bad_placing_on_the_command_line_is_one_line_and_exit_2(value, tmp_path,
                                                                     monkeypatch):
    """``placing`` set out of [0, 1] in a profile named on the command line: one line naming
    the parameter and its valid values, exit status 2, nothing written."""
    from tests.sim.test_batch_support import batch_main
    (tmp_path / "paris-damis.toml").write_text(f'[ismcts.far]\nplacing = "{value}"\n'
                                               if value == "half" else
                                               f"[ismcts.far]\nplacing = {value}\n")
    monkeypatch.setenv("TAPIS_VERT_PROFILES", str(tmp_path))
    out = tmp_path / "run"
    code, stdout, err = batch_main("paris-damis", "--games", 2, "--players", 3, "--agents",
                                   "ismcts@far,random,random", "--out", out, "--no-progress")
    assert code == 2 and stdout == ""
    assert len(err.strip().splitlines()) == 1 and "placing" in err, err
    assert "valid values: 0..1" in err or "expected a number" in err, err
    assert not out.exists()
