"""Bots.  ``agents.load(name)`` builds one; ``agents.available(game)`` lists those that can
play a game.  Every agent follows :class:`agents.base.Agent`.  ``NAME@PROFILE`` names a bot
playing with a saved parameter set, its profile for the game (:mod:`agents.profiles`); a
plain ``NAME`` plays the bot's ``default`` profile for the game where there is one (the
game's own settings of a bot written for every game, such as a search's rollouts).

Any bot may *explore*: with ``explore`` = ε (an option of :func:`load`, or a profile's key,
for every bot), at each decision with a choice it plays a uniformly random legal action with
probability ε, drawn from the decision stream (:class:`agents.base.Exploring`), and decides as
itself otherwise, so that a deterministic bot varies its play from deal to deal.

Your own bots (docs/write-a-bot.md) are named three ways: by import path,
``package.module:Class`` (or a function that returns a bot), wherever an agent is named; by a
name given with :func:`register`; or by a name an installed package declares in the
entry-point group ``tapis_vert.agents`` (name -> ``module:Class``).  A run records such a bot
by its import path, so worker processes and later replays build it again."""

from __future__ import annotations

from typing import Any

from agents import profiles
from agents.base import EXPLORE, Agent, Exploring, check_explore
from engines.core import plugins
from engines.core.params import Params

# name -> ("module:Class", games it plays, or None for every game)
_AGENTS: dict[str, tuple[str, tuple[str, ...] | None]] = {
    "random": ("agents.random_agent:RandomAgent", None),
    "greedy": ("agents.paris_damis:GreedyAgent", ("paris-damis",)),
    "cautious": ("agents.paris_damis:CautiousAgent", ("paris-damis",)),
    "aggressive": ("agents.paris_damis:AggressiveAgent", ("paris-damis",)),
    "safe": ("agents.betzanbloo:SafeAgent", ("betzanbloo",)),
    "contrarian": ("agents.betzanbloo:ContrarianAgent", ("betzanbloo",)),
    "responder": ("agents.betzanbloo:ResponderAgent", ("betzanbloo",)),
    "estimator": ("agents.ascenseur_atouts:EstimatorAgent", ("ascenseur-atouts",)),
    "counter": ("agents.rikiki:CounterAgent", ("rikiki",)),
    "dumper": ("agents.avoidance:DumperAgent", ("chasse-coeur", "petasse")),
    "exact": ("agents.vicaire:ExactAgent", ("vicaire",)),
    "shedder": ("agents.huit_americain:ShedderAgent", ("huit-americain",)),
    "honest": ("agents.menteur:HonestAgent", ("menteur",)),
    "bluffer": ("agents.menteur:BlufferAgent", ("menteur",)),
    "caller": ("agents.menteur:CallerAgent", ("menteur",)),
    "runner": ("agents.nain_jaune:RunnerAgent", ("nain-jaune",)),
    "hoarder": ("agents.empereur:HoarderAgent", ("empereur",)),
    "always": ("agents.baccara:AlwaysDraw", ("baccara",)),
    "never": ("agents.baccara:NeverDraw", ("baccara",)),
    "coinflip": ("agents.baccara:CoinFlip", ("baccara",)),
    "taker": ("agents.belote:TakerAgent", ("belote-a-trois",)),
    "claimer": ("agents.belote:ClaimerAgent", ("belote-comptoir",)),
    "prudent": ("agents.tarot:PrudentAgent", ("tarot", "tarot-lorrain")),
    "ducker": ("agents.tarot:DuckerAgent", ("tarot-tare",)),
    "eager": ("agents.rami:EagerAgent", ("rami",)),
    "planner": ("agents.rami:PlannerAgent", ("rami",)),
    "climber": ("agents.petite_ecole:ClimberAgent", ("petite-ecole",)),
    "slider": ("agents.pinacle:SliderAgent", ("pinacle",)),
    "flatmc": ("agents.search:FlatMC", None),
    "ismcts": ("agents.search:ISMCTS", None),
}


# Bots added by register(): name -> "module:Class".
_REGISTERED: dict[str, str] = {}


