"""Compiled batch kernels: whole games played in compiled code with compiled policies.

Each game's kernel module declares its hooks and a :class:`~sim.kernels.factory.Kernel`
(``KERNEL``): its compiled policies by agent name, and ``play(game, seat_policies, seed,
start, count)`` returning one summary row per game (see the engine's ``summary``).  The game
loop itself is written once, in :mod:`sim.kernels.factory`.
"""

from __future__ import annotations

import importlib

from sim.kernels.factory import Kernel

# slug -> "module:NAME" of its Kernel; modules are imported on first use
_KERNELS = {
    "paris-damis": "sim.kernels.paris_damis:KERNEL",
    "betzanbloo": "sim.kernels.betzanbloo:KERNEL",
    "ascenseur-atouts": "sim.kernels.ascenseur_atouts:KERNEL",
    "rikiki": "sim.kernels.rikiki:KERNEL",
    "huit-americain": "sim.kernels.huit_americain:KERNEL",
    "bataille": "sim.kernels.war:KERNEL",
    "super-bataille": "sim.kernels.war:KERNEL",
    "chasse-coeur": "sim.kernels.tricks:AVOIDANCE",
    "petasse": "sim.kernels.tricks:AVOIDANCE",
    "vicaire": "sim.kernels.tricks:VICAIRE",
    "belote-a-trois": "sim.kernels.tricks:BELOTE",
    "belote-comptoir": "sim.kernels.tricks:BELOTE",
    "tarot": "sim.kernels.tricks:TAROT",
    "tarot-lorrain": "sim.kernels.tricks:TAROT",
    "tarot-tare": "sim.kernels.tricks:TAROT",
    "menteur": "sim.kernels.shedding:MENTEUR",
    "nain-jaune": "sim.kernels.shedding:NAIN_JAUNE",
    "empereur": "sim.kernels.shedding:EMPEREUR",
    "baccara": "sim.kernels.banking:BACCARA",
    "pharaon": "sim.kernels.banking:PHARAON",
    "pouilleux": "sim.kernels.banking:POUILLEUX",
    "rami": "sim.kernels.rummy:RAMI",
    "petite-ecole": "sim.kernels.rummy:PETITE_ECOLE",
    "pinacle": "sim.kernels.rummy:PINACLE",
}


def has_kernel(slug: str) -> bool:
    return slug in _KERNELS


def kernel_for(slug: str) -> Kernel:
    """The kernel of a game; a game without one names those that have one."""
    if slug not in _KERNELS:
        raise ValueError(f"no compiled kernel for {slug!r}; games with one: "
                         f"{', '.join(sorted(_KERNELS))}")
    module, _, name = _KERNELS[slug].partition(":")
    return getattr(importlib.import_module(module), name)
