"""``python -m sim.metagame``: balance asked of a population of bots rather than of one bot.

    python -m sim.metagame paris-damis --players 3 --agents greedy@tuned,cautious,aggressive

Every table of K seats drawn from the agents, repeats allowed (mirror tables of one agent
included: a *lineup*), plays ``--games`` games with rotated seating and the same seed (so
every lineup sees the same deals), each lineup an ordinary run in ``OUT/<lineup>/``.  From
them: the payoff table (each agent's win share in each lineup), the meta-game's symmetric
equilibrium mix and alpha-Rank, dominance, how much the best pure response to the mix gains,
and the seat effects in the equilibrium population, in a uniformly mixed one and in each
mirror table, all with bootstrap intervals.  Definitions: :mod:`sim.analysis.metagame` and
docs/metagame.md.  Writes ``OUT/metagame.json`` and a report in ``OUT/report/``;
``--resume OUT`` finishes an interrupted one.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import engines
from sim import runlock
from sim.analysis import Run, ratings
from sim.analysis.balance import (
    decisions_that_matter,
    lead_changes,
    leader_wins,
    luck_share,
    pooled,
    snowball,
)
from sim.analysis.figures import grouped_intervals
from sim.analysis.metagame import Games, MetaGame, population_chances, solve
from sim.batch.cli import DEFAULT_GAMES, OWN_BOT, add_workers, check_games_room, resolve_jobs
from sim.batch.run import ensure_run
from sim.batch.spec import RunSpec
from sim.cli import (
    Parser,
    UsageError,
    announce_compile,
    finite,
    new_out_dir,
    seed_arg,
    usage_error,
    wants_progress,
    without_nan,
)
from sim.decisions import DEFAULT_TRIES, judged_run
from sim.report import Bullets, Heading, Table, Text, publish
from sim.schema import MetagameSettings, validated
from sim.tournament import lineup_name, lineup_spec

SETTINGS = "metagame-settings.json"
DEFAULT_RESAMPLES = 200
DEFAULT_ALPHA = 100.0
DEFAULT_POPULATION = 50


# --------------------------------------------------------------------------------------
# What is played
# --------------------------------------------------------------------------------------
def lineup_specs(settings: dict[str, Any], jobs: int | None = None
                 ) -> list[tuple[tuple[str, ...], RunSpec]]:
    """Every lineup of the settings' agents (repeats and mirror tables included) with its
    validated RunSpec, all checked before any game is played."""
    game = settings["game"]
    if game not in engines.available():
        raise UsageError(f"unknown game {game!r}; available games: "
                         f"{', '.join(engines.available())}")
    names = settings["agents"]
    if len(names) < 2 or len(set(names)) != len(names):
        raise UsageError(f"--agents takes two or more different agents, comma-separated, got "
                         f"{','.join(names)!r}")
    players = settings["players"] if settings["players"] is not None \
        else engines.load(game).num_players
    return [(lineup, lineup_spec(game, lineup, settings["variant"], settings["players"],
                                 settings["games"], settings["seed"], jobs))
            for lineup in combinations_with_replacement(names, players)]


def play_lineups(specs: list[tuple[tuple[str, ...], RunSpec]], out: Path, jobs: int,
                 backend: str, scheduler: str | None, progress: bool
                 ) -> dict[tuple[str, ...], Run]:
    """Every lineup's run in ``out/<lineup>/`` (a finished one is reused, an unfinished one
    resumed), by lineup."""
    return {lineup: Run.open(ensure_run(spec, out / lineup_name(lineup), jobs, progress,
                                        backend, scheduler))
            for lineup, spec in specs}


# Lineups less likely than this in a population are left out of its figures.
LEAST_CHANCE = 1e-3
SNOWBALL_COLUMNS = ("game_id", "round", "seat", "bet_correct")
LEAD_COLUMNS = ("game_id", "round", "seat", "score")


def lineup_figures(run: Run) -> dict[str, float]:
    """One lineup's snowball of a correct bet, how often the sole leader after the middle
    round wins and how often the lead changes (see :mod:`sim.analysis.balance`), where its
    tables have the columns."""
    figures: dict[str, float] = {}
    if run.has("rounds", *SNOWBALL_COLUMNS):
        figures |= snowball(run.rounds, "bet_correct", players=run.players)
    if run.has("rounds", *LEAD_COLUMNS):
        leads = leader_wins(run.rounds, run.players)
        if len(leads) > 1:
            middle = leads.iloc[len(leads) // 2 - 1]
            figures |= {"lead_holds": middle["holds"], "lead_holds_low": middle["low"],
                        "lead_holds_high": middle["high"],
                        "lead_after_round": float(middle["round"])}
        figures |= lead_changes(run.rounds)
    return figures


def lineups_chances(runs: dict[tuple[str, ...], Run], result: MetaGame
                    ) -> dict[str, dict[tuple[str, ...], float]]:
    """Each lineup's chance at a table drawn from the equilibrium population and from a
    uniform mix (lineups less likely than :data:`LEAST_CHANCE` left out)."""
    names = {"+".join(lineup): lineup for lineup in runs}
    chances = population_chances(
        dict(zip(result.agents, result.mix["weight"], strict=True)), list(names), LEAST_CHANCE)
    return {population: {names[name]: p for name, p in chance.items()}
            for population, chance in chances.items()}


def population_figures(runs: dict[tuple[str, ...], Run], result: MetaGame
                       ) -> dict[str, dict[str, Any]]:
    """The game's figures (snowball, decisive lead, lead changes) in the equilibrium
    population and in a uniform mix: each lineup's estimate weighted by its chance at a
    table drawn from the population (:func:`lineups_chances`), see
    :func:`sim.analysis.balance.pooled`."""
    per_lineup = {lineup: lineup_figures(run) for lineup, run in runs.items()}
    out = {}
    for population, chances in lineups_chances(runs, result).items():
        figures: dict[str, float] = {}
        for name in ("snowball", "lead_holds", "lead_changes"):
            having = [lineup for lineup in chances if name in per_lineup[lineup]]
            if having:
                figures |= pooled([per_lineup[lineup] for lineup in having], name,
                                  [chances[lineup] for lineup in having])
        rounds = {per_lineup[lineup]["lead_after_round"] for lineup in chances
                  if "lead_after_round" in per_lineup[lineup]}
        if len(rounds) == 1:
            figures["lead_after_round"] = rounds.pop()
        out[population] = figures
    return out


def judged_figures(runs: dict[tuple[str, ...], Run], result: MetaGame, games: int,
                   tries: int, jobs: int, progress: bool = False) -> dict[str, Any]:
    """The decisions that matter at tables of the equilibrium population: games
    0..games-1 of each of its lineups judged as ``sim.decisions`` does (the table written
    into the lineup's run, and read again on a resume), each lineup's share weighted by its
    chance (:func:`sim.analysis.balance.pooled`)."""
    chances = lineups_chances(runs, result)["equilibrium"]
    estimates = []
    for lineup in chances:
        run = runs[lineup]
        spec = RunSpec.from_json(run.manifest["spec"])
        table, _ = judged_run(spec, run.path, min(games, spec.games), tries, 0, jobs,
                              progress)
        estimates.append(decisions_that_matter(table))
    return pooled(estimates, "matters", list(chances.values())) | {
        "population": "equilibrium", "lineups": len(estimates),
        "decisions": sum(e["decisions"] for e in estimates), "games_per_lineup": games,
        "tries": tries}


def luck_among(runs: dict[tuple[str, ...], Run], agents: Sequence[str],
               resamples: int) -> dict[str, Any]:
    """:func:`sim.analysis.balance.luck_share` over the seats of the mixed lineups (two
    agents or more) made of ``agents`` only, each lineup's games kept apart; with the agents
    it is among.  Mirror tables are left out: in them who sits there cannot matter."""
    span = 1 + max(int(run.players["game_id"].max()) for run in runs.values())
    chosen = [run.players.assign(game_id=run.players["game_id"] + i * span)
              for i, (lineup, run) in enumerate(runs.items())
              if set(lineup) <= set(agents) and len(set(lineup)) > 1]
    return {"agents": list(agents)} | luck_share(pd.concat(chosen, ignore_index=True),
                                                 resamples=resamples)


def upsets_between(runs: dict[tuple[str, ...], Run], pair: Sequence[str]) -> dict[str, Any]:
    """How often the weaker of two agents (the one finishing ahead of the other less than half
    the time) finishes ahead of the stronger at the tables of the two of them: ``weaker``,
    ``upsets`` with its Wilson interval (``upsets_low``, ``upsets_high``; ties count ½), and
    ``comparisons``; see :func:`sim.analysis.ratings.head_to_head`."""
    players = pd.concat([run.players.assign(match=i)
                         for i, (lineup, run) in enumerate(runs.items())
                         if set(lineup) == set(pair)], ignore_index=True)
    record = ratings.head_to_head(ratings.pairwise(players))
    weaker = record.loc[record["share"].idxmin()]
    return {"weaker": weaker["agent"], "upsets": weaker["share"],
            "upsets_low": weaker["low"], "upsets_high": weaker["high"],
            "comparisons": int(weaker["n"])}


def luck_figures(runs: dict[tuple[str, ...], Run], result: MetaGame,
                 resamples: int) -> dict[str, dict[str, Any]]:
    """Luck in the whole pool and between the two agents alpha-Rank puts first (then the
    higher win share against the equilibrium), with how often the weaker of those two
    finishes ahead."""
    top = list(result.mix.sort_values(["alpha_rank", "against_equilibrium"],
                                      ascending=False)["agent"])
    return {"pool": luck_among(runs, result.agents, resamples),
            "top_two": luck_among(runs, top[:2], resamples) | upsets_between(runs, top[:2])}


# --------------------------------------------------------------------------------------
# The answers as text
# --------------------------------------------------------------------------------------
def pp(value: float) -> str:
    """A difference of proportions in percentage points: '+1.2'."""
    return f"{100 * value:+.1f}"


def bracket(low: float, high: float, scale: float = 100.0, digits: int = 1) -> str:
    """An interval as text, scaled (percentage points by default): '[1.2, 3.4]'; '[no
    interval]' without resamples."""
    if math.isnan(low) or math.isnan(high):
        return "[no interval]"
    return f"[{scale * low:.{digits}f}, {scale * high:.{digits}f}]"