def _registry() -> dict[str, tuple[str, tuple[str, ...] | None]]:
    """Every bot by name, in order: built-in, installed (entry points; a built-in name is
    not replaced), registered."""
    added = {name: path for name, path in plugins.entry_points(plugins.AGENTS_GROUP).items()
             if name not in _AGENTS} | _REGISTERED
    return _AGENTS | {name: (path, _games_of(path)) for name, path in added.items()}


def _games_of(path: str) -> tuple[str, ...] | None:
    """The games a plugin bot plays: its ``games`` attribute, or every game (also when it
    cannot be imported: loading it then says why)."""
    try:
        games = getattr(plugins.resolve(path), "games", None)
    except ValueError:
        return None
    return tuple(games) if isinstance(games, list | tuple) and games else None


def register(name: str, bot: str | Any) -> str:
    """Add a bot under ``name``: its class (or a function returning a bot), or its import
    path ``"module:Class"``.  It must be importable from its module, so that worker
    processes and replays build it again; returns that path.  A bad or built-in name, or
    an object defined in ``__main__`` or in a function, raises ValueError."""
    path = plugins.registered("agent", name, bot, _AGENTS)
    _REGISTERED[name] = path
    return path


def source(name: str) -> str:
    """The import path of the bot ``name`` (``NAME``, ``NAME@PROFILE`` or a path) plays
    with; an unknown name names the valid choices."""
    base = profiles.split(name)[0]
    if plugins.is_path(base):
        return plugins.check_path(base)
    _check_base(base, None)
    return _registry()[base][0]


def builtin(name: str) -> bool:
    """Whether the bot of ``name`` is one shipped here (not a plugin)."""
    base = profiles.split(name)[0]
    return base in _AGENTS


def available(game: str | None = None) -> list[str]:
    """Names of the agents that can play ``game`` (every agent without one)."""
    return sorted(name for name, (_, games) in _registry().items()
                  if game is None or games is None or game in games)


def written_for(game: str) -> list[str]:
    """Names of the agents written for ``game`` alone (its strategy bots), in registry
    order."""
    return [name for name, (_, games) in _registry().items() if games and game in games]


def load(name: str, game: str | None = None, **options: Any) -> Agent:
    """An agent by name (``NAME@PROFILE``: with the profile's parameters, ``options``
    overriding them); an unknown name, one that cannot play ``game`` or a bad profile names
    the valid choices."""
    base, _ = profiles.split(name)
    _check_base(base, game)
    values = profile_values(name, game) | options
    explore = check_explore(values.pop(EXPLORE, 0.0))
    bot = _class(base)(**values)
    if not callable(getattr(bot, "act", None)):
        raise ValueError(f"{base} made {bot!r}, not an agent: an agent has a method "
                         f"act(observation, legal_actions, rng) (docs/write-a-bot.md)")
    return Exploring(bot, explore) if explore else bot


def _check_base(base: str, game: str | None) -> None:
    if plugins.is_path(base):
        games = _games_of(base)
        _class(base)
        if game is not None and games is not None and game not in games:
            raise ValueError(f"agent {base} plays {', '.join(games)}, not {game}; available "
                             f"agents for {game}: {', '.join(available(game))}")
        return
    if base not in available(game):
        where = f" for {game}" if game else ""
        raise ValueError(f"unknown agent {base!r}{where}; available agents: "
                         f"{', '.join(available(game))}, or your own as "
                         f"package.module:Class")


def _class(base: str) -> Any:
    """The class (or factory) of a bot, by name or import path; ValueError when it cannot
    be imported or is not a bot."""
    path = base if plugins.is_path(base) else _registry()[base][0]
    found = plugins.resolve(path)
    if isinstance(found, type) and not callable(getattr(found, "act", None)):
        raise ValueError(f"{path} is not an agent: an agent class has a method "
                         f"act(observation, legal_actions, rng) (docs/write-a-bot.md)")
    if not callable(found):
        raise ValueError(f"{path} is not an agent: name a class, or a function returning "
                         f"a bot (docs/write-a-bot.md)")
    return found


