"""``flatmc`` and ``ismcts`` compiled: the searches of :mod:`agents.search`, decision for
decision, for every game with compiled rules, called from the Python API and from the
batch kernel alike.

Each search takes the rules' :class:`~engines.core.specialise.Tag` (it is compiled once per
game, see :mod:`engines.core.streams`), the true state ``s`` with the deciding seat (only
the rules' ``determinize`` reads it, which keeps of it what the seat may know), the legal
codes, the decision stream ``rng`` and a :class:`SearchRoom`'s arrays.  The worlds it makes
up draw their chance from a generator of their own (``worlds[0]``, whose SFC64 state is
``alias``), seeded for each world from ``rng`` as :func:`engines.core.compiled.fresh_stream`
seeds a determinized state's stream, so the choice is the one the Python searches make
through the common API with the same stream.

The searches allocate nothing (they run in kernels without numba's reference counting):
the room is made once by the caller.  Both can run in slices (``done`` iterations already
run, ``count`` more), for time budgets: the room keeps the searched world, the totals and
the tree between slices (flatmc's sequential halving, which plans its rounds from the whole
budget, runs it at once).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from agents.random_agent import action_index, explores, random_choice
from engines.core.chance import uniform_index_jit
from engines.core.layout import copy_into, stack_room
from engines.core.seeding import WORDS, ScratchStream, draw_words, reseed
from engines.core.specialise import Tag, by_tag, module_of
from engines.core.streams import (
    determinize,
    has_rounds,
    horizon_cut,
    list_legal,
    play_decision,
    play_rounds,
)

# Where the rules keep what the search reads of a state, in the room's ``at`` array (the
# rounds played: -1 in a game without rounds).
AT_CURRENT, AT_PHASE, AT_OVER, AT_RANK, AT_PLAYERS, AT_ROUNDS = range(6)

# A tree node's fields, one row of the room's ``nodes`` (its reward is in ``rewards``).
ACTION, PLAYER, VISITS, AVAILABLE, FIRST_CHILD, NEXT_SIBLING, CHILDREN = range(7)
NODE_FIELDS = 7
NO_NODE = -1
ROOT = 0


class SearchRoom(NamedTuple):
    """The work arrays of a search: the world searched and a copy played on, its chance
    stream's state, legal codes and untried actions (the rules' action dtype; flatmc's
    order of actions when it halves, see :func:`flat_mc_halving`), flatmc's totals and
    tries per action, ismcts's tree (``nodes`` rows, ``rewards``) and the path
    of one iteration, and where the rules keep the fields read (``at``)."""

    world: np.ndarray
    sim: np.ndarray
    world_stream: np.ndarray
    codes: np.ndarray
    untried: np.ndarray
    totals: np.ndarray
    tries: np.ndarray
    nodes: np.ndarray
    rewards: np.ndarray
    path: np.ndarray
    at: np.ndarray


def search_room(game: Any, legal_room: int, action_dtype: Any, iterations: int
                ) -> SearchRoom:
    """A room for searches of up to ``iterations`` iterations in ``game`` (a game of
    compiled rules; legal codes: ``legal_room`` of ``action_dtype``)."""
    rules = game.rules
    size = rules.STATE_SIZE
    fields = game.state_class.fields or rules            # where CURRENT, ..., RANK are
    rounds = rules.ROUNDS_PLAYED if has_rounds(rules) else -1
    nodes = iterations + 1
    return SearchRoom(
        np.zeros(size, dtype=np.int32), np.zeros(size, dtype=np.int32),
        np.zeros(5, dtype=np.uint64), np.zeros(legal_room, dtype=action_dtype),
        np.zeros(legal_room, dtype=action_dtype), np.zeros(legal_room, dtype=np.float64),
        np.zeros(legal_room, dtype=np.int64), np.zeros((nodes, NODE_FIELDS), dtype=np.int64),
        np.zeros(nodes, dtype=np.float64), np.zeros(nodes, dtype=np.int64),
        np.array([fields.CURRENT, fields.PHASE, fields.OVER, fields.RANK, game.num_players,
                  rounds], dtype=np.int64))


def with_tree_room(room: SearchRoom, iterations: int) -> SearchRoom:
    """``room``, its tree grown (contents kept) to hold ``iterations`` iterations."""
    nodes = iterations + 1
    if room.nodes.shape[0] >= nodes:
        return room
    grown = np.zeros((nodes, NODE_FIELDS), dtype=np.int64)
    grown[:room.nodes.shape[0]] = room.nodes
    rewards = np.zeros(nodes, dtype=np.float64)
    rewards[:room.rewards.shape[0]] = room.rewards
    return room._replace(nodes=grown, rewards=rewards, path=np.zeros(nodes, dtype=np.int64))


# --------------------------------------------------------------------------------------
# What both searches share: a world, a rollout, a seat's reward
# --------------------------------------------------------------------------------------
@njit(cache=True)
def new_world(tag, s, pr, player, rng, worlds, alias, world):
    """Into ``world``, a state consistent with what ``player`` may know of ``s`` (the rules'
    ``determinize``), and into the world generator a chance stream seeded from ``rng``."""
    determinize(tag, s, pr, player, rng, world)
    words = stack_room(WORDS, np.uint64)
    draw_words(rng, words)
    reseed(worlds[0], alias, words)


@njit(cache=True)
def rounds_limit(w, at, horizon):
    """The rounds played by the end of a simulation from the world ``w`` that plays
    ``horizon`` rounds, its own included (0: to the end of the game, see
    :func:`engines.core.streams.play_rounds`)."""
    if horizon <= 0 or at[AT_ROUNDS] < 0:
        return 0
    return w[at[AT_ROUNDS]] + horizon


# The compiled policies a search may roll out with, by the name of the policy tag it is
# given: a kernel's ``choose(policy, s, pr, actions, n, decisions, weights, seen, table)``,
# registered by :mod:`sim.kernels.factory` for each kernel.  A tag not registered here (the
# Python API's searches, :data:`RANDOM`) rolls out at random.
ROLLOUT_POLICIES: dict[str, Any] = {}
# The rollout policy that plays at random (policy 0 in every kernel), through the rules'
# own random play-out.
RANDOM_ROLLOUT = 0


class RolloutPolicy(NamedTuple):
    """How a search plays its simulations out: the policy ``policy`` of the policy tag
    ``policies`` (see :data:`ROLLOUT_POLICIES`), with that kernel's work arrays ``work``
    (``(weights, seen, table)``; empty for random rollouts)."""

    policies: Tag
    policy: int
    work: tuple


# Random rollouts, wherever no kernel's policies are at hand (the Python API).
RANDOM = RolloutPolicy(Tag(f"{__name__}.random"), RANDOM_ROLLOUT, ())


def roll_out(policies, tag, s, pr, rng, decisions, actions, limit, rollout, work):
    """Play the world ``s`` on as the policy ``rollout`` of ``policies`` (a policy tag, see
    :data:`ROLLOUT_POLICIES`) would, with its work arrays ``work`` (``(weights, seen,
    table)``), until ``limit`` rounds have been played (0: to the end), then rank the seats
    as :func:`engines.core.streams.play_rounds` does; its chance from ``rng``, its choices'
    from ``decisions``.  :data:`RANDOM_ROLLOUT` is the rules' random play-out."""


