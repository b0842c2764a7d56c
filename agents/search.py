"""Search bots for every game: ``flatmc`` (determinized flat Monte Carlo) and ``ismcts``
(single-observer information-set Monte Carlo tree search, Cowling, Powley & Whitehouse,
"Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012).

Both decide from what their seat may know and nothing else: every simulation starts from
``observation.determinize(rng)``, a full state consistent with the observation whose hidden
cards and future chance events are drawn from ``rng``, and goes on through the common state
API (``legal_actions``, ``apply``, ``clone``, ``result``).  ``rng``, the game's decision
stream, is their only source of randomness, so the same stream gives the same choice.

A simulation ends with a *rollout*: the game is played on by the rollout policy (any agent
that plays the game, ``NAME@PROFILE`` included; ``random`` by default, through the state's
compiled ``playout``, which plays exactly the game the ``random`` agent would).  Its reward
for a seat is that seat's win share in ``state.result()``: 1 for a sole win, 1/k for a win
shared by k seats, 0 otherwise; with ``placing`` > 0, mixed with the seat's placing (see
:func:`placed`).  With a ``horizon`` (games that count rounds), a simulation
stops after that many rounds, the decision's own included, and the seats are ranked as the
game ranks them at its end, on their standing then: a rollout spends its time near the
decision, where its outcome depends most on the action tried.  A search may leave the
game's phases named by ``delegate`` to its rollout policy, which then decides there (a
choice whose cost falls beyond the horizon is better made by a good rule than by
simulations that stop before it shows).

Where the game's rules are compiled and the rollouts random, the search runs compiled
(:mod:`agents.compiled_search`); in the batch kernel it runs compiled with any rollout policy
the kernel has (the game's compiled bots).  Here, the same search through the common API is
the reference both are tested against.  A game's profile file may set the searches' own
settings for that game (``[ismcts.default]``, see :func:`agents.named_profile`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

import agents
import engines
from agents import profiles
from agents.compiled_search import SLICE, CompiledSearch, best_mean, halving_rounds, trusted
from engines.core.api import Action
from engines.core.base import RulesObservation
from engines.core.chance import uniform_index
from engines.core.params import Params, param
from engines.core.streams import has_rounds


# --------------------------------------------------------------------------------------
# Parameters
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SearchParams(Params):
    """The parameters both searches take."""

    game: ClassVar[str] = "search"

    iterations: int = param(200, "simulations per decision", min=1)
    seconds: float | None = param(None, "time budget per decision in seconds, replacing "
                                        "iterations (the choice then depends on the "
                                        "machine's speed: not reproducible); none: off")
    rollout: str = param("random", "the agent that plays simulated games on from the "
                                   "decision (compiled in the batch kernel where the game "
                                   "has it as a compiled policy)")
    horizon: int = param(0, "rounds a simulation plays, the decision's own included, before "
                            "the seats are ranked on their standing then (as at the game's "
                            "end); 0: to the end of the game.  Games that count rounds only "
                            "(paris-damis, ascenseur-atouts, the belotes, chasse-coeur, "
                            "petasse, rikiki and the tarots)", min=0)
    placing: float = param(0.0, "weight p of the seat's placing in a simulation's reward: "
                                "(1 - p) * win share + p * (players - rank) / (players - 1), "
                                "so that a second place scores more than a last; 0: the win "
                                "share alone", min=0, max=1)
    delegate: str = param("", "the phases whose decisions the search leaves to its rollout "
                              "policy, by the game's phase names, comma-separated (e.g. "
                              "\"discard,hand_change\" in paris-damis): a choice that "
                              "matters beyond the horizon, or whose worth the simulations "
                              "cannot tell apart, is played as the rollout policy plays it; "
                              "empty: the search makes every choice")
    trust: float = param(0.0, "how far the search trusts its rollout policy, in standard "
                              "errors: it plays the rollout policy's choice unless its own "
                              "choice's mean simulated reward beats that choice's by more "
                              "than `trust` standard errors (so that noise among near-equal "
                              "actions does not overrule a good heuristic); needs a rollout "
                              "policy other than random; 0: the search's own choice",
                         min=0)

    def validate(self) -> None:
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"{self.game}: bad value for seconds: {self.seconds}; valid "
                             f"values: a positive number or none")
        if profiles.split(self.rollout)[0] not in agents.available():
            raise ValueError(f"{self.game}: unknown rollout policy {self.rollout!r}; "
                             f"available agents: {', '.join(agents.available())}")
        if self.trust and profiles.split(self.rollout)[0] == "random":
            raise ValueError(f"{self.game}: trust={self.trust:g} needs a rollout policy to "
                             f"trust, not rollout=random; valid: a rollout bot of the game, "
                             f"or trust=0")

    def check_game(self, game: str) -> None:
        """Raise ValueError, naming the valid choices, if the rollout agent cannot play
        ``game``, these parameters ask a horizon of a game without rounds, or delegate a
        phase the game does not have."""
        try:
            agents.check(self.rollout, game)
        except ValueError as error:
            raise ValueError(f"{self.game}: rollout={self.rollout}: {error}") from None
        self.delegated(game)
        if self.horizon and not has_rounds(engines.game_class(game).rules):
            with_rounds = [g for g in engines.available()
                           if has_rounds(engines.game_class(g).rules)]
            raise ValueError(f"{self.game}: horizon={self.horizon} needs a game that counts "
                             f"rounds, not {game}; games with rounds: "
                             f"{', '.join(with_rounds)} (elsewhere: horizon=0)")

    def delegated(self, game: str) -> frozenset[int]:
        """The codes of ``game``'s phases named by ``delegate`` (ValueError naming the
        game's phases for a name it does not have)."""
        names = [name.strip() for name in self.delegate.split(",") if name.strip()]
        if not names:
            return frozenset()
        phases = engines.game_class(game).phase_names
        codes = {name: code for code, name in phases.items()}
        unknown = [name for name in names if name not in codes]
        if unknown:
            valid = ", ".join(sorted(codes)) or "none (the game names no phases)"
            raise ValueError(f"{self.game}: delegate={self.delegate!r}: {game} has no phase "
                             f"{unknown[0]!r}; its phases: {valid}")
        return frozenset(codes[name] for name in names)