def mix_table(result: MetaGame) -> pd.DataFrame:
    """The equilibrium mix and alpha-Rank, as text."""
    return pd.DataFrame({
        "agent": result.mix["agent"],
        "equilibrium weight": [f"{r.weight:.2f} {bracket(r.weight_low, r.weight_high, 1, 2)}"
                               for r in result.mix.itertuples()],
        "alpha-Rank": [f"{r.alpha_rank:.2f} {bracket(r.alpha_rank_low, r.alpha_rank_high, 1, 2)}"
                       for r in result.mix.itertuples()],
        "win share against the mix": [f"{100 * v:.1f}%"
                                      for v in result.mix["against_equilibrium"]],
        "against a uniform mix": [f"{100 * v:.1f}%" for v in result.mix["against_uniform"]]})


def seat_table(result: MetaGame) -> pd.DataFrame:
    """Each population's seat edges (pp) with their intervals, one row per population."""
    rows = []
    for population, group in result.seats.groupby("population", sort=False):
        row = {"population": population}
        for r in group.itertuples():
            row[f"seat {r.seat}"] = f"{pp(r.edge)} {bracket(r.edge_low, r.edge_high)}"
        rows.append(row)
    return pd.DataFrame(rows)


def payoff_text(result: MetaGame) -> pd.DataFrame:
    """The payoff table, as text."""
    t = result.payoff_table
    return pd.DataFrame({"lineup": t["lineup"], "agent": t["agent"], "seats": t["seats"],
                         "games": t["games"],
                         "win share per seat": [f"{100 * r.win_share:.1f}% "
                                                f"{bracket(r.low, r.high)}"
                                                for r in t.itertuples()]})