def policy_choice(policies, s, pr, actions, n, decisions, rollout, work):
    """The code the policy ``rollout`` of ``policies`` plays among the ``n`` legal codes
    ``actions`` of the world ``s`` (exploring as its row says, see
    :class:`agents.base.Exploring`)."""


@by_tag(policy_choice)
def _policy_choice(policies, s, pr, actions, n, decisions, rollout, work):
    choose = ROLLOUT_POLICIES.get(policies.tag)
    if choose is None:
        def impl_random(policies, s, pr, actions, n, decisions, rollout, work):
            return random_choice(actions, n, decisions)
        return impl_random

    def impl(policies, s, pr, actions, n, decisions, rollout, work):
        weights, seen, table = work
        if explores(weights[rollout, weights.shape[1] - 2], n, decisions):
            return random_choice(actions, n, decisions)
        return choose(rollout, s, pr, actions, n, decisions, weights, seen, table)
    return impl


@by_tag(roll_out)
def _roll_out(policies, tag, s, pr, rng, decisions, actions, limit, rollout, work):
    if policies.tag not in ROLLOUT_POLICIES:
        def impl_random(policies, tag, s, pr, rng, decisions, actions, limit, rollout, work):
            play_rounds(tag, s, pr, rng, decisions, actions, limit)
        return impl_random
    rules = module_of(tag)
    phase, over, cut = rules.PHASE, rules.OVER, horizon_cut(rules)

    def impl(policies, tag, s, pr, rng, decisions, actions, limit, rollout, work):
        if rollout == RANDOM_ROLLOUT:
            play_rounds(tag, s, pr, rng, decisions, actions, limit)
            return
        while s[phase] != over and not cut(s, pr, limit):
            n = list_legal(tag, s, pr, actions)
            play_decision(tag, s, pr, policy_choice(policies, s, pr, actions, n, decisions,
                                                    rollout, work), rng)
    return impl


