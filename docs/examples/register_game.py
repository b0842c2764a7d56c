"""Registering a game of one's own (docs/add-a-game.md), then a batch run whose worker
processes find it by its import path.  Run from this folder: python register_game.py OUT"""

import sys

import engines
import sim.batch.cli

engines.register("pouilleux-32", "my_games.pouilleux32:Pouilleux32")
game = engines.load("pouilleux-32", players=3)
print(game.title, game.params)

out = sys.argv[1] if len(sys.argv) > 1 else "runs/pouilleux-32"
sys.exit(sim.batch.cli.main(["pouilleux-32", "--players", "3", "--games", "40",
                             "--chunk-size", "10", "--jobs", "2", "--backend", "loky",
                             "--out", out, "--no-progress"]))