def is_search(name: str) -> bool:
    """Whether the bot of ``name`` (``NAME`` or ``NAME@PROFILE``) is a search, one that
    plays simulations before it decides (``flatmc``, ``ismcts`` or a subclass of theirs)."""
    from agents.search import SearchAgent
    base, _ = profiles.split(name)
    _check_base(base, None)
    found = _class(base)
    return isinstance(found, type) and issubclass(found, SearchAgent)


def params_class(name: str) -> type[Params] | None:
    """The parameter class of a bot (``NAME`` or ``NAME@PROFILE``), None for one that takes
    no :class:`~engines.core.params.Params`; an unknown bot names the valid ones."""
    base, _ = profiles.split(name)
    _check_base(base, None)
    cls = getattr(_class(base), "Params", None)
    return cls if isinstance(cls, type) and issubclass(cls, Params) else None


def named_profile(name: str, game: str | None) -> tuple[str, str | None]:
    """The bot and the profile ``name`` plays ``game`` with: ``NAME@PROFILE``'s, or, for a
    plain ``NAME``, the bot's :data:`~agents.profiles.DEFAULT` profile for the game where
    its profile file has one (else None)."""
    base, profile = profiles.split(name)
    if profile is None and game is not None \
            and profiles.DEFAULT in profiles.read(game).get(base, {}):
        profile = profiles.DEFAULT
    return base, profile


def profile_values(name: str, game: str | None) -> dict[str, Any]:
    """The parameter values ``name`` plays ``game`` with (see :func:`named_profile`; none
    for a plain name without a default profile); the game may be omitted for a bot
    written for one game."""
    base, profile = named_profile(name, game)
    if profile is None:
        return {}
    if game is None:
        base_ = profiles.split(base)[0]
        games = _games_of(base_) if plugins.is_path(base_) else _registry()[base_][1]
        if not games or len(games) != 1:
            raise ValueError(f"{name}: a profile needs the game it is for")
        game = games[0]
    return profiles.values(game, base, profile)


def params_for(name: str, game: str) -> Params | None:
    """The validated parameters ``name`` plays ``game`` with: a profile's (``NAME@PROFILE``,
    or a plain name's default profile, see :func:`named_profile`) or None for a plain name
    without one.  An unknown agent or profile, a profile of a bot without parameters, or a
    value out of range raises ValueError naming the valid choices."""
    _check_base(profiles.split(name)[0], game)
    base, profile = named_profile(name, game)
    if profile is None:
        return None
    values = profile_values(name, game)
    explore = values.pop(EXPLORE, None)
    cls = params_class(base)
    if cls is None:
        if values or explore is None:
            raise ValueError(f"{base} takes no parameters, so its profiles may hold "
                             f"{EXPLORE} only; bots with parameters for {game}: "
                             f"{', '.join(tunable(game)) or 'none'}")
        return None
    try:
        params = cls.from_kwargs(**values)
        check_game = getattr(params, "check_game", None)    # a search's horizon
        if check_game is not None:
            check_game(game)
        return params
    except ValueError as error:
        raise ValueError(f"profile {base}@{profile} for {game} ({profiles.path_for(game)}): "
                         f"{error}") from None


def exploration(name: str, game: str) -> float:
    """The chance ``name`` (``NAME`` or ``NAME@PROFILE``) plays a random legal action at a
    decision with a choice: its profile's ``explore``, 0 for a plain name; a value outside
    [0, 1] names the valid ones."""
    _check_base(profiles.split(name)[0], game)
    base, profile = named_profile(name, game)
    if profile is None:
        return 0.0
    try:
        return check_explore(profile_values(name, game).get(EXPLORE, 0.0))
    except ValueError as error:
        raise ValueError(f"profile {base}@{profile} for {game} ({profiles.path_for(game)}): "
                         f"{error}") from None


def check(name: str, game: str) -> None:
    """Raise ValueError naming the valid choices unless ``name`` (``NAME`` or
    ``NAME@PROFILE``) can play ``game``."""
    params_for(name, game)
    exploration(name, game)


def tunable(game: str) -> list[str]:
    """The bots playing ``game`` that take parameters."""
    return [a for a in available(game) if params_class(a) is not None]


__all__ = ["Agent", "available", "builtin", "check", "exploration", "load", "named_profile",
           "params_class", "params_for", "profile_values", "register", "source", "tunable",
           "written_for"]
