"""A tournament of one's own bot against the built-in ones, from Python
(docs/write-a-bot.md).  Run from this folder: python tournament.py [OUT_DIR]"""

import sys

import sim.tournament

out = sys.argv[1] if len(sys.argv) > 1 else "runs/my-tournament"
status = sim.tournament.main([
    "paris-damis", "--players", "3", "--games", "200", "--seed", "1",
    "--agents", "my_bots:BetTwo,random,greedy", "--out", out, "--no-progress"])
sys.exit(status)