@dataclass(frozen=True)
class FlatMCParams(SearchParams):
    """Parameters of ``flatmc``: those of both searches, then how it spreads its budget."""

    game: ClassVar[str] = "flatmc"

    halving: bool = param(False, "spread the iterations by sequential halving: in ceil(log2 n) "
                                 "rounds of equal budget over the n legal actions, each sweep "
                                 "tries every action still in, and after each round the "
                                 "better half by mean reward stays in (the choice: the one "
                                 "left); false: every action tried alike, the best mean "
                                 "chosen.  Needs an iteration budget")

    def validate(self) -> None:
        super().validate()
        if self.halving and self.seconds is not None:
            raise ValueError(f"{self.game}: halving needs an iteration budget, not "
                             f"seconds={self.seconds}; valid: halving=false with seconds, or "
                             f"seconds=none")


@dataclass(frozen=True)
class ISMCTSParams(SearchParams):
    """Parameters of ``ismcts``: those of both searches (``iterations`` counts tree
    iterations), then the UCT constant and the widening."""

    game: ClassVar[str] = "ismcts"

    exploration: float = param(0.7, "UCT exploration constant c (0.7: the value Cowling et "
                                    "al. use for rewards in [0, 1])", min=0)
    widening: float = param(0.0, "progressive widening W: below the root a node takes a new "
                                 "child only while it has fewer than 1 + floor(W * "
                                 "sqrt(visits)), the rollout policy's action first; 0: off "
                                 "(every legal action is tried before any is selected)",
                            min=0)