@njit(cache=True)
def trusted(choice, anchor, totals, tries, trust):
    """The index to play: the search's ``choice``, unless its mean reward does not beat
    that of ``anchor``, its rollout policy's choice, by more than ``trust`` standard
    errors; then ``anchor``.  ``totals`` and ``tries`` hold each legal index's rewards and
    simulations; means are taken as (total + 1) / (tries + 2) and their errors as
    sqrt(m (1 - m) / (tries + 2)), the bound for rewards in [0, 1], so that an action
    simulated seldom or never counts as uncertain, not as bad."""
    if choice == anchor:
        return anchor
    chosen = (totals[choice] + 1.0) / (tries[choice] + 2.0)
    kept = (totals[anchor] + 1.0) / (tries[anchor] + 2.0)
    error = np.sqrt(chosen * (1.0 - chosen) / (tries[choice] + 2.0)
                    + kept * (1.0 - kept) / (tries[anchor] + 2.0))
    return choice if chosen - kept > trust * error else anchor


@njit(cache=True)
def reward(w, at, seat, placing):
    """The seat's reward in the finished world ``w``: (1 - ``placing``) times its win share
    (1 for a sole win, 1/k for a win shared by k seats, 0 otherwise) plus ``placing`` times
    its placing, (players - rank) / (players - 1) (1 first, 0 last, ties ranked equal); see
    :func:`agents.search.placed`."""
    rank = at[AT_RANK]
    players = at[AT_PLAYERS]
    winners = 0
    for p in range(players):
        if w[rank + p] == 1:
            winners += 1
    own = w[rank + seat]
    share = 1.0 / winners if own == 1 else 0.0
    return (1.0 - placing) * share + placing * (players - own) / (players - 1)


# --------------------------------------------------------------------------------------
# flatmc
# --------------------------------------------------------------------------------------
@njit(cache=True)
def sweep_world(tag, s, pr, player, rng, worlds, alias, room):
    """Into the room's ``world`` and ``world_stream``, the world of a new sweep over the
    actions (see :func:`new_world`), whose every action's try starts alike."""
    new_world(tag, s, pr, player, rng, worlds, alias, room.world)
    copy_into(room.world_stream, alias)


@njit(cache=True)
def tried(tag, pr, player, action, horizon, placing, rollout, rng, worlds, alias, room):
    """``player``'s reward (see :func:`reward`) for ``action`` played in the sweep's world,
    then played out (``horizon`` rounds, see :func:`rounds_limit`) with ``rollout``, a
    :class:`RolloutPolicy`; the world's chance starts from the sweep's stream."""
    sim, at = room.sim, room.at
    copy_into(sim, room.world)
    copy_into(alias, room.world_stream)
    play_decision(tag, sim, pr, action, worlds[0])
    roll_out(rollout.policies, tag, sim, pr, worlds[0], rng, room.codes,
             rounds_limit(room.world, at, horizon), rollout.policy, rollout.work)
    return reward(sim, at, player, placing)


@njit(cache=True)
def flat_mc(tag, s, pr, player, legal, n, done, count, horizon, placing, rollout, rng,
            worlds, alias, room):
    """``count`` more iterations (``done`` run already) of determinized flat Monte Carlo
    over the ``n`` legal codes: iteration i tries action ``i mod n`` in the world of its
    sweep (a fresh one when i is a multiple of n, see :func:`tried`); the room's ``totals``
    and ``tries`` add up each action's rewards for ``player``."""
    totals, tries = room.totals, room.tries
    if done == 0:
        for k in range(n):
            totals[k] = 0.0
            tries[k] = 0
    for i in range(done, done + count):
        k = i % n
        if k == 0:
            sweep_world(tag, s, pr, player, rng, worlds, alias, room)
        totals[k] += tried(tag, pr, player, legal[k], horizon, placing, rollout, rng, worlds,
                           alias, room)
        tries[k] += 1


