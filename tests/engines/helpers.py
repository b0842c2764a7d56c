"""Helpers shared by the games' tests (every family): random play step by step, the checks
before every decision of a game, golden logs, the check that a game's compiled kernel plays
the games of its Python path, the clone/determinize check, an illegal action's refusal, and
a batch chunk's tables."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

import agents
import engines
from engines.core.api import IllegalActionError
from sim.batch.spec import RunSpec
from sim.batch.tables import play_chunk, uses_kernel
from sim.kernels import kernel_for
from sim.runner import play_python

MAX_STEPS = 20_000      # a bound on a random game's decisions: more is a finding


def random_steps(game, seed: int, max_steps: int = MAX_STEPS) -> Iterator[tuple]:
    """Yield (state, rng) before every decision of a random game, then the final state."""
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(max_steps):
        yield state, rng
        if state.is_terminal():
            return
        acts = state.legal_actions()
        assert acts, "a player to move has no legal action"
        state.apply(acts[rng.integers(len(acts))])
    raise AssertionError(f"no end after {max_steps} decisions")


def checked_decisions(state, check) -> Iterator[list]:
    """The legal actions of each decision of ``state`` to the end of its game (the caller
    applies one of them before taking the next).  Before each decision ``check(state)``
    passes, the rules' decision counter (``DECISIONS``) has counted every decision so far and
    some action is legal; at the end it has counted them all."""
    counter = state.game.rules.DECISIONS
    decisions = 0
    while not state.is_terminal():
        check(state)
        assert state.s[counter] == decisions
        acts = state.legal_actions()
        assert acts, "a player to move has no legal action"
        yield acts
        decisions += 1
    assert state.s[counter] == decisions


def assert_golden_log(test_file: str, name: str, log: list[str]) -> None:
    """``log`` is the committed ``golden/NAME.log`` beside ``test_file``."""
    path = Path(test_file).parent / "golden" / f"{name}.log"
    assert log == path.read_text(encoding="utf-8").splitlines()


def assert_golden_random_game(test_file: str, slug: str, params: dict, seed: int) -> None:
    """A fixed seed's whole game of ``slug`` at ``params``, the ``random`` agent at every
    seat, is the committed ``golden/SLUG.log`` beside ``test_file``: any change to the
    rules, the deal or the random agent's draws shows here."""
    game = engines.load(slug, **params)
    state = play_python(game, [agents.load("random")] * game.num_players, seed)
    assert_golden_log(test_file, slug, state.log)


def assert_every_action_parses_back(game) -> None:
    """Every action of ``game`` is found again from its text and from its code."""
    for action in game.actions:
        assert game.action(action.text) == action == game.action(action.code), action.text


def seat_mixes(bot: str) -> dict:
    """Seatings by name, each a function of the player count: every seat ``random``, every
    seat ``bot``, and ``bot`` and ``random`` alternating (``bot`` first)."""
    return {"random": lambda n: ["random"] * n, bot: lambda n: [bot] * n,
            "mixed": lambda n: ([bot, "random"] * n)[:n]}


def assert_kernel_plays_python(game, names: Sequence[str], seed: int, start: int,
                               count: int, options: dict | None = None):
    """The game's compiled kernel, with the bots ``names`` (one per seat; a bot with its
    ``options[name]``, ``explore`` among them), plays games ``start`` .. ``start + count - 1``
    exactly as the Python path does: the same final states, summary rows and round rows.
    Returns the kernel's output."""
    options = options or {}
    bots = [agents.load(name, game=game.slug, **options.get(name, {})) for name in names]
    kernel = kernel_for(game.slug)
    seats = []
    for name, bot in zip(names, bots, strict=True):
        own = dict(options.get(name, {}))
        explore = own.pop("explore", 0.0)
        seats.append((name, bot.params if own else None, explore))
    ids, weights = kernel.lineup(seats, game.slug)
    out = kernel.play(game, np.tile(ids, (count, 1)), seed, start, count, keep_states=True,
                      weights=weights)
    offset = 0
    for g in range(count):
        state = play_python(game, bots, seed, start + g)
        row, rounds = state.records()
        assert np.array_equal(out.finals[g], state.s), (names, g, "final state")
        assert np.array_equal(out.rows[g], row), (names, g, "summary row")
        k = int(out.round_counts[g])
        assert k == len(rounds), (names, g, "round rows")
        assert np.array_equal(out.rounds[offset:offset + k], rounds), (names, g)
        offset += k
    assert offset == len(out.rounds)
    return out


