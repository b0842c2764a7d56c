"""Compiled batch kernels: whole games played in compiled code with compiled policies.

A kernel module offers ``POLICIES`` (agent name -> policy id) and ``play(game, seat_policies,
seed, start, count)`` returning one summary row per game (see the engine's ``summary``).
"""

from __future__ import annotations

import importlib
from types import ModuleType

_KERNELS = {"paris-damis": "sim.kernels.paris_damis", "betzanbloo": "sim.kernels.betzanbloo",
            "ascenseur-atouts": "sim.kernels.ascenseur_atouts", "rikiki": "sim.kernels.rikiki",
            "huit-americain": "sim.kernels.huit_americain", "bataille": "sim.kernels.war",
            "super-bataille": "sim.kernels.war"}


def has_kernel(slug: str) -> bool:
    return slug in _KERNELS


def kernel_for(slug: str) -> ModuleType:
    """The kernel module of a game; a game without one names those that have one."""
    if slug not in _KERNELS:
        raise ValueError(f"no compiled kernel for {slug!r}; games with one: "
                         f"{', '.join(sorted(_KERNELS))}")
    return importlib.import_module(_KERNELS[slug])
