"""One seeded game of one's own bot against the built-in ones, through the Python API
(docs/write-a-bot.md).  Run from this folder: python play_one.py"""

import agents
import engines
from sim.runner import play_python

game = engines.load("paris-damis", players=3)
bots = [agents.load("my_bots:BetTwo"), agents.load("greedy"), agents.load("random")]
final = play_python(game, bots, seed=0, index=7)
print(final.result().ranks)               # the same ranks every time: seed 0, game 7
