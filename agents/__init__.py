"""Bots.  ``agents.load(name)`` builds one; ``agents.available(game)`` lists those that can
play a game.  Every agent follows :class:`agents.base.Agent`."""

from __future__ import annotations

import importlib
from typing import Any

from agents.base import Agent

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


def available(game: str | None = None) -> list[str]:
    """Names of the agents that can play ``game`` (every agent without one)."""
    return sorted(name for name, (_, games) in _AGENTS.items()
                  if game is None or games is None or game in games)


def written_for(game: str) -> list[str]:
    """Names of the agents written for ``game`` alone (its strategy bots), in registry
    order."""
    return [name for name, (_, games) in _AGENTS.items() if games and game in games]


def load(name: str, game: str | None = None, **options: Any) -> Agent:
    """An agent by name; an unknown name (or one that cannot play ``game``) names the valid
    choices."""
    if name not in _AGENTS or name not in available(game):
        where = f" for {game}" if game else ""
        raise ValueError(f"unknown agent {name!r}{where}; available agents: "
                         f"{', '.join(available(game))}")
    target, _ = _AGENTS[name]
    module, _, cls = target.partition(":")
    return getattr(importlib.import_module(module), cls)(**options)


__all__ = ["Agent", "available", "load", "written_for"]
