"""Build the bataille length-and-cycle report, ``reports/bataille/README.md``.

    python reports/bataille/build.py [--games 10000] [--seed 1]

For each pickup order it plays games 0 .. games-1 of a run with ``seed`` through the compiled
kernel, exactly the games ``python -m sim.batch bataille --games N --seed S --variant
pickup_order=ORDER`` plays (game i depends only on (seed, i)), and tabulates the length in
tricks, the ends (``all_cards``, ``cycle``, ``max_tricks``) and the batailles per game.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

import engines
from engines.families.war import summary
from sim.runner import play_kernel

HERE = Path(__file__).resolve().parent
ORDERS = ("winner_first", "seat_order", "loser_first", "random")
QUANTILES = (0.5, 0.9, 0.99)


def measure(order: str, games: int, seed: int, players: int) -> dict[str, float]:
    """Length and end figures of ``games`` games with ``pickup_order=order``."""
    game = engines.load("bataille", players=players, pickup_order=order)
    out = play_kernel(game, ["random"] * players, seed, 0, games)
    columns = summary.game_columns(game.params, out.rows)
    tricks = columns["tricks"]
    ends = columns["end"]
    finished = tricks[ends == "all_cards"]
    row: dict[str, float] = {"games": games,
                             "finished": float(np.mean(ends == "all_cards")),
                             "cycle": float(np.mean(ends == "cycle")),
                             "capped": float(np.mean(ends == "max_tricks")),
                             "exhausted": float(np.mean(ends == "exhausted")),
                             "mean": float(finished.mean()) if finished.size else np.nan,
                             "max": float(finished.max()) if finished.size else np.nan,
                             "batailles": float(columns["batailles"].mean())}
    for q in QUANTILES:
        row[f"q{q}"] = float(np.quantile(finished, q)) if finished.size else np.nan
    cycles = columns["cycle_length"][ends == "cycle"]
    row["cycle_length_median"] = float(np.median(cycles)) if cycles.size else np.nan
    row["share"] = float(np.mean(ends == "cycle"))
    return row


def interval(p: float, n: int) -> str:
    """A 95% Wilson interval for a proportion, in percent."""
    z = 1.959963984540054
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{100 * p:.2f}% [{100 * (centre - half):.2f}, {100 * (centre + half):.2f}]"


def render(rows: dict[str, dict[str, float]], games: int, seed: int, players: int) -> str:
    command = f"python reports/bataille/build.py --games {games} --seed {seed}"
    lines = [
        "# La bataille: how long does it last, and can it never end?",
        "",
        f"Every number below comes from `{command}` (about a minute on one core; run it from",
        "the repository root with the project installed), which plays",
        f"games 0..{games - 1} of seed {seed} with {players} players, 52 cards, no Jokers and "
        "the default `max_tricks` = 100,000 for each pickup order through "
        "the compiled kernel.  The same games, with their tables, come from",
        "",
        "```",
        f"python -m sim.batch bataille --games {games} --seed {seed} "
        "--variant pickup_order=ORDER",
        "```",
        "",
        "(`games.tricks`, `games.end`, `games.cycle_length`, `games.batailles`; see "
        "[docs/results-bataille.md](../../docs/results-bataille.md)).  A game ends `cycle` "
        "when its ordered piles repeat an earlier state (it would never end; a hash of the "
        "piles, compared with the last 64 states and, for longer cycles, by Brent's method); "
        "`max_tricks` when the cap stops it first.",
        "",
        "## Ends, by pickup order (95% intervals)",
        "",
        "| pickup order | finished | cycle | stopped by max_tricks |",
        "|---|---|---|---|",
    ]
    for order, r in rows.items():
        lines.append(f"| `{order}` | {interval(r['finished'], games)} | "
                     f"{interval(r['cycle'], games)} | {interval(r['capped'], games)} |")
    lines += ["", "## Length of the finished games (tricks)", "",
              "| pickup order | mean | median | 90th pct | 99th pct | longest | batailles per "
              "game | median cycle length |",
              "|---|---|---|---|---|---|---|---|"]
    for order, r in rows.items():
        cycle = "–" if np.isnan(r["cycle_length_median"]) else \
            f"{r['cycle_length_median']:.0f}"
        lines.append(f"| `{order}` | {r['mean']:.1f} | {r['q0.5']:.0f} | {r['q0.9']:.0f} | "
                     f"{r['q0.99']:.0f} | {r['max']:.0f} | {r['batailles']:.1f} | {cycle} |")
    lines += ["", "## Reading", "",
              "- The pickup order, which the text does not state, decides whether a game can "
              "last forever: see the `cycle` column.  With `random` pickup no state repeats "
              "deterministically, so no game is called a cycle; every game is finished or "
              "capped.",
              "- A game stopped by `max_tricks` with a deterministic order is undecided: "
              "either a cycle not yet recognised (a cycle of up to 64 tricks ends at its "
              "first repetition; a longer one within about twice the tricks before it plus "
              "its length) or a very long game.",
              "- Batailles per game count the tricks with at least one bataille (all games, "
              "cycles included).", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args(argv)
    rows = {order: measure(order, args.games, args.seed, args.players) for order in ORDERS}
    (HERE / "README.md").write_text(render(rows, args.games, args.seed, args.players))
    print(HERE / "README.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