@njit(cache=True)
def halving_rounds(n):
    """The rounds of sequential halving over ``n`` actions: ceil(log2 n), at least 1."""
    rounds = 1
    while (1 << rounds) < n:
        rounds += 1
    return rounds


@njit(cache=True)
def flat_mc_halving(tag, s, pr, player, legal, n, iterations, horizon, placing, rollout, rng,
                    worlds, alias, room):
    """flatmc's budget of ``iterations`` spread by sequential halving (Karnin, Koren and
    Somekh 2013) over the ``n`` legal codes: :func:`halving_rounds` rounds of
    ``iterations // rounds`` iterations each (at least one sweep); in each sweep every
    action still in is tried in one fresh world (see :func:`tried`), and after each round
    the better half stays in, by mean reward over all its tries (ties: the earlier in the
    order of the previous round, first that of ``legal``).  Returns the index of the one
    left; the room's ``totals`` and ``tries`` hold every action's rewards and tries, and
    ``untried`` the order reached."""
    totals, tries, order = room.totals, room.tries, room.untried
    for k in range(n):
        totals[k] = 0.0
        tries[k] = 0
        order[k] = k
    rounds = halving_rounds(n)
    left = n
    for _ in range(rounds):
        for _ in range(max(1, iterations // rounds // left)):
            sweep_world(tag, s, pr, player, rng, worlds, alias, room)
            for j in range(left):
                k = order[j]
                totals[k] += tried(tag, pr, player, legal[k], horizon, placing, rollout,
                                   rng, worlds, alias, room)
                tries[k] += 1
        best_first(order, left, totals, tries)
        left = (left + 1) // 2
    return order[0]


@njit(cache=True)
def best_first(order, left, totals, tries):
    """Sort the first ``left`` actions of ``order`` by mean reward, best first, keeping
    the order of equal means (an insertion sort: a few dozen actions at most)."""
    for a in range(1, left):
        k = order[a]
        mean = totals[k] / tries[k]
        b = a - 1
        while b >= 0 and totals[order[b]] / tries[order[b]] < mean:
            order[b + 1] = order[b]
            b -= 1
        order[b + 1] = k


@njit(cache=True)
def best_mean(totals, tries, n):
    """The action with the best mean reward (the first on ties; an untried one scores -1)."""
    best, best_score = 0, -2.0
    for k in range(n):
        score = totals[k] / tries[k] if tries[k] > 0 else -1.0
        if score > best_score:
            best, best_score = k, score
    return best


# --------------------------------------------------------------------------------------
# ismcts
# --------------------------------------------------------------------------------------
@njit(cache=True)
def child_of(nodes, node, code):
    """The child of ``node`` reached by ``code``, or ``NO_NODE``."""
    child = nodes[node, FIRST_CHILD]
    while child != NO_NODE:
        if nodes[child, ACTION] == code:
            return child
        child = nodes[child, NEXT_SIBLING]
    return NO_NODE


@njit(cache=True)
def clear_tree(nodes, rewards):
    """The tree as a root alone."""
    nodes[ROOT, ACTION] = -1
    nodes[ROOT, PLAYER] = -1
    nodes[ROOT, VISITS] = 0
    nodes[ROOT, AVAILABLE] = 0
    nodes[ROOT, FIRST_CHILD] = NO_NODE
    nodes[ROOT, NEXT_SIBLING] = NO_NODE
    nodes[ROOT, CHILDREN] = 0
    rewards[ROOT] = 0.0


@njit(cache=True)
def expand(nodes, rewards, node, size, code, player):
    """Add node ``size``, the child of ``node`` for the untried ``code`` chosen by
    ``player``, available once, after its elder siblings (children keep their order of
    creation)."""
    nodes[size, ACTION] = code
    nodes[size, PLAYER] = player
    nodes[size, VISITS] = 0
    nodes[size, AVAILABLE] = 1
    nodes[size, FIRST_CHILD] = NO_NODE
    nodes[size, NEXT_SIBLING] = NO_NODE
    nodes[size, CHILDREN] = 0
    rewards[size] = 0.0
    nodes[node, CHILDREN] += 1
    last = nodes[node, FIRST_CHILD]
    if last == NO_NODE:
        nodes[node, FIRST_CHILD] = size
        return
    while nodes[last, NEXT_SIBLING] != NO_NODE:
        last = nodes[last, NEXT_SIBLING]
    nodes[last, NEXT_SIBLING] = size


@njit(cache=True)
def ucb(nodes, rewards, child, exploration):
    """UCB1 with the availability count in place of the parent's visits."""
    visits = nodes[child, VISITS]
    return rewards[child] / visits \
        + exploration * math.sqrt(math.log(nodes[child, AVAILABLE]) / visits)


@njit(cache=True)
def widens(nodes, node, legal_children, widening):
    """Whether ``node``, whose children include ``legal_children`` of the actions legal
    now, takes a new child: always at the root, without a legal child, or with
    ``widening`` 0; else while it has fewer than 1 + floor(widening * sqrt(visits))
    (progressive widening, Coulom 2007; Chaslot et al. 2008)."""
    if widening <= 0.0 or node == ROOT or legal_children == 0:
        return True
    return nodes[node, CHILDREN] < 1 + math.floor(widening * math.sqrt(nodes[node, VISITS]))


@njit(cache=True)
def settled(nodes, remaining):
    """Whether the root's most visited child leads every other by more than ``remaining``
    visits, so that no number of further iterations can change the choice."""
    first, second = 0, 0
    child = nodes[ROOT, FIRST_CHILD]
    while child != NO_NODE:
        visits = nodes[child, VISITS]
        if visits > first:
            first, second = visits, first
        elif visits > second:
            second = visits
        child = nodes[child, NEXT_SIBLING]
    return first - second > remaining


@njit(cache=True)
def ismcts(tag, s, pr, player, done, count, exploration, widening, horizon, placing, rollout,
           rng, worlds, alias, room, settle):
    """``count`` more iterations (``done`` run already: the tree is the room's) of SO-ISMCTS
    for ``player``: each draws a world, selects by UCB1 with availability counts among the
    children of the actions legal in it while the node takes no new child (see
    :func:`widens`), expands one untried action (chosen at random; with ``widening``, the
    one ``rollout`` plays if it is untried), plays out with ``rollout`` (``horizon`` rounds
    from the world's, see :func:`rounds_limit`), and adds each node's reward for the seat
    that chose its action (see :func:`reward`).  With ``settle`` (``count`` is what is left
    of the budget), stops as soon as the choice is :func:`settled`.  Returns the tree's
    size."""
    sim, codes, untried = room.sim, room.codes, room.untried
    nodes, rewards, path, at = room.nodes, room.rewards, room.path, room.at
    current, phase, over = at[AT_CURRENT], at[AT_PHASE], at[AT_OVER]
    if done == 0:
        clear_tree(nodes, rewards)
    size = done + 1                         # one node added per iteration
    for i in range(count):
        if settle and settled(nodes, count - i):
            break
        new_world(tag, s, pr, player, rng, worlds, alias, sim)
        limit = rounds_limit(sim, at, horizon)
        node, depth = ROOT, 0
        while sim[phase] != over and (limit == 0 or sim[at[AT_ROUNDS]] < limit):
            n = list_legal(tag, sim, pr, codes)
            m = 0
            for j in range(n):
                child = child_of(nodes, node, codes[j])
                if child == NO_NODE:
                    untried[m] = codes[j]
                    m += 1
                else:
                    nodes[child, AVAILABLE] += 1
            expanding = m > 0 and widens(nodes, node, n - m, widening)
            if expanding:
                code = NO_NODE
                if widening > 0.0:
                    code = policy_choice(rollout.policies, sim, pr, codes, n, rng,
                                         rollout.policy, rollout.work)
                if code == NO_NODE or child_of(nodes, node, code) != NO_NODE:
                    code = untried[uniform_index_jit(rng, m)]
                expand(nodes, rewards, node, size, code, sim[current])
                node = size
                size += 1
            else:
                node = select(nodes, rewards, node, codes, n, exploration)
            play_decision(tag, sim, pr, nodes[node, ACTION], worlds[0])
            path[depth] = node
            depth += 1
            if expanding:
                break
        roll_out(rollout.policies, tag, sim, pr, worlds[0], rng, codes, limit, rollout.policy,
                 rollout.work)
        for d in range(depth):
            node = path[d]
            nodes[node, VISITS] += 1
            rewards[node] += reward(sim, at, nodes[node, PLAYER], placing)
    return size


@njit(cache=True)
def select(nodes, rewards, node, codes, n, exploration):
    """The child of a legal code with the highest UCB1 score (the first on ties; legal codes
    without a child are passed over)."""
    best, best_score = NO_NODE, -np.inf
    for j in range(n):
        child = child_of(nodes, node, codes[j])
        if child == NO_NODE:
            continue
        score = ucb(nodes, rewards, child, exploration)
        if score > best_score:
            best, best_score = child, score
    return best


@njit(cache=True)
def root_values(nodes, rewards, legal, n, totals, tries):
    """Into ``totals`` and ``tries``, the total reward and the visits of each legal
    action's root child (0 and 0 for an action without a child)."""
    for k in range(n):
        child = child_of(nodes, ROOT, legal[k])
        totals[k] = rewards[child] if child != NO_NODE else 0.0
        tries[k] = nodes[child, VISITS] if child != NO_NODE else 0


@njit(cache=True)
def most_visited(nodes, legal, n):
    """The legal action whose root child was visited most (the first on ties; an action
    without a child counts -1)."""
    best, best_visits = 0, -2
    for k in range(n):
        child = child_of(nodes, ROOT, legal[k])
        visits = nodes[child, VISITS] if child != NO_NODE else -1
        if visits > best_visits:
            best, best_visits = k, visits
    return best


# --------------------------------------------------------------------------------------
# From the Python API
# --------------------------------------------------------------------------------------
# Iterations per compiled call under a time budget, between looks at the clock.
SLICE = 16


class CompiledSearch:
    """The compiled searches for the states of one game's compiled rules, from the Python
    API, with random rollouts: a room kept between decisions (grown as the budget asks)
    and the process's scratch generator for the worlds' chance."""

    def __init__(self, state: Any) -> None:
        game = state.game
        self.tag = game.tag
        self.room = search_room(game, state._buffer.shape[0], state._buffer.dtype, 1)
        self.dtype = state._buffer.dtype

    def flat_mc(self, observation: Any, legal: list[Any], rng: np.random.Generator,
                budget: Any, horizon: int, placing: float
                ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """flatmc's totals and tries for each action of ``legal``, after each slice of
        ``budget`` (iteration counts, see :func:`slices`), with simulations of ``horizon``
        rounds rewarded with ``placing`` (see :func:`reward`)."""
        state, codes, worlds, alias = self._start(observation, legal)
        n = len(codes)
        done = 0
        for count in budget:
            flat_mc(self.tag, state.s, state._pr, observation.player, codes, n, done,
                    count, horizon, placing, RANDOM, rng, worlds, alias, self.room)
            done += count
            yield self.room.totals[:n].copy(), self.room.tries[:n].copy()

    def flat_mc_halving(self, observation: Any, legal: list[Any], rng: np.random.Generator,
                        iterations: int, horizon: int, placing: float
                        ) -> tuple[int, np.ndarray, np.ndarray]:
        """The index in ``legal`` of flatmc's choice when it halves (see
        :func:`flat_mc_halving`), with each action's total reward and tries."""
        state, codes, worlds, alias = self._start(observation, legal)
        n = len(codes)
        choice = flat_mc_halving(self.tag, state.s, state._pr, observation.player, codes, n,
                                 iterations, horizon, placing, RANDOM, rng, worlds, alias,
                                 self.room)
        return int(choice), self.room.totals[:n].copy(), self.room.tries[:n].copy()

    def ismcts(self, observation: Any, legal: list[Any], rng: np.random.Generator,
               budget: Any, exploration: float, widening: float, horizon: int,
               placing: float, settle: bool) -> tuple[int, np.ndarray, np.ndarray]:
        """The index in ``legal`` of ismcts's choice, run over ``budget`` (with ``settle``,
        a single slice of iterations that stops once the choice is settled), with each
        action's root total reward and visits."""
        state, codes, worlds, alias = self._start(observation, legal)
        done = 0
        for count in budget:
            self.room = with_tree_room(self.room, done + count)
            ismcts(self.tag, state.s, state._pr, observation.player, done, count,
                   exploration, widening, horizon, placing, RANDOM, rng, worlds, alias,
                   self.room, settle)
            done += count
        n = len(codes)
        root_values(self.room.nodes, self.room.rewards, codes, n, self.room.totals,
                    self.room.tries)
        return (int(most_visited(self.room.nodes, codes, n)), self.room.totals[:n].copy(),
                self.room.tries[:n].copy())

    def _start(self, observation: Any, legal: list[Any]) -> tuple[Any, np.ndarray, Any, Any]:
        observation.check_current()
        scratch = ScratchStream.get()
        codes = np.array([a.code for a in legal], dtype=self.dtype)
        return observation._state, codes, scratch.boxed, scratch.stream.alias


# --------------------------------------------------------------------------------------
# In the batch kernel
# --------------------------------------------------------------------------------------
# The search policies, numbered after a kernel's own, in this order.
SEARCHES = ("flatmc", "ismcts")
FLATMC, ISMCTS = range(len(SEARCHES))
# A search policy's settings, its row of the kernel's policy parameters.
# ``SETTING_DELEGATE`` holds the phases the search leaves to its rollout policy as a bit
# set, bit ``phase`` for each.
(SETTING_ITERATIONS, SETTING_EXPLORATION, SETTING_HORIZON, SETTING_ROLLOUT, SETTING_WIDENING,
 SETTING_PLACING, SETTING_HALVING, SETTING_DELEGATE, SETTING_TRUST) = range(9)


def settings_row(params: Any, rollout: int, game: str | None = None) -> np.ndarray:
    """A search's parameters (an :class:`agents.search.SearchParams`, with an iteration
    budget) as its row of kernel settings for ``game`` (needed when it delegates phases),
    its rollout policy the kernel's policy ``rollout``."""
    if params.seconds is not None:
        raise ValueError(f"{params.game} runs in the kernel with an iteration budget only "
                         f"(seconds={params.seconds!r})")
    if params.delegate and game is None:
        raise ValueError(f"{params.game}: delegate={params.delegate!r} needs the game it "
                         f"is for")
    delegated = params.delegated(game) if params.delegate else frozenset()
    return np.array([params.iterations, getattr(params, "exploration", 0.0), params.horizon,
                     rollout, getattr(params, "widening", 0.0), params.placing,
                     getattr(params, "halving", False), sum(1 << phase for phase in delegated),
                     params.trust],
                    dtype=np.float64)


@njit(cache=True)
def searched(tag, policies, kind, s, pr, player, legal, n, rng, settings, work, worlds, alias,
             room):
    """The code a search policy (``kind``: :data:`FLATMC` or :data:`ISMCTS`) plays among the
    ``n`` legal codes, searched for ``player`` with its ``settings`` row, its rollouts
    played by the policies of the tag ``policies`` with their work arrays ``work`` (in a
    phase it delegates, the rollout policy's choice; with a trust, that choice unless the
    search's beats it, see :func:`trusted`)."""
    if n == 1:
        return legal[0]
    rollout = RolloutPolicy(policies, np.int64(settings[SETTING_ROLLOUT]), work)
    if (np.int64(settings[SETTING_DELEGATE]) >> s[room.at[AT_PHASE]]) & 1:
        return policy_choice(policies, s, pr, legal, n, rng, rollout.policy, work)
    trust = settings[SETTING_TRUST]
    anchor = 0
    if trust > 0:
        anchor = action_index(legal, n, policy_choice(policies, s, pr, legal, n, rng,
                                                      rollout.policy, work))
    iterations = np.int64(settings[SETTING_ITERATIONS])
    horizon = np.int64(settings[SETTING_HORIZON])
    placing = settings[SETTING_PLACING]
    if kind == FLATMC and settings[SETTING_HALVING]:
        choice = flat_mc_halving(tag, s, pr, player, legal, n, iterations, horizon, placing,
                                 rollout, rng, worlds, alias, room)
    elif kind == FLATMC:
        flat_mc(tag, s, pr, player, legal, n, 0, iterations, horizon, placing, rollout, rng,
                worlds, alias, room)
        choice = best_mean(room.totals, room.tries, n)
    else:
        ismcts(tag, s, pr, player, 0, iterations, settings[SETTING_EXPLORATION],
               settings[SETTING_WIDENING], horizon, placing, rollout, rng, worlds, alias, room,
               trust == 0)
        choice = most_visited(room.nodes, legal, n)
        if trust > 0:
            root_values(room.nodes, room.rewards, legal, n, room.totals, room.tries)
    if trust > 0:
        choice = trusted(choice, anchor, room.totals, room.tries, trust)
    return legal[choice]