def sentences(result: MetaGame, luck: dict[str, dict[str, Any]],
              game: dict[str, dict[str, Any]]) -> list[str]:
    """The answers in plain words."""
    k = result.players
    mix = result.mix.sort_values("weight", ascending=False)
    played = [f"{r.agent} {r.weight:.2f}" for r in mix.itertuples() if r.weight >= 0.005]
    out = [f"Equilibrium mix (no agent gains by switching alone): {', '.join(played)}; the "
           f"best pure response to it gains {pp(result.gain)} pp of win share (0 at an exact "
           f"equilibrium)."]
    line = result.mix.loc[result.mix["against_uniform"].idxmax()]
    out.append(f"Dominant line: in a uniformly mixed population {line['agent']} wins "
               f"{100 * line['against_uniform']:.1f}% of its games, against the fair "
               f"{100 / k:.1f}%.")
    top = result.mix.sort_values("alpha_rank", ascending=False).iloc[0]
    out.append(f"alpha-Rank puts {top['agent']} first ({top['alpha_rank']:.2f} of the "
               f"stationary mass).")
    agents = list(result.agents)
    dominant = [a for a in agents
                if set(result.dominance.loc[result.dominance["agent"] == a, "dominates"])
                == set(agents) - {a}]
    dominated = sorted(set(result.dominance["dominates"]))
    if dominant:
        held = result.dominance.loc[result.dominance["agent"] == dominant[0],
                                    "resamples_holding"].min()
        out.append(f"{dominant[0]} is a dominant strategy: it wins more than any other agent "
                   f"would in its place at every table (in {100 * held:.0f}% of the bootstrap "
                   f"resamples).")
    else:
        out.append("No agent dominates every other.")
    if dominated:
        out.append(f"Dominated (another agent does better at every table): "
                   f"{', '.join(dominated)}.")
    for population in ("equilibrium", "uniform"):
        group = result.seats[result.seats["population"] == population]
        worst = group.loc[group["edge"].abs().idxmax()]
        significant = worst["edge_low"] > 0 or worst["edge_high"] < 0
        out.append(f"In the {population} population the largest seat edge is seat "
                   f"{int(worst['seat'])}'s {pp(worst['edge'])} pp "
                   f"{bracket(worst['edge_low'], worst['edge_high'])} against the fair "
                   f"{100 / k:.1f}%" + ("" if significant else " (not significant)") + ".")
    for key, words in (("pool", "in the whole pool"),
                       ("top_two", "between the two agents alpha-Rank puts first")):
        figure = luck[key]
        if "luck" in figure:
            out.append(f"Luck {words} ({', '.join(figure['agents'])}): "
                       f"{100 * figure['luck']:.1f}% "
                       f"{bracket(figure['luck_low'], figure['luck_high'])} of the variance "
                       f"of a seat's win share is not explained by which agent sits there.")
    top = luck["top_two"]
    out.append(f"Between those two, the weaker ({top['weaker']}) finishes ahead of the other "
               f"{100 * top['upsets']:.1f}% {bracket(top['upsets_low'], top['upsets_high'])} "
               f"of the time ({top['comparisons']:,} comparisons; 50% would be pure chance).")
    for population, figures in game.items():
        if "snowball" in figures:
            out.append(f"In the {population} population a correct bet makes the same agent's "
                       f"next bet right {pp(figures['snowball'])} pp "
                       f"{bracket(figures['snowball_low'], figures['snowball_high'])} more "
                       f"often.")
        if "lead_holds" in figures and "lead_after_round" in figures:
            out.append(f"In the {population} population the sole leader after round "
                       f"{int(figures['lead_after_round'])} goes on to win "
                       f"{100 * figures['lead_holds']:.1f}% "
                       f"{bracket(figures['lead_holds_low'], figures['lead_holds_high'])} of "
                       f"its games.")
        judged = figures.get("decisions")
        if judged:
            out.append(f"At tables of the {population} population "
                       f"{100 * judged['matters']:.1f}% "
                       f"{bracket(judged['matters_low'], judged['matters_high'])} of the "
                       f"decisions with a choice matter (the best action clearly ahead of "
                       f"the next by the judge, flatmc with {judged['tries']} simulations "
                       f"per legal action; {judged['decisions']:,} decisions in "
                       f"{judged['games_per_lineup']} games of each of its "
                       f"{judged['lineups']} lineups).")
        if "lead_changes" in figures:
            low, high = figures["lead_changes_low"], figures["lead_changes_high"]
            out.append(f"In the {population} population the sole leader changes "
                       f"{figures['lead_changes']:.2f} {bracket(low, high, 1.0, 2)} times "
                       f"per game.")
    return out