# --------------------------------------------------------------------------------------
# What both bots share: the budget, the rollout and their parameters
# --------------------------------------------------------------------------------------
def budget(params: SearchParams) -> Iterator[int]:
    """Iteration numbers 0, 1, ... until the budget is spent: ``params.iterations`` of them,
    or, with ``params.seconds``, as many as start within that time (at least one)."""
    if params.seconds is None:
        yield from range(params.iterations)
        return
    deadline = time.perf_counter() + params.seconds
    i = 0
    while True:
        yield i
        i += 1
        if time.perf_counter() >= deadline:
            return


def slices(params: SearchParams) -> Iterator[int]:
    """The budget as iteration counts for the compiled searches: ``params.iterations`` at
    once, or, with ``params.seconds``, slices of :data:`SLICE` until that time has passed
    (at least one)."""
    if params.seconds is None:
        yield params.iterations
        return
    deadline = time.perf_counter() + params.seconds
    while True:
        yield SLICE
        if time.perf_counter() >= deadline:
            return


class Rollout:
    """Plays a state on with a policy, to its end or for ``horizon`` rounds, and returns
    every seat's reward (see :func:`placed`)."""

    def __init__(self, policy: str, horizon: int, placing: float = 0.0) -> None:
        self.policy = policy
        self.horizon = horizon
        self.placing = placing
        self.compiled = policy == "random"      # a state's playout() plays as `random` does
        self._agents: dict[str, Any] = {}

    def agent(self, state: Any) -> Any:
        """The rollout policy for the game of ``state`` (a profile's read for that game)."""
        game = state.game.slug if profiles.split(self.policy)[1] else ""
        agent = self._agents.get(game)
        if agent is None:
            agent = self._agents[game] = agents.load(self.policy, game or None)
        return agent

    def limit(self, world: Any) -> int:
        """The rounds played when a simulation from ``world`` stops (0: at the end; see
        :func:`agents.compiled_search.rounds_limit`)."""
        if not self.horizon or not has_rounds(world.game.rules):
            return 0
        return int(world.s[world.game.rules.ROUNDS_PLAYED]) + self.horizon

    def __call__(self, state: Any, rng: np.random.Generator, limit: int) -> tuple[float, ...]:
        return placed(self.ranks(state, rng, limit), self.placing)

    def ranks(self, state: Any, rng: np.random.Generator, limit: int) -> list[int]:
        """The seats' ranks once ``state`` is played on (1: first, ties equal)."""
        if self.compiled and hasattr(state, "playout") and not limit:
            state.playout(rng)
            return list(state.result().ranks)
        agent = self.agent(state)
        while not state.is_terminal():
            if limit and state.s[state.game.rules.ROUNDS_PLAYED] >= limit:
                return ranked_now(state)
            player = state.current_player
            state.apply(agent.act(state.observation(player), state.legal_actions(), rng))
        return list(state.result().ranks)


def ranked_now(state: Any) -> list[int]:
    """The seats' ranks if the game of ``state`` (compiled rules that count rounds) ended
    now, ranked by the rules' ``final_ranking``."""
    state.game.rules.final_ranking(state.s, state._pr)
    return state.standing()


def placed(ranks: list[int], placing: float) -> tuple[float, ...]:
    """Each seat's reward from the seats' ``ranks`` (1: first, ties equal): (1 - ``placing``)
    times its win share (1 for a sole win, 1/k for a win shared by k seats, 0 otherwise)
    plus ``placing`` times its placing, (players - rank) / (players - 1) (1 first, 0 last).
    The compiled searches' :func:`agents.compiled_search.reward`, for every seat."""
    players = len(ranks)
    winners = ranks.count(1)
    return tuple((1.0 - placing) * (1.0 / winners if rank == 1 else 0.0)
                 + placing * (players - rank) / (players - 1) for rank in ranks)


