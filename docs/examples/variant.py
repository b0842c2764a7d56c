"""A rule parameter from the outside (docs/add-a-variant.md): its documentation, a bad value,
and what it changes over a few hundred seeded games.  Run: python variant.py"""

import engines
from sim.runner import play_kernel

Params = engines.params_class("paris-damis")
info = next(p for p in Params.describe() if p.key == "column_tie")
print(f"{info.key}={info.default} [{info.ref}] {info.help}; one of: {', '.join(info.choices)}")

try:
    engines.load("paris-damis", column_tie="coin-toss")
except ValueError as error:
    print(error)                    # names the valid values

for rule in info.choices:
    game = engines.load("paris-damis", players=3, column_tie=rule)
    out = play_kernel(game, ["random"] * 3, seed=0, start=0, count=500)
    players = game.summary.player_columns(game.params, out.rows)
    print(f"{rule:>12}: mean score {players['score'].mean():.2f}")
