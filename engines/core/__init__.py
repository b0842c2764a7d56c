"""The engine core every game builds on: the contract (:mod:`engines.core.api`), the compiled
state and its Python base (:mod:`~engines.core.compiled`), record layouts, parameters, seeding,
cards, chance draws and the per-game specialisation of compiled code."""

from engines.core.signatures import (
    allocation_free_without_nrt,
    plain_arguments,
    plain_shape_errors,
)

plain_arguments()
plain_shape_errors()
allocation_free_without_nrt()
