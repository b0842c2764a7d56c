"""The contract of :mod:`engines.core.api`, checked on every registered game: random play to the
end, clones, observations and determinizations, results, records and their documented
columns, and seeded determinism.

Every game runs at its default parameters, and a few at other parameters where that is
cheap.  Seeds come from hypothesis (a few examples per game, derandomized: the same seeds
on every run); a failure names the game and the seed.  A game-specific rule scenario
belongs in that game's own tests, not here.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agents
import engines
from engines.core.api import Action, Game, IllegalActionError, Result, State
from engines.core.seeding import decision_rng
from sim.batch.spec import RunSpec
from sim.batch.tables import build_tables
from tests.engines.helpers import assert_every_action_parses_back

DOCS = Path(__file__).resolve().parents[2] / "docs"
MAX_DECISIONS = 50_000          # a bound on every game played here: more is a finding
RANDOM = agents.load("random")

# (slug, parameters): every game at its defaults, then a few other cheap settings
CASES: list[tuple[str, dict[str, Any]]] = [(slug, {}) for slug in engines.available()]
CASES += [
    ("paris-damis", {"players": 3, "jokers": 1, "discard": "all"}),
    ("rikiki", {"players": 3, "hook_rule": True}),
    ("chasse-coeur", {"players": 3, "pass_cards": 3}),
    ("huit-americain", {"players": 2, "carte_call": True}),
    ("huit-americain", {"players": 8, "kh_counter_again": True, "max_turns": 2000}),  # cycles
    ("bataille", {"players": 3, "pickup_order": "random"}),
    ("betzanbloo", {"players": 3, "scoring": "diamonds"}),
    ("tarot", {"players": 5}),
]
IDS = [slug + "".join(f"-{k}={v}" for k, v in params.items()) for slug, params in CASES]

seeds = st.integers(min_value=0, max_value=2**32 - 1)
few = settings(max_examples=2, deadline=None, derandomize=True, database=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

_GAMES: dict[int, Game] = {}


@pytest.fixture(params=range(len(CASES)), ids=IDS)
def game(request) -> Game:
    """The game of a case (made once: games are immutable)."""
    i = request.param
    if i not in _GAMES:
        slug, params = CASES[i]
        _GAMES[i] = engines.load(slug, **params)
    return _GAMES[i]


# --------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------
def step(state: State, rng: np.random.Generator) -> Action:
    """One decision of the ``random`` agent (it reads the observation, as every agent
    does); returns the action played."""
    player = state.current_player
    action = RANDOM.act(state.observation(player), state.legal_actions(), rng)
    state.apply(action)
    return action


def play_to_end(state: State, rng: np.random.Generator) -> list[int]:
    """Random play to the end (bounded); the codes played."""
    codes = []
    while not state.is_terminal():
        assert len(codes) < MAX_DECISIONS, f"no end after {MAX_DECISIONS} decisions"
        codes.append(step(state, rng).code)
    return codes


def seen(observation: Any) -> Any:
    """What an observation shows, comparable with ``==``: the masked state array where the
    game offers one, else its public fields."""
    if hasattr(observation, "array"):
        return (observation.player, observation.array.tobytes())
    return tuple(sorted((k, repr(v)) for k, v in vars(observation).items()
                        if not k.startswith("_")))


def views(state: State, players: int) -> list[Any]:
    """Every seat's observation of ``state``."""
    return [seen(state.observation(p)) for p in range(players)]


def snapshot(state: State, players: int) -> tuple:
    """Everything the API shows of a state (for 'unchanged' checks)."""
    legal = [a.code for a in state.legal_actions()]
    return state.current_player, legal, list(state.log), views(state, players)


def positions(game: Game, seed: int, count: int | None) -> list[State]:
    """Clones of a random game at ``count`` decisions spread over it (the first included;
    None: at every decision)."""
    rng = np.random.default_rng(seed)
    length = len(play_to_end(game.new_state(seed), np.random.default_rng(seed)))
    marks = (set(range(length)) if count is None
             else set(np.linspace(0, max(length - 1, 0), count).astype(int).tolist()))
    state, out = game.new_state(seed), []
    for i in range(length):
        if i in marks:
            out.append(state.clone())
        step(state, rng)
    return out


