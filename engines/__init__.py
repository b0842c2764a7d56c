"""Rule engines.  Every game follows the common API of :mod:`engines.core.api`.

>>> import engines
>>> "paris-damis" in engines.available()
True
>>> game = engines.load("paris-damis", players=3, jokers=1)
>>> state = game.new_state(seed=7)
"""

from __future__ import annotations

import importlib
import os
from typing import Any, cast

import numba

from engines.core.api import Game, GameParams
from engines.numba_cache import cache_dir

if not os.environ.get("NUMBA_CACHE_DIR"):
    # numba.config sets its attributes at run time; the folder's rule: engines/numba_cache.py
    numba.config.CACHE_DIR = str(cache_dir())  # type: ignore[attr-defined]

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


def available() -> list[str]:
    """Slugs of every registered game."""
    return sorted(_GAMES)


def game_class(slug: str) -> type[Game]:
    """The class of a game by slug; an unknown slug names the valid ones."""
    try:
        target = _GAMES[slug]
    except KeyError:
        raise ValueError(f"unknown game {slug!r}; available games: "
                         f"{', '.join(available())}") from None
    module, _, name = target.partition(":")
    return cast(type[Game], getattr(importlib.import_module(module), name))


def params_class(slug: str) -> type[GameParams]:
    """The frozen parameter dataclass of a game (see :class:`engines.core.api.GameParams`)."""
    return cast(type[GameParams], game_class(slug).Params)


def load(slug: str, **params: Any) -> Game:
    """A game with the given parameters (typed values or ``key=value`` strings' values).

    ``players`` is every game's player-count parameter, with the game's usual count as its
    default.  Unknown keys and bad values raise ``ValueError`` naming the valid choices."""
    cls = game_class(slug)
    return cls(cls.Params.from_kwargs(**params))
