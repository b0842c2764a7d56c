"""Rule engines.  Every game follows the common API of :mod:`engines.core.api`.

Games are found by slug: the built-in ones, those added by :func:`register`, and those
installed packages declare in the entry-point group ``tapis_vert.games`` (slug ->
``module:Class``; docs/add-a-game.md).

>>> import engines
>>> "paris-damis" in engines.available()
True
>>> game = engines.load("paris-damis", players=3, jokers=1)
>>> state = game.new_state(seed=7)
"""

from __future__ import annotations

import os
from typing import Any, cast

import numba

from engines.core import plugins
from engines.core.api import Game, GameParams
from engines.numba_cache import cache_dir

# numba.config sets its attributes at run time; the environment keeps the user's folder, so
# that a child process keys its own sources under it the same way (engines/numba_cache.py)
numba.config.CACHE_DIR = str(  # type: ignore[attr-defined]
    cache_dir(user_dir=os.environ.get("NUMBA_CACHE_DIR")))

# slug -> "module:Class"; modules are imported on first use (each compiles its own rules).
_GAMES = {
    "paris-damis": "engines.games.paris_damis:ParisDamis",
    "betzanbloo": "engines.games.betzanbloo:Betzanbloo",
    "ascenseur-atouts": "engines.games.ascenseur_atouts:AscenseurAtouts",
    "rikiki": "engines.games.rikiki:Rikiki",
    "chasse-coeur": "engines.games.chasse_coeur:ChasseCoeur",
    "petasse": "engines.games.petasse:Petasse",
    "vicaire": "engines.games.vicaire:Vicaire",
    "huit-americain": "engines.games.huit_americain:HuitAmericain",
    "menteur": "engines.games.menteur:Menteur",
    "nain-jaune": "engines.games.nain_jaune:NainJaune",
    "bataille": "engines.games.bataille:Bataille",
    "super-bataille": "engines.games.super_bataille:SuperBataille",
    "pharaon": "engines.games.pharaon:Pharaon",
    "baccara": "engines.games.baccara:Baccara",
    "pouilleux": "engines.games.pouilleux:Pouilleux",
    "belote-a-trois": "engines.games.belote_a_trois:BeloteATrois",
    "belote-comptoir": "engines.games.belote_comptoir:BeloteComptoir",
    "tarot": "engines.games.tarot:Tarot",
    "tarot-lorrain": "engines.games.tarot:TarotLorrain",
    "tarot-tare": "engines.games.tarot:TarotTare",
    "rami": "engines.games.rami:Rami",
    "petite-ecole": "engines.games.petite_ecole:PetiteEcole",
    "pinacle": "engines.games.pinacle:Pinacle",
    "empereur": "engines.games.empereur:Empereur",
}


# Games added by register(), slug -> "module:Class".
_REGISTERED: dict[str, str] = {}


def _games() -> dict[str, str]:
    """Every game: built-in, installed (entry points; a built-in slug is not replaced),
    registered."""
    return plugins.entry_points(plugins.GAMES_GROUP) | _GAMES | _REGISTERED


def register(slug: str, game: str | type[Game]) -> str:
    """Add a game under ``slug``: its class, or its import path ``"module:Class"`` (imported
    on first use).  A class must be importable from its module (other processes and
    replays find it by path).  Returns the path; a bad slug or path raises ValueError."""
    path = plugins.registered("game", slug, game, _GAMES)
    _REGISTERED[slug] = path
    return path


def source(slug: str) -> str:
    """The import path of a game's class (``"module:Class"``); an unknown slug names the
    valid ones."""
    games = _games()
    if slug not in games:
        raise ValueError(f"unknown game {slug!r}; available games: "
                         f"{', '.join(sorted(games))}")
    return games[slug]


def builtin(slug: str) -> bool:
    """Whether ``slug`` is one of the games shipped here (not a plugin)."""
    return slug in _GAMES


def available() -> list[str]:
    """Slugs of every game: built-in, installed and registered."""
    return sorted(_games())


def game_class(slug: str) -> type[Game]:
    """The class of a game by slug; an unknown slug names the valid ones, a plugin that
    cannot be loaded says why."""
    path = source(slug)
    cls = plugins.resolve(path)
    if not isinstance(cls, type) or not hasattr(cls, "Params") \
            or not callable(getattr(cls, "new_state", None)):
        raise ValueError(f"game {slug!r} ({path}) is not a game class: it needs Params and "
                         f"new_state (engines.core.api.Game; docs/add-a-game.md)")
    return cast(type[Game], cls)


def params_class(slug: str) -> type[GameParams]:
    """The frozen parameter dataclass of a game (see :class:`engines.core.api.GameParams`)."""
    return cast(type[GameParams], game_class(slug).Params)


def load(slug: str, **params: Any) -> Game:
    """A game with the given parameters (typed values or ``key=value`` strings' values).

    ``players`` is every game's player-count parameter, with the game's usual count as its
    default.  Unknown keys and bad values raise ``ValueError`` naming the valid choices."""
    cls = game_class(slug)
    return cls(cls.Params.from_kwargs(**params))