# --------------------------------------------------------------------------------------
# random play, result and records
# --------------------------------------------------------------------------------------
@given(seed=seeds)
@few
def test_random_play_reaches_an_end_with_a_consistent_result(game, seed):
    n = game.num_players
    state = game.new_state(seed)
    assert isinstance(state, State)
    assert isinstance(game, Game)
    rng = np.random.default_rng(seed)
    decisions = 0
    while not state.is_terminal():
        assert decisions < MAX_DECISIONS, f"no end after {MAX_DECISIONS} decisions"
        assert 0 <= state.current_player < n
        legal = state.legal_actions()
        assert legal, "a decision without a legal action"
        assert all(isinstance(a, Action) for a in legal)
        assert len({a.code for a in legal}) == len(legal), "an action listed twice"
        with pytest.raises(ValueError):
            state.result()
        with pytest.raises(ValueError):
            state.records()
        step(state, rng)
        decisions += 1
    assert state.current_player == -1
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError):
        state.apply(legal[0])

    result = state.result()
    assert isinstance(result, Result)
    assert len(result.scores) == len(result.ranks) == len(result.win_shares) == n
    assert sum(result.win_shares) == pytest.approx(1.0)
    winners = result.winners
    assert winners and min(result.ranks) == 1 and all(r >= 1 for r in result.ranks)
    for p in range(n):
        expected = 1 / len(winners) if p in winners else 0.0
        assert result.win_shares[p] == pytest.approx(expected)
    assert result.stats["decisions"] == decisions
    assert "rounds" in result.stats
    for name, values in result.details.items():
        assert len(values) == n, name


@given(seed=seeds)
@few
def test_records_have_the_documented_columns(game, seed):
    summary = game.summary
    state = game.new_state(seed)
    play_to_end(state, np.random.default_rng(seed))
    row, rounds = state.records()
    assert row.shape == (summary.SIZE,) and row.dtype == np.int32
    assert rounds.ndim == 2 and rounds.shape[1] == summary.ROUND_WIDTH
    assert rounds.dtype == np.int32
    assert summary.result(game.params, row) == state.result()

    n = game.num_players
    spec = RunSpec(game=game.slug, params=game.params,
                   agents=("random",) * n, seating="fixed", seed=seed, games=1,
                   chunk_size=1)
    tables = build_tables(game, spec, 0, 1, np.arange(n)[None, :], row[None, :],
                          rounds, np.array([len(rounds)]))
    assert set(tables) == {"games", "players", "rounds"}
    assert tables["games"].num_rows == 1 and tables["players"].num_rows == n
    assert tables["rounds"].num_rows == len(rounds)
    # a plugin game (docs/add-a-game.md) documents its columns in its own package
    if engines.builtin(game.slug):
        assert_documented(game.slug, tables, n)
    players = tables["players"].to_pydict()
    assert players["win_share"] == pytest.approx(list(state.result().win_shares))
    assert players["rank"] == list(state.result().ranks)


def assert_documented(slug: str, tables: dict[str, pa.Table], players: int) -> None:
    """Every column of the tables, and no other, is on the game's results page, with its
    type (in the table's order on the pages that keep it)."""
    documented = documented_columns(slug, players)
    for table, built in tables.items():
        names = set(built.column_names) - BATCH_COLUMNS[table]
        doc = documented.get(table, {})
        assert names == set(doc) - BATCH_COLUMNS[table], \
            f"{table}: undocumented {sorted(names - set(doc))}, " \
            f"missing {sorted(set(doc) - names - BATCH_COLUMNS[table])}"
        if slug in IN_TABLE_ORDER:
            assert built.column_names == list(doc), f"{table}: not the page's columns in order"
        for name in set(built.column_names) & set(doc):
            if doc[name] is not None:
                assert built.schema.field(name).type == doc[name], (table, name)


# the columns sim.batch adds to every game's tables
BATCH_COLUMNS = {"games": {"game_id", "seed", "n_players", "winner_seats"},
                 "players": {"game_id", "seat", "agent", "agent_index"},
                 "rounds": {"game_id"}}
# the pages that list every column of each table, sim.batch's too, in the table's order
# (the others group them by topic)
IN_TABLE_ORDER = {"ascenseur-atouts", "belote-a-trois", "belote-comptoir", "chasse-coeur",
                  "petasse", "rikiki", "tarot", "tarot-lorrain", "tarot-tare", "vicaire"}
TYPES = {"int8": pa.int8(), "int16": pa.int16(), "int32": pa.int32(), "int64": pa.int64(),
         "float32": pa.float32(), "float64": pa.float64(), "bool": pa.bool_(),
         "list<int8>": pa.list_(pa.int8()), "category": pa.dictionary(pa.int8(), pa.string())}