def seat_figure(result: MetaGame) -> Any:
    """The seat edges by population, each with its interval, as a figure."""
    return grouped_intervals(
        result.seats.assign(seat=result.seats["seat"].astype(str),
                            population=result.seats["population"].str.replace(
                                "mirror ", "mirror\n", regex=False)), "population", "seat",
        "edge", name="seat_edges", title="Seat edges by population",
        caption="Each seat's win share minus the fair 1/K at tables drawn from each "
                "population, with 95% bootstrap intervals.",
        xlabel="population", ylabel="seat edge (share of games)", reference=0.0,
        percent=True)


def report_blocks(settings: dict[str, Any], result: MetaGame,
                  luck: dict[str, dict[str, Any]], game: dict[str, dict[str, Any]]) -> list:
    """The meta-game report, as sim.report blocks."""
    shown = {key: (", ".join(v) if isinstance(v, list) else str(v)) for key, v in
             settings.items()}
    return [
        Heading(f"{settings['game']}: meta-game of {', '.join(result.agents)}, "
                f"{result.players} players", 1),
        Heading("Summary"), Bullets(tuple(sentences(result, luck, game))),
        Heading("Equilibrium and alpha-Rank"),
        Text(f"Intervals: 95% bootstrap percentile intervals over {result.resamples} "
             f"resamples of each lineup's games."),
        Table("The equilibrium mix and alpha-Rank", mix_table(result)),
        Heading("Seats"),
        Text("Seat edge: a seat's win share minus the fair 1/K, in percentage points, at a "
             "table whose agents are drawn from the population (seats rotating); mirror "
             "rows are tables of one agent."),
        Table("Seat edges by population (pp)", seat_table(result)),
        seat_figure(result),
        Heading("Payoff table"),
        Table("Win share per seat of each agent in each lineup", payoff_text(result)),
        Heading("Settings"),
        Table("Meta-game", pd.DataFrame({"setting": list(shown),
                                         "value": list(shown.values())}))]