class SearchAgent:
    """A search bot: its parameters (its ``Params`` class, whose ``game`` is the bot's name,
    read by keyword) and its rollout.  It plays a sole legal action at once, leaves the
    phases it delegates to its rollout policy, and searches the other decisions
    (:meth:`search`); with a ``trust``, it keeps its rollout policy's choice unless the
    search's beats it (:func:`agents.compiled_search.trusted`)."""

    name: ClassVar[str]
    Params: ClassVar[type[SearchParams]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.name = cls.Params.game

    def __init__(self, **options: Any) -> None:
        self.params = self.Params.from_kwargs(**options)
        self.rollout = Rollout(self.params.rollout, self.params.horizon,
                               self.params.placing)
        self._searches: dict[tuple, CompiledSearch] = {}
        self._delegated: dict[str, frozenset[str]] = {}

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        if self.params.delegate and self.delegates(observation):
            return self.rollout.agent(observation._state).act(observation, legal_actions, rng)
        if not self.params.trust:
            return legal_actions[self.search(observation, legal_actions, rng)[0]]
        kept = self.rollout.agent(observation._state).act(observation, legal_actions, rng).code
        anchor = next(k for k, action in enumerate(legal_actions) if action.code == kept)
        choice, totals, tries = self.search(observation, legal_actions, rng)
        return legal_actions[trusted(choice, anchor, totals, tries, self.params.trust)]

    def search(self, observation: Any, legal_actions: list[Action],
               rng: np.random.Generator) -> tuple[int, np.ndarray, np.ndarray]:
        """The index of the action the search chooses among two legal actions or more,
        with each legal action's total reward and simulations (for :func:`trusted`)."""
        raise NotImplementedError

    def delegates(self, observation: Any) -> bool:
        """Whether the observation's phase is one the search leaves to its rollout policy
        (a game with compiled rules: only those name their phases)."""
        game = observation._state.game
        if game.slug not in self._delegated:
            self._delegated[game.slug] = frozenset(
                game.phase_names[code] for code in self.params.delegated(game.slug))
        return observation.phase in self._delegated[game.slug]

    def compiled(self, observation: Any) -> CompiledSearch | None:
        """The compiled search for the observation's game, where it plays the same search:
        a game with compiled rules and ``random`` rollouts (None: the search through the
        common API)."""
        if not isinstance(observation, RulesObservation):
            if self.params.horizon:
                raise ValueError(f"{self.name}: a horizon needs a game with compiled rules")
            return None
        state = observation._state
        key = (state.game.tag.name, state.game.num_players)
        if key not in self._searches:
            self.params.check_game(state.game.slug)
            self._searches[key] = CompiledSearch(state) if self.rollout.compiled else None
        return self._searches[key]


# --------------------------------------------------------------------------------------
# flatmc
# --------------------------------------------------------------------------------------
class FlatMC(SearchAgent):
    """Determinized flat Monte Carlo: every legal action is tried in turn in the same
    determinizations (a fresh one for each sweep over the actions), each try ends with a
    rollout, and the action with the best mean reward is chosen (the first one on ties);
    with ``halving``, the sweeps narrow to the better half of the actions round after round
    (:meth:`halved`)."""

    Params = FlatMCParams

    def search(self, observation: Any, legal_actions: list[Action],
               rng: np.random.Generator) -> tuple[int, np.ndarray, np.ndarray]:
        if self.params.halving:
            return self.halved(observation, legal_actions, rng)
        totals, tries = self.values(observation, legal_actions, rng)
        return best_mean(totals, tries, len(legal_actions)), totals, tries

    def halved(self, observation: Any, legal_actions: list[Action],
               rng: np.random.Generator) -> tuple[int, np.ndarray, np.ndarray]:
        """The index of the action sequential halving keeps, with every action's total
        reward and tries (see :func:`agents.compiled_search.flat_mc_halving`, which this is
        through the common API)."""
        search = self.compiled(observation)
        if search is not None:
            return search.flat_mc_halving(observation, legal_actions, rng,
                                          self.params.iterations, self.params.horizon,
                                          self.params.placing)
        n = len(legal_actions)
        totals = np.zeros(n)
        tries = np.zeros(n, dtype=np.int64)
        order = list(range(n))
        rounds = halving_rounds(n)
        left = n
        for _ in range(rounds):
            for _ in range(max(1, self.params.iterations // rounds // left)):
                world = observation.determinize(rng)
                me = world.current_player
                limit = self.rollout.limit(world)
                for k in order[:left]:
                    state = world.clone()
                    state.apply(legal_actions[k])
                    totals[k] += self.rollout(state, rng, limit)[me]
                    tries[k] += 1
            order[:left] = sorted(order[:left], key=lambda k: -(totals[k] / tries[k]))
            left = (left + 1) // 2
        return order[0], totals, tries

    def values(self, observation: Any, legal_actions: list[Action],
               rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Each legal action's total reward for the deciding seat and its number of tries
        (totals / tries: the action's estimated win share), over the whole budget."""
        search = self.compiled(observation)
        if search is not None:
            *_, (totals, tries) = search.flat_mc(observation, legal_actions, rng,
                                                 slices(self.params), self.params.horizon,
                                                 self.params.placing)
            return totals, tries
        n = len(legal_actions)
        totals = np.zeros(n)
        tries = np.zeros(n, dtype=np.int64)
        for k, reward in self.simulations(observation, legal_actions, rng,
                                          budget(self.params)):
            totals[k] += reward
            tries[k] += 1
        return totals, tries

    def sweeps(self, observation: Any, legal_actions: list[Action], rng: np.random.Generator,
               count: int) -> np.ndarray:
        """Each legal action's reward (columns) in each of ``count`` sweeps (rows): the
        simulations of ``count * len(legal_actions)`` iterations, one determinization per
        sweep shared by every action (so two actions compare on the same worlds)."""
        n = len(legal_actions)
        search = self.compiled(observation)
        if search is not None:
            totals = [t for t, _ in search.flat_mc(observation, legal_actions, rng,
                                                   [n] * count, self.params.horizon,
                                                   self.params.placing)]
            return np.diff(np.array(totals), axis=0, prepend=0.0)
        rewards = np.zeros((count, n))
        for i, (k, reward) in enumerate(self.simulations(observation, legal_actions, rng,
                                                         range(count * n))):
            rewards[i // n, k] = reward
        return rewards

    def simulations(self, observation: Any, legal_actions: list[Action],
                    rng: np.random.Generator, iterations: Iterable[int]
                    ) -> Iterator[tuple[int, float]]:
        """The simulations through the common API: for iteration i, the action tried
        (``i mod n``, in a fresh determinization when that is 0) and its rollout's reward
        for the deciding seat."""
        n = len(legal_actions)
        for i in iterations:
            k = i % n
            if k == 0:
                world = observation.determinize(rng)
                me = world.current_player
                limit = self.rollout.limit(world)
            state = world.clone()
            state.apply(legal_actions[k])
            yield k, self.rollout(state, rng, limit)[me]


# --------------------------------------------------------------------------------------
# ismcts
# --------------------------------------------------------------------------------------
class Node:
    """A node of the tree: the action that leads to it and the seat that chose it, with that
    seat's total reward, its visits, and its availability (the iterations in which its
    action was legal when its parent was reached)."""

    __slots__ = ("action", "player", "reward", "visits", "available", "children")

    def __init__(self, action: Action | None, player: int) -> None:
        self.action = action
        self.player = player
        self.reward = 0.0
        self.visits = 0
        self.available = 0
        self.children: dict[int, Node] = {}

    def untried(self, legal: list[Action]) -> list[Action]:
        """The legal actions without a child yet; the children of the others become
        available once more."""
        untried = []
        for action in legal:
            child = self.children.get(action.code)
            if child is None:
                untried.append(action)
            else:
                child.available += 1
        return untried

    def expand(self, action: Action, player: int) -> Node:
        """Add the child of an untried action chosen by ``player`` (available once)."""
        child = Node(action, player)
        child.available = 1
        self.children[action.code] = child
        return child

    def select(self, legal: list[Action], exploration: float) -> Node:
        """The child of a legal action with the highest UCB1 score (the first on ties)."""
        return max((self.children[a.code] for a in legal), key=lambda n: n.ucb(exploration))

    def ucb(self, exploration: float) -> float:
        """UCB1 with the availability count in place of the parent's visits."""
        return (self.reward / self.visits
                + exploration * math.sqrt(math.log(self.available) / self.visits))

    def settled(self, remaining: int) -> bool:
        """See :func:`agents.compiled_search.settled`."""
        visits = sorted((child.visits for child in self.children.values()), reverse=True)
        visits += [0, 0]
        return visits[0] - visits[1] > remaining


class ISMCTS(SearchAgent):
    """SO-ISMCTS (Cowling et al. 2012): one tree over the observer's
    information set.  Each iteration draws a determinization and, restricted to the actions
    legal in it, selects by UCB1 with availability counts while every legal action has a
    child, expands one untried action chosen at random, rolls out, and backs the result up:
    each node gains the reward of the seat that chose its action.  The root's most visited
    action is played (the first one on ties).  Under an iteration budget and without a
    trust the search stops early once no remaining iteration could change that choice (the
    same choice, sooner)."""

    Params = ISMCTSParams
    params: ISMCTSParams

    def search(self, observation: Any, legal_actions: list[Action],
               rng: np.random.Generator) -> tuple[int, np.ndarray, np.ndarray]:
        settle = self.params.seconds is None and not self.params.trust
        search = self.compiled(observation)
        if search is not None:
            return search.ismcts(observation, legal_actions, rng, slices(self.params),
                                 self.params.exploration, self.params.widening,
                                 self.params.horizon, self.params.placing, settle)
        root = Node(None, -1)
        for i in budget(self.params):
            if settle and root.settled(self.params.iterations - i):
                break
            self.iterate(root, observation.determinize(rng), rng)
        children = [root.children.get(action.code) for action in legal_actions]
        totals = np.array([0.0 if child is None else child.reward for child in children])
        tries = np.array([0 if child is None else child.visits for child in children])
        visits = [-1 if child is None else child.visits for child in children]
        return int(np.argmax(visits)), totals, tries

    def widens(self, node: Node, is_root: bool, legal_children: int) -> bool:
        """See :func:`agents.compiled_search.widens`."""
        widening = self.params.widening
        if widening <= 0 or is_root or legal_children == 0:
            return True
        return len(node.children) < 1 + math.floor(widening * math.sqrt(node.visits))

    def first_try(self, node: Node, state: Any, legal: list[Action], untried: list[Action],
                  rng: np.random.Generator) -> Action:
        """The untried action to expand: at random; with widening, the one the rollout
        policy plays if it is untried."""
        if self.params.widening > 0:
            agent = self.rollout.agent(state)
            action = agent.act(state.observation(state.current_player), legal, rng)
            if action.code not in node.children:
                return action
        return untried[uniform_index(rng, len(untried))]

    def iterate(self, root: Node, state: Any, rng: np.random.Generator) -> None:
        """One iteration on the determinization ``state``: selection, expansion, rollout,
        backpropagation."""
        path = []
        node = root
        limit = self.rollout.limit(state)
        while not state.is_terminal() and not (
                limit and state.s[state.game.rules.ROUNDS_PLAYED] >= limit):
            legal = state.legal_actions()
            untried = node.untried(legal)
            expanding = bool(untried) and self.widens(node, node is root,
                                                      len(legal) - len(untried))
            if expanding:
                node = node.expand(self.first_try(node, state, legal, untried, rng),
                                   state.current_player)
            else:
                node = node.select([a for a in legal if a.code in node.children],
                                   self.params.exploration)
            state.apply(node.action)
            path.append(node)
            if expanding:
                break
        shares = self.rollout(state, rng, limit)
        for node in path:
            node.visits += 1
            node.reward += shares[node.player]