def documented_columns(slug: str, players: int) -> dict[str, dict[str, pa.DataType | None]]:
    """Every column of each table section (``## games``, ``## players``, ``## rounds``) of
    the game's results page, with its type (None: a type this test does not read).  A row
    may name several columns: ``a``, ``b``; a range ``x_1`` .. ``x_3``; one per seat
    ``score_p0`` ...  A page without sections follows the page it says it shares."""
    page = DOCS / f"results-{slug}.md"
    if not page.exists():
        page = DOCS / "results.md"          # paris-damis, the first game
    text = page.read_text(encoding="utf-8")
    tables: dict[str, dict[str, pa.DataType | None]] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("## "):
            heading = re.match(r"## (games|players|rounds)\b", line)
            current = tables.setdefault(heading.group(1), {}) if heading else None
        elif current is not None and line.startswith("| `"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            kind = TYPES.get(cells[1])
            for name in column_names(cells[0], players):
                current[name] = kind
    if not tables:
        shared = re.search(r"\]\((results-[\w-]+\.md)\)", text)
        assert shared, f"{page.name} documents no table"
        return documented_columns(shared.group(1)[len("results-"):-len(".md")], players)
    return tables


def column_names(cell: str, players: int) -> list[str]:
    """The columns one table row names."""
    names = []
    for match in re.finditer(r"`(\w+)`( \.\. `(\w+)`| \.\.\.)?", cell):
        first, more, last = match.groups()
        if more is None:
            names.append(first)
            continue
        stem, start = re.match(r"(\w*?)(\d+)$", first).groups()
        end = int(re.match(r"\w*?(\d+)$", last).group(1)) if last else players - 1
        names += [f"{stem}{i}" for i in range(int(start), end + 1)]
    return names


# --------------------------------------------------------------------------------------
# clones
# --------------------------------------------------------------------------------------
@given(seed=seeds, at=st.floats(min_value=0.0, max_value=0.9))
@few
def test_a_clone_is_independent_and_has_the_same_future(game, seed, at):
    n = game.num_players
    state = game.new_state(seed)
    length = len(play_to_end(game.new_state(seed), np.random.default_rng(seed)))
    rng = np.random.default_rng(seed)
    for _ in range(int(at * length)):
        step(state, rng)
    before = snapshot(state, n)
    twin = state.clone()
    assert snapshot(twin, n) == before
    moves = play_to_end(twin, np.random.default_rng(seed + 1))
    assert snapshot(state, n) == before, "playing the clone changed the original"
    for code in moves:
        state.apply(code)
    assert state.is_terminal()
    assert state.log == twin.log
    assert state.result() == twin.result()
    for a, b in zip(state.records(), twin.records(), strict=True):
        assert np.array_equal(a, b)


# --------------------------------------------------------------------------------------
# hidden information
# --------------------------------------------------------------------------------------
def determinizations_hide(game: Game, seed: int, states: list[State]) -> tuple[int, int]:
    """Check that each seat's determinizations of ``states`` look the same to that seat and
    leave the state alone; return how many showed another seat something else (private
    cards moved), and, while there was none, how many played on differently."""
    n = game.num_players
    private = differ = 0
    for i, state in enumerate(states):
        before = snapshot(state, n)
        for p in range(n):
            other = state.determinize(p, np.random.default_rng([seed, i, p]))
            assert isinstance(other, State)
            assert seen(other.observation(p)) == seen(state.observation(p)), \
                f"position {i}, seat {p}"
            assert other.current_player == state.current_player
            assert [a.code for a in other.legal_actions()] == \
                [a.code for a in state.legal_actions()] or other.current_player != p
            if views(other, n) != views(state, n):
                private += 1            # another seat sees what p does not
            elif not private and not differ:
                differ += future(other, seed) != future(state.clone(), seed)
        assert snapshot(state, n) == before, "determinize changed the original"
    return private, differ


@given(seed=seeds)
@few
def test_an_observation_hides_what_its_seat_may_not_see(game, seed):
    """Two states that differ only in what seat p may not see (the second a determinization
    of the first for p: hidden cards dealt again, another chance stream) give p the same
    observation; and the test has power: the two states do differ, in what another seat
    sees or in how the game goes on."""
    private, differ = determinizations_hide(game, seed, positions(game, seed, 4))
    if not private and game.slug not in NO_PRIVATE_CARDS:
        # no private card at the spread positions (Betzanbloo: each at the start of a turn,
        # before anyone chose): every decision of the game, for the test's power
        private, differ = determinizations_hide(game, seed, positions(game, seed, None))
    if game.slug in NO_PRIVATE_CARDS:
        assert private == 0
        assert differ > 0, "no determinization differed from its state: no power"
    elif game.slug in PRIVATE_NOW_AND_THEN:
        assert private or differ, "no determinization differed from its state: no power"
    else:
        assert private > 0, "no determinization moved a card another seat sees: no power"


# games where, at their default parameters, no seat sees a card another does not: what is
# hidden (pile orders, the shoe, a coup's cards to come) is hidden from all
NO_PRIVATE_CARDS = {"bataille", "super-bataille", "pharaon"}
# games where a card is private only at some decisions, which a game may not reach (baccara:
# the ponte sees his two cards when he must draw or stand at 5)
PRIVATE_NOW_AND_THEN = {"baccara"}


def future(state: State, seed: int) -> list[str]:
    """The log lines of a random continuation (the state is played)."""
    start = len(state.log)
    play_to_end(state, np.random.default_rng(seed))
    return state.log[start:]


@given(seed=seeds)
@few
def test_a_determinization_depends_only_on_the_observation(game, seed):
    """For one ``rng``, two states p cannot tell apart determinize to the same state for p
    (every seat sees the same, and the same decisions give the same game)."""
    n = game.num_players
    for i, state in enumerate(positions(game, seed, 3)):
        p = state.current_player
        other = state.determinize(p, np.random.default_rng([seed, i, 1]))
        a = state.observation(p).determinize(np.random.default_rng([seed, i, 2]))
        b = other.observation(p).determinize(np.random.default_rng([seed, i, 2]))
        assert views(a, n) == views(b, n), f"position {i}"
        assert future(a, seed) == future(b, seed), f"position {i}"
        assert a.result() == b.result()


# --------------------------------------------------------------------------------------
# seeded determinism and the fast path
# --------------------------------------------------------------------------------------
@given(seed=seeds, index=st.integers(min_value=0, max_value=10_000))
@few
def test_the_same_seed_gives_the_same_game(game, seed, index):
    games = []
    for _ in range(2):
        state = game.new_state(seed, index)
        play_to_end(state, decision_rng(seed, index))
        games.append(state)
    a, b = games
    assert a.log == b.log
    assert a.result() == b.result()
    for x, y in zip(a.records(), b.records(), strict=True):
        assert np.array_equal(x, y)
    other = game.new_state(seed, index + 1)
    play_to_end(other, decision_rng(seed, index + 1))
    assert other.log != a.log, "another game index plays the same game"


@given(seed=seeds, at=st.floats(min_value=0.0, max_value=0.9))
@few
def test_playout_plays_the_random_agents_game(game, seed, at):
    """From any point of a game, ``playout(rng)`` ends it as the ``random`` agent would
    with ``rng`` (the fast path of search bots)."""
    length = len(play_to_end(game.new_state(seed), np.random.default_rng(seed)))
    state, rng = game.new_state(seed), np.random.default_rng(seed)
    for _ in range(int(at * length)):
        step(state, rng)
    twin = state.clone()
    shares = state.playout(np.random.default_rng(seed + 1))
    assert state.is_terminal()
    play_to_end(twin, np.random.default_rng(seed + 1))
    assert shares == twin.result().win_shares
    assert state.result() == twin.result()
    assert np.array_equal(state.records()[0], twin.records()[0])


def test_every_action_parses_back_from_its_text(game):
    """Every listed action is found again from its text and from its code (the rummy
    games list none: theirs are made on use, and read among the legal ones)."""
    assert_every_action_parses_back(game)


def test_a_seat_out_of_range_is_refused(game):
    state = game.new_state(0)
    n = game.num_players
    for seat in (-1, n):
        with pytest.raises(ValueError, match="seat"):
            state.observation(seat)
        with pytest.raises(ValueError, match="seat"):
            state.determinize(seat, np.random.default_rng(0))


def test_the_game_class_finds_its_parameters_state_and_observation(game):
    """What the base finds beside a game class (engines.core.base): the parameters it was
    loaded with, a state and an observation of the game's own (or its family's) classes,
    and the game named without its article where an action is not understood."""
    assert game.slug == game.params.game and isinstance(game.params, type(game).Params)
    state = game.new_state(0)
    seen = state.observation(max(state.current_player, 0))
    assert type(state) is type(game).state_class
    assert type(seen) is type(state).observation_class
    assert type(state).__module__.split(".")[:3] == type(seen).__module__.split(".")[:3]
    title, noun = type(game).title, type(game).noun
    assert noun in title and not noun.startswith(("Le ", "La ", "Les ", "L'"))
    with pytest.raises(IllegalActionError, match=f"not an? {re.escape(noun)} action"):
        game.action("no such action 42")