def assert_clone_and_determinize_change_nothing(game, seed: int, every: int, check_world,
                                                steps: int = MAX_STEPS,
                                                own_hand: bool = True) -> None:
    """At every ``every``-th of the first ``steps`` positions of a random game of ``seed``
    (:func:`random_steps`; a trick game: its states have ``hand_of``): playing a clone of the
    state on, and determinizing the state for each seat p (rng seeded ``step + p``), leave the
    state as it was; each seat's world shows it the same observation, passes
    ``check_world(world, state, p)`` and, with ``own_hand`` (a game whose seats always see
    their own hand), gives it the same hand."""
    for step, (state, _) in enumerate(random_steps(game, seed)):
        if step == steps:
            return
        if step % every:
            continue
        before, log = state.s.copy(), list(state.log)
        copy = state.clone()
        if not copy.is_terminal():
            copy.apply(copy.legal_actions()[0])
        for p in range(game.num_players):
            world = state.determinize(p, np.random.default_rng(step + p))
            check_world(world, state, p)
            assert np.array_equal(world.observation(p).array, state.observation(p).array)
            assert world.hand_of(p) == state.hand_of(p) or not own_hand
        assert np.array_equal(state.s, before)
        assert state.log == log


def batch_chunk(slug: str, names: Sequence[str], games: int, seed: int = 1,
                **params) -> tuple[RunSpec, dict]:
    """A batch chunk of ``games`` games of ``slug`` at ``params``, played by the agents
    ``names`` (seats rotating): its RunSpec and its tables (arrow)."""
    spec = RunSpec(game=slug, params=engines.load(slug, **params).params, agents=tuple(names),
                   seating="rotate", seed=seed, games=games, chunk_size=games)
    return spec, play_chunk(spec, 0, games)


def batch_frames(slug: str, names: Sequence[str], games: int, seed: int = 1,
                 **params) -> dict:
    """The games, players and rounds tables of ``batch_chunk`` as pandas frames."""
    _, tables = batch_chunk(slug, names, games, seed, **params)
    return {name: table.to_pandas() for name, table in tables.items()}


def checked_frames(slug: str, names: Sequence[str] | None, games: int, kernel: bool | None,
                   **params) -> tuple[object, dict]:
    """The tables of ``batch_chunk`` (seed 5; ``names`` None: ``random`` at every seat) as
    pandas frames, once the checks every game's tables pass: whether the kernel played them
    (``kernel``, None: either way), a games row per game and a players row per seat and game,
    each game's decisions its players' sum.  Returns the parameters and the frames."""
    if names is None:
        names = ("random",) * engines.load(slug, **params).num_players
    spec, arrow = batch_chunk(slug, names, games, seed=5, **params)
    if kernel is not None:
        assert uses_kernel(spec) == kernel
    return spec.params, checked(arrow, games, spec.params.players)


def checked(arrow: dict, games: int, seats: int) -> dict:
    """A chunk's tables (arrow) as pandas frames, once checked as :func:`checked_frames`
    checks them (``games`` games of ``seats`` seats)."""
    frames = {name: table.to_pandas() for name, table in arrow.items()}
    played, players = frames["games"], frames["players"]
    assert len(played) == games and len(players) == games * seats
    assert (played.decisions == players.groupby("game_id").decisions.sum()).all()
    return frames


def per_seat(players, rounds, **sums):
    """The players table by (game_id, seat), joined with the rounds table's aggregates per
    game and seat (``sums``: name=(column, function), as pandas' ``agg`` reads them)."""
    return players.set_index(["game_id", "seat"]).join(
        rounds.groupby(["game_id", "seat"]).agg(**sums))


def assert_refused_unchanged(state, action, match: str) -> None:
    """Applying ``action`` raises IllegalActionError matching ``match`` and leaves the
    state array as it was."""
    before = state.s.copy()
    with pytest.raises(IllegalActionError, match=match):
        state.apply(action)
    assert np.array_equal(state.s, before)