# --------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="python -m sim.metagame",
        description="Balance among a population of bots: every table of K seats drawn "
                    "from the agents (repeats and one-agent mirror tables included) plays "
                    "--games games with rotated seating and the same seed; then the payoff "
                    "table, the symmetric equilibrium mix of the meta-game and alpha-Rank, "
                    "dominance, the gain of the best pure response to the mix, the dominant "
                    "line, the seat effects in the equilibrium population, in a uniform mix "
                    "and in each mirror table, luck among the agents, and the game's "
                    "snowball and decisive lead in the two populations, with intervals.  "
                    "Writes every lineup's run, metagame.json and a report "
                    "(docs/metagame.md).",
        epilog="Example:\n  python -m sim.metagame paris-damis --players 3 "
               "--agents greedy@tuned,cautious,aggressive --games 2000",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", nargs="?", help="game slug")
    p.add_argument("--agents", help="two or more different agents, comma-separated "
                                    f"(NAME@PROFILE allowed); {OWN_BOT}")
    p.add_argument("--players", type=int, help="player count (default: the game's usual)")
    p.add_argument("--games", type=int, help=f"games per lineup (default {DEFAULT_GAMES:,})")
    p.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                   help="a rule parameter, repeatable")
    p.add_argument("--seed", type=seed_arg, help="seed of every lineup (default 0)")
    p.add_argument("--bootstrap", type=int, default=DEFAULT_RESAMPLES, metavar="B",
                   help=f"bootstrap resamples for the intervals (default {DEFAULT_RESAMPLES}; "
                        f"0: none)")
    p.add_argument("--alpha", type=finite, default=DEFAULT_ALPHA,
                   help=f"alpha-Rank's selection intensity (default {DEFAULT_ALPHA:g})")
    p.add_argument("--population-size", type=int, default=DEFAULT_POPULATION, metavar="M",
                   help=f"alpha-Rank's population size (default {DEFAULT_POPULATION})")
    p.add_argument("--decisions", type=int, default=0, metavar="G",
                   help="judge games 0..G-1 of every lineup of the equilibrium population "
                        "and give the share of decisions that matter there (as "
                        "sim.decisions does; default 0: not measured)")
    p.add_argument("--tries", type=int, default=DEFAULT_TRIES, metavar="T",
                   help=f"with --decisions: the judge's simulations per legal action "
                        f"(default {DEFAULT_TRIES}; at least 4)")
    add_workers(p)
    p.add_argument("--out", metavar="DIR",
                   help="output directory (default runs/metagame-<game>-<UTC timestamp>)")
    p.add_argument("--resume", metavar="DIR",
                   help="finish an interrupted meta-game in DIR (its settings are kept)")
    p.add_argument("--format", choices=("table", "json"), default="table",
                   help="answers on stdout as text (default) or as one JSON object")
    p.add_argument("--no-progress", action="store_true", help="no progress bars on stderr")
    return p


