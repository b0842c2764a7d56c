"""``python -m sim.tournament``: bots against each other, rated, with the game's skill depth
and luck.

    python -m sim.tournament paris-damis --agents random,greedy,cautious --games 20000

Every table of K seats drawn from the agents (repeats allowed, at least two different agents:
a *lineup*) plays ``--games`` games with rotated seating and the same seed, each lineup an
ordinary run in ``OUT/<lineup>/``.  From all of them: Bradley–Terry ratings with bootstrap
intervals, head-to-head records, the skill chain, luck, each bot's win share against K-1
random bots (when ``random`` plays), and each search's head to head by the number of searches
at the table.  Definitions: :mod:`sim.analysis.ratings` and
docs/tournaments.md.  Writes ``OUT/tournament.json`` and a report in ``OUT/report/``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

import agents
import engines
from sim.analysis import Run, figures, ratings
from sim.analysis.stats import win_share
from sim.batch.cli import (
    DEFAULT_GAMES,
    JOBS_HELP,
    OWN_BOT,
    check_games_room,
    resolve_jobs,
    spec_from_args,
)
from sim.batch.run import ensure_run
from sim.batch.spec import RunSpec
from sim.cli import (
    Parser,
    UsageError,
    announce_compile,
    new_out_dir,
    safe_name,
    seed_arg,
    usage_error,
    variant_params,
    wants_progress,
)
from sim.report import Bullets, Heading, Table, Text, estimate, percent, publish

BASELINE = "random"


@dataclass(frozen=True)
class Standings:
    """A tournament's results: ratings, head-to-head records, skill chain, luck, and each
    bot's win share against random bots (empty without ``random``), and each search's head to
    head with the other bots by the searches at the table (empty without a search and
    another bot)."""

    ratings: pd.DataFrame
    head_to_head: pd.DataFrame
    chain: list[str]
    luck: pd.DataFrame
    versus_random: pd.DataFrame
    by_searches: pd.DataFrame

    def to_json(self) -> dict[str, Any]:
        return {"ratings": self.ratings.to_dict("records"),
                "head_to_head": self.head_to_head.to_dict("records"),
                "skill_chain": self.chain, "luck": self.luck.to_dict("records"),
                "versus_random": self.versus_random.to_dict("records"),
                "head_to_head_by_searches": self.by_searches.to_dict("records")}


def lineup_name(lineup: Sequence[str]) -> str:
    """A lineup's directory name: its agents joined by ``+`` (UsageError when it cannot
    name a folder)."""
    return safe_name("+".join(lineup), "lineup")


def versus_random(runs: Sequence[Run]) -> pd.DataFrame:
    """Win share of each bot in the runs where it sits with only random bots: ``[agent, n,
    wins, share, low, high]``."""
    rows = []
    for run in runs:
        others = [a for a in run.agents if a != BASELINE]
        if len(others) == 1:
            shares = win_share(run.players, "agent")
            rows.append(shares[shares["agent"] == others[0]])
    if not rows:
        return pd.DataFrame(columns=["agent", "n", "wins", "share", "low", "high"])
    table = pd.concat(rows, ignore_index=True)
    table["agent"] = table["agent"].astype(str)
    return table


def by_searches(runs: Sequence[Run]) -> pd.DataFrame:
    """Each search's head to head with each bot that is not one, counted apart by the number
    of seats held by searches at the table (``searches``, the search's own included):
    ``[agent, opponent, searches, n, score, share, low, high]``, as
    :func:`~sim.analysis.ratings.head_to_head`.  A search's model of the others is its
    rollouts, so it may fare differently beside other searches than alone among
    heuristics."""
    columns = ["agent", "opponent", "searches", "n", "score", "share", "low", "high"]
    kinds = {name: agents.is_search(name) for run in runs for name in run.agents}
    tables: dict[int, list[pd.DataFrame]] = {}
    for i, run in enumerate(runs):
        count = sum(kinds[name] for name in run.agents)
        if 0 < count < len(run.agents):
            tables.setdefault(count, []).append(run.players.assign(match=i))
    rows = []
    for count, players in sorted(tables.items()):
        record = ratings.head_to_head(ratings.pairwise(pd.concat(players, ignore_index=True)))
        keep = record["agent"].map(kinds) & ~record["opponent"].map(kinds)
        rows.append(record[keep].assign(searches=count))
    if not rows:
        return pd.DataFrame(columns=columns)
    table = pd.concat(rows, ignore_index=True)[columns]
    return table.sort_values(["agent", "opponent", "searches"], ignore_index=True)


def standings(runs: Sequence[Run], seed: int = 0) -> Standings:
    """Ratings, head to head, skill chain, luck, shares against random and the searches' head
    to head by the searches at the table, of the runs of a tournament."""
    players = pd.concat([run.players.assign(match=i) for i, run in enumerate(runs)],
                        ignore_index=True)
    pairs = ratings.pairwise(players)
    rated = ratings.ratings(pairs, seed=seed)
    record = ratings.head_to_head(pairs)
    chain = ratings.skill_chain(rated, record)
    return Standings(rated, record, chain, ratings.luck(rated, record), versus_random(runs),
                     by_searches(runs))


# --------------------------------------------------------------------------------------
# The report
# --------------------------------------------------------------------------------------
def summary_sentences(result: Standings, n_players: int) -> list[str]:
    """What a designer reads first, in plain words."""
    best = result.ratings.iloc[0]
    worst = result.ratings.iloc[-1]
    sentences = [f"{best['agent']} is the strongest bot: {best['rating']:+.0f} Elo "
                 f"[{best['low']:+.0f}, {best['high']:+.0f}] against {worst['agent']}'s "
                 f"{worst['rating']:+.0f}."]
    chain = " < ".join(result.chain)
    sentences.append(f"Skill chain ({len(result.chain)} links, each bot beating the previous "
                     f"one significantly): {chain}.")
    pooled = result.luck.iloc[-1]
    sentences.append(f"The weaker bot of a pair finishes ahead "
                     f"{estimate(pooled['share'], pooled['low'], pooled['high'])} of the "
                     f"time (50% would be pure chance).")
    if len(result.versus_random):
        top = result.versus_random.sort_values("share").iloc[-1]
        fair = 1 / n_players
        verdict = "significantly above" if top["low"] > fair else "not significantly above"
        sentences.append(f"Seated with {n_players - 1} random bots, {top['agent']} wins "
                         f"{estimate(top['share'], top['low'], top['high'])} of its games, "
                         f"{verdict} the fair {percent(fair)}.")
    alone = result.by_searches[result.by_searches["searches"] == 1]
    for agent, rows in alone.groupby("agent", sort=True):
        records = ", ".join(f"{row['opponent']} {estimate(row['share'], row['low'], row['high'])}"
                            for _, row in rows.iterrows())
        sentences.append(f"As the one search at its table, {agent} finishes ahead of "
                         f"{records} of the time.")
    return sentences


def _text_table(frame: pd.DataFrame, columns: dict[str, Any]) -> pd.DataFrame:
    """A table of text: one column per ``columns`` entry (header -> row formatter)."""
    return pd.DataFrame({header: [fmt(row) for _, row in frame.iterrows()]
                         for header, fmt in columns.items()})


def report_blocks(game: str, settings: dict[str, str], result: Standings, n_players: int
                  ) -> list:
    """The tournament report, as sim.report blocks."""
    interval = lambda row: estimate(row["share"], row["low"], row["high"])  # noqa: E731
    blocks = [
        Heading(f"{game}: tournament of {', '.join(result.ratings['agent'])}", 1),
        Heading("Settings"),
        Table("Tournament", pd.DataFrame({"setting": list(settings),
                                          "value": list(settings.values())})),
        Heading("Summary"), Bullets(tuple(summary_sentences(result, n_players))),
        Heading("Ratings"),
        Table("Bradley–Terry ratings (Elo scale, 95% bootstrap intervals)", _text_table(
            result.ratings, {"bot": lambda r: r["agent"],
                             "rating": lambda r: f"{r['rating']:+.0f}",
                             "95% interval": lambda r: f"[{r['low']:+.0f}, {r['high']:+.0f}]",
                             "comparisons": lambda r: f"{int(r['comparisons']):,}"})),
        figures.ratings(result.ratings, result.chain),
        Table("Head to head (share of comparisons won, ties ½)", _text_table(
            result.head_to_head, {"bot": lambda r: r["agent"],
                                  "against": lambda r: r["opponent"],
                                  "comparisons": lambda r: f"{int(r['n']):,}",
                                  "won [95% interval]": interval}))]
    if len(result.by_searches):
        blocks += [Table("Head to head of each search by the searches at the table (share of "
                         "comparisons won, ties ½)", _text_table(
                             result.by_searches,
                             {"search": lambda r: r["agent"], "against": lambda r: r["opponent"],
                              "searches at the table": lambda r: str(int(r["searches"])),
                              "comparisons": lambda r: f"{int(r['n']):,}",
                              "won [95% interval]": interval}))]
    if len(result.versus_random):
        blocks += [Heading("Skill depth"),
                   Table(f"Win share with {n_players - 1} random bots", _text_table(
                       result.versus_random, {"bot": lambda r: r["agent"],
                                              "games": lambda r: f"{int(r['n']):,}",
                                              "win share [95% interval]": interval})),
                   figures.skill_depth(result.versus_random, n_players, result.chain)]
    blocks += [Heading("Luck"),
               Text("An upset is a comparison (two seats of one game) that the lower-rated "
                    "bot wins."),
               Table("Upsets by pair", _text_table(
                   result.luck, {"weaker": lambda r: r["weaker"],
                                 "stronger": lambda r: r["stronger"],
                                 "comparisons": lambda r: f"{int(r['n']):,}",
                                 "upsets [95% interval]": interval})),
               figures.luck(result.luck)]
    return blocks


# --------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="python -m sim.tournament",
        description="Rate bots against each other: every table of K seats drawn from the "
                    "agents (repeats allowed, at least two different agents) plays --games "
                    "games with rotated seating and the same seed; then Bradley-Terry "
                    "ratings with bootstrap intervals, head-to-head records, the skill chain "
                    "(bots each beating the previous one significantly), luck (how often the "
                    "weaker bot finishes ahead), each bot's win share against random "
                    "bots, and each search's head to head by the number of searches at the "
                    "table.  Writes every lineup's run, tournament.json and a report.",
        epilog="Example:\n  python -m sim.tournament paris-damis --agents "
               "random,greedy,cautious --games 20000",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", help="game slug")
    p.add_argument("--agents", required=True,
                   help="two or more different agents, comma-separated (include random to "
                        f"measure skill depth against it); {OWN_BOT}")
    p.add_argument("--games", type=int,
                   help=f"games per lineup (default {DEFAULT_GAMES:,})")
    p.add_argument("--players", type=int, help="player count (default: the game's usual)")
    p.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                   help="a rule parameter, repeatable")
    p.add_argument("--seed", type=seed_arg, help="seed of every lineup (default 0)")
    p.add_argument("--jobs", type=int, help=JOBS_HELP)
    p.add_argument("--out", metavar="DIR",
                   help="output directory (default runs/tournament-<game>-<UTC timestamp>)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars on stderr")
    return p


def lineup_specs(args: argparse.Namespace) -> list[tuple[str, RunSpec]]:
    """Every lineup's validated RunSpec (all checked before any game is played)."""
    if args.game not in engines.available():
        raise UsageError(f"unknown game {args.game!r}; available games: "
                         f"{', '.join(engines.available())}")
    names = [n.strip() for n in args.agents.split(",") if n.strip()]
    if len(set(names)) < 2 or len(set(names)) != len(names):
        raise UsageError(f"--agents takes two or more different agents, got {args.agents!r}")
    try:
        players = variant_params(args.game, args.variant, args.players).players
    except ValueError as error:
        raise UsageError(str(error)) from None
    return [(lineup_name(lineup), lineup_spec(args.game, lineup, args.variant, args.players,
                                              args.games, args.seed, args.jobs))
            for lineup in ratings.lineups(names, players)]


def lineup_spec(game: str, lineup: Sequence[str], variant: Sequence[str], players: int | None,
                games: int | None, seed: int | None, jobs: int | None) -> RunSpec:
    """One lineup's validated RunSpec: its agents in seat order, seats rotating (UsageError
    naming the valid choices for a bad game, agent, variant or count)."""
    return spec_from_args(argparse.Namespace(
        game=game, variant=list(variant), players=players, agents=",".join(lineup),
        games=games, seed=seed, seating="rotate", jobs=jobs, chunk_size=None))


def play_tournament(specs: list[tuple[str, RunSpec]], out: Path, jobs: int,
                    progress: bool = False, variant: Sequence[str] = ()
                    ) -> tuple[Standings, Path]:
    """Play every lineup into ``out/<lineup>/`` (its complete run there is reused), then write
    ``out/tournament.json`` and the report ``out/report/``; returns the standings and the
    report folder."""
    runs = []
    for name, spec in specs:
        runs.append(Run.open(ensure_run(spec, out / name, jobs, progress), label=name))
    first = specs[0][1]
    result = standings(runs, seed=first.seed)
    n_players = len(first.agents)
    settings = {"game": first.game, "players": str(n_players), "lineups": str(len(specs)),
                "games per lineup": f"{first.games:,}", "seed": str(first.seed),
                "variant": " ".join(variant) or "defaults"}
    (out / "tournament.json").write_text(json.dumps(
        {"settings": settings, "lineups": [n for n, _ in specs]} | result.to_json(),
        indent=2))
    report = publish(report_blocks(first.game, settings, result, n_players), out / "report")
    return result, report


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        specs = lineup_specs(args)
        jobs = resolve_jobs(args.jobs)
        out = new_out_dir(args.out, f"tournament-{args.game}")
        check_games_room([(spec, spec.games) for _, spec in specs], out, jobs)
    except UsageError as error:
        return usage_error("sim.tournament", error)
    progress = wants_progress(args)
    announce_compile(args.game)
    try:
        result, report = play_tournament(specs, out, jobs, progress, args.variant)
    except KeyboardInterrupt:
        print(f"\nsim.tournament: interrupted; finished lineups are in {out}", file=sys.stderr)
        return 130
    except UsageError as error:             # a lineup's run is in use by another process
        return usage_error("sim.tournament", error)
    except Exception as error:
        print(f"sim.tournament: error: {error}", file=sys.stderr)
        return 1
    n_players = len(specs[0][1].agents)
    shown = result.ratings.assign(comparisons=result.ratings["comparisons"].astype(int))
    print(shown.to_string(index=False, float_format=lambda v: f"{v:+.0f}"))
    print("skill chain: " + " < ".join(result.chain))
    print("\n".join(summary_sentences(result, n_players)[2:]))
    print(f"report: {report / 'report.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