def settings_from_args(args: argparse.Namespace) -> tuple[dict[str, Any], Path]:
    """The meta-game's settings and output directory (those of ``--resume DIR``)."""
    if args.bootstrap < 0:
        raise UsageError(f"--bootstrap must be 0 or more, got {args.bootstrap}")
    if not args.alpha > 0 or not np.isfinite(args.alpha):
        raise UsageError(f"--alpha must be a positive number, got {args.alpha}")
    if args.decisions < 0:
        raise UsageError(f"--decisions must be 0 or more, got {args.decisions}")
    if args.tries < 4:
        raise UsageError(f"--tries must be at least 4, got {args.tries}")
    if args.population_size < 2:
        raise UsageError(f"--population-size must be at least 2, got {args.population_size}")
    if args.scheduler and args.backend != "dask":
        raise UsageError("--scheduler goes with --backend dask")
    if args.resume:
        given = [name for name, value in (
            ("a game", args.game), ("--agents", args.agents), ("--out", args.out),
            ("--players", args.players), ("--games", args.games), ("--seed", args.seed),
            ("--variant", args.variant)) if value]
        if given:
            raise UsageError(f"--resume DIR keeps the meta-game's own settings; drop "
                             f"{', '.join(given)} (--bootstrap, --alpha, --population-size, "
                             f"--decisions and --tries may be given)")
        out = Path(args.resume)
        try:
            settings = json.loads((out / SETTINGS).read_text())
        except (OSError, ValueError):
            raise UsageError(f"--resume {out}: not a meta-game directory (no readable "
                             f"{SETTINGS})") from None
        return validated(MetagameSettings, settings, f"--resume {out / SETTINGS}").model_dump(), \
            out
    if not args.game:
        raise UsageError(f"a game is required; available games: "
                         f"{', '.join(engines.available())}")
    if not args.agents:
        raise UsageError("--agents is required: two or more different agents, "
                         "comma-separated")
    settings = {"game": args.game, "players": args.players,
                "agents": [a.strip() for a in args.agents.split(",") if a.strip()],
                "games": DEFAULT_GAMES if args.games is None else args.games,
                "seed": 0 if args.seed is None else args.seed, "variant": args.variant}
    return settings, new_out_dir(args.out, f"metagame-{args.game}")


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        settings, out = settings_from_args(args)
        jobs = resolve_jobs(args.jobs)
        specs = lineup_specs(settings, jobs)
        check_games_room([(spec, spec.games) for _, spec in specs], out, jobs)
    except UsageError as error:
        return usage_error("sim.metagame", error)
    out.mkdir(parents=True, exist_ok=True)
    try:
        with runlock.writing(out):          # one meta-game writer: a second is refused
            return play_and_answer(args, settings, out, jobs, specs)
    except UsageError as error:             # the meta-game or a lineup's run is in use
        return usage_error("sim.metagame", error)


def play_and_answer(args: argparse.Namespace, settings: dict[str, Any], out: Path, jobs: int,
                    specs: list[tuple[tuple[str, ...], RunSpec]]) -> int:
    """Play the lineups still missing in ``out``, then solve the meta-game and write its
    answers and report (the command's work, under the meta-game's lock)."""
    (out / SETTINGS).write_text(json.dumps(settings, indent=2))
    announce_compile(settings["game"])
    try:
        runs = play_lineups(specs, out, jobs, args.backend, args.scheduler,
                            wants_progress(args))
    except KeyboardInterrupt:
        print(f"\nsim.metagame: interrupted; continue with: python -m sim.metagame --resume "
              f"{out}", file=sys.stderr)
        return 130
    except UsageError:                      # a lineup's run is in use by another process
        raise
    except Exception as error:
        print(f"sim.metagame: error: {error}", file=sys.stderr)
        return 1
    names = settings["agents"]
    index = {name: i for i, name in enumerate(names)}
    games = Games.from_players(names, len(specs[0][0]), {
        tuple(sorted(index[a] for a in lineup)): run.players for lineup, run in runs.items()})
    result = solve(games, args.bootstrap, args.alpha, args.population_size, settings["seed"])
    luck = luck_figures(runs, result, args.bootstrap)
    game = population_figures(runs, result)
    if args.decisions:
        try:
            game["equilibrium"] |= {"decisions": judged_figures(
                runs, result, args.decisions, args.tries, jobs, wants_progress(args))}
        except KeyboardInterrupt:
            print(f"\nsim.metagame: interrupted; continue with: python -m sim.metagame "
                  f"--resume {out} --decisions {args.decisions}", file=sys.stderr)
            return 130
    settings = settings | {"players": result.players, "lineups": len(specs),
                           "bootstrap": args.bootstrap, "alpha": args.alpha,
                           "population_size": args.population_size}
    answers = without_nan({"settings": settings} | result.to_json()
                          | {"luck": luck, "population_figures": game})
    (out / "metagame.json").write_text(json.dumps(answers, indent=2))
    report = publish(report_blocks(settings, result, luck, game), out / "report")
    if args.format == "json":
        json.dump(answers | {"out": str(out)}, sys.stdout, indent=2)
        print()
        return 0
    print(mix_table(result).to_string(index=False))
    print()
    print(seat_table(result).to_string(index=False))
    print()
    print("\n".join(sentences(result, luck, game)))
    print(f"report: {report / 'report.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
