"""Build the Ascenseur aux atouts report, ``reports/ascenseur-atouts/README.md`` and its
figures, from the outputs of ``experiments/ascenseur-good.toml`` (a search beside tuned
estimators), ``experiments/ascenseur-mixed.toml`` (one tuned estimator beside default ones),
the meta-games of the search and the estimators (``sim.metagame``) and, as a labelled
contrast, ``experiments/ascenseur-atouts.toml`` (tables of copies of one bot), in
``runs/experiments/<name>/``; with ``--metagames`` alone, print instead the meta-games it
reads, one ``OUT|ARGUMENTS|ANALYSIS`` line each (``make ascenseur-report`` plays them).

    make ascenseur-report                                 # plays what is missing, then builds
    python reports/ascenseur-atouts/build.py              # builds from the finished runs
    python reports/ascenseur-atouts/build.py --metagames  # the meta-games, OUT|ARGS|ANALYSIS

Every number is read from the experiments' cells.csv, comparisons.csv and cells' players
tables and the meta-games' metagame.json and tables; each section prints the command that
reproduces it, and every sentence that depends on a number is derived from it, so a rebuild
never contradicts its tables.  The summaries
and recommendations in ``summary.md`` (English and French) are the authors-facing reading of
those numbers.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from sim import results
from sim.analysis.book import (
    Book,
    NotRun,
    interval,
    intervals,
    long_form,
    markdown,
    share_range,
    stable_text,
    verdict,
)
from sim.analysis.figures import Figure, grouped_intervals
from sim.analysis.metagame import population_chances, population_figures
from sim.analysis.stats import win_share
from sim.metagame import LEAST_CHANCE
from sim.report import estimate, percent

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BOOK = Book(HERE, ROOT / "experiments")
STEM = "ascenseur-atouts"            # the contrast: tables of copies of one bot
GOOD = "ascenseur-good"              # one search seat beside estimator@tuned
MIXED = "ascenseur-mixed"            # one estimator@tuned beside default estimators
POPULATIONS = {GOOD: "search + tuned estimators", MIXED: "tuned + default estimators"}
LINEUPS = {GOOD: "ismcts+estimator@tuned", MIXED: "estimator@tuned+estimator"}
BASE = "rules"                       # each experiment's first variant: the spec's defaults
ROUND_OF_DEALERS = "round-of-dealers"
LAST_HAND = "last-hand-ties"
CONTRAST = 8                         # the contrast sections follow the seven among good players
KEYS = ["players", "lineup"]
HEADLINES = ["mean rounds", "bet accuracy", "first-player edge", "shared-win rate"]
QUESTIONS = {
    1: "Is the dealer, who bids last and may not make the bids add up to the hand size (the "
       "hook), helped or hurt?",
    2: "How accurate are bids, by hand size, by bidding position and by seat?",
    3: "How many error points does a hand cost, by hand size?",
    4: "How many hands does a game last (until a score pile reaches the As)?",
    5: "What is the Excuse worth to the player who holds it?",
    6: "How does the blind 1-card hand change outcomes, and what do its two variants (no hook "
       "in the blind hand, C2; the blind Excuse's owner chooses high or low) change?"}


def cells_of(runs: Path, variant: str | None = BASE) -> pd.DataFrame:
    """The experiment's cells (of one variant, or all with ``variant=None``)."""
    cells = BOOK.load(runs, STEM)["cells"]
    cells = cells.assign(table=cells["players"].astype(str) + "p " + cells["lineup"])
    return cells if variant is None else cells[cells["variant"] == variant]


def wide(cells: pd.DataFrame, prefix: str, key: str, label: str, scale: str) -> pd.DataFrame:
    """A flat breakdown ``<prefix>_<v>`` as a table: a row per (players, bots), a column per
    v."""
    frame = long_form(cells, prefix, key, KEYS)
    rows = []
    for (players, lineup), part in frame.groupby(KEYS, sort=False):
        row = {"players": players, "bots": lineup}
        for _, r in part.iterrows():
            row[f"{label} {r[key]}"] = interval(r, "value", scale)
        rows.append(row)
    return pd.DataFrame(rows)


def dealer(runs: Path) -> str:
    cells = cells_of(runs, None)
    cells = cells[cells["variant"].isin([BASE, "blind-unhooked"])]
    table = pd.DataFrame({
        "hook": cells["variant"].map({BASE: "every hand", "blind-unhooked": "not blind"}),
        "players": cells["players"], "bots": cells["lineup"],
        "dealer's errors per hand": intervals(cells, "dealer_error", "plain"),
        "others' errors per hand": intervals(cells, "other_error", "plain"),
        "dealer minus others (same hand size)": intervals(cells, "dealer_error_diff", "plain"),
        "dealer's bid accuracy": intervals(cells, "dealer_accuracy"),
        "others' bid accuracy": intervals(cells, "other_accuracy"),
        "first dealer's edge over 1/K": intervals(cells, "first_player_edge", "pp")})
    base = cells[cells["variant"] == BASE]
    said = []
    for _, r in base.iterrows():
        word = {"above": "more", "below": "fewer",
                "no different from": "no more and no fewer"}[verdict(r, "dealer_error_diff")]
        said.append(f"{r['players']} {r['lineup']} players: {word} "
                    f"({interval(r, 'dealer_error_diff', 'plain')})")
    hurt = (base["dealer_error_diff_low"] > 0).sum()
    below = (base["first_player_edge_high"] < 0).sum()
    above = (base["first_player_edge_low"] > 0).sum()
    answer = (f"Under the hook the dealer takes, per hand, compared with the other players at "
              f"the same hand size: {'; '.join(said)} error points. The dealer is "
              f"significantly worse off at {hurt} of {len(base)} tables. Over a game the "
              f"seats deal in turn, but the first dealer deals first and most often: its win "
              f"share is significantly below the fair 1/K at {below} of {len(base)} tables "
              f"and above it at {above}.")
    fig = grouped_intervals(
        cells.assign(setting=cells["lineup"] + ", hook " + table["hook"]), "players",
        "setting", "dealer_error_diff", name="c1-dealer", reference=0.0,
        title="The dealer's extra error points per hand",
        caption="Error points the dealer takes in a hand minus the other players', at equal "
                "hand size (least squares, game-clustered 95% intervals); with the hook in "
                "every hand and without it in the blind hand.",
        xlabel="players at the table (count)", ylabel="error points per hand")
    return BOOK.section(CONTRAST, "Contrast: the dealer under the hook", STEM,
                        answer, table, BOOK.figure(fig, STEM), QUESTIONS[1])


def bids(runs: Path) -> str:
    cells = cells_of(runs)
    by_cards = wide(cells, "bet_accuracy_cards", "cards", "cards", "percent")
    by_position = wide(cells, "bet_accuracy_position", "position", "position", "percent")
    by_seat = wide(cells, "bet_accuracy_seat", "seat", "seat", "percent")
    frame = long_form(cells, "bet_accuracy_cards", "cards", ["table", *KEYS])
    random, smart = (frame[frame["lineup"] == name] for name in ("random", "estimator"))
    overall = {name: cells.loc[cells["lineup"] == name, "bet_accuracy"]
               for name in ("random", "estimator")}
    answer = (f"Overall, random players bid right in {share_range(overall['random'])} of "
              f"hands and estimator bots in {share_range(overall['estimator'])}. By hand "
              f"size, random bids are right in {share_range(random['value'])} of hands and "
              f"the estimator's in {share_range(smart['value'])}. The tables below split "
              f"accuracy by bidding position (0 bids first, the last is the dealer) and by "
              f"seat (seats take turns dealing).")
    fig = grouped_intervals(
        frame, "cards", "table", "value", name="c2-bid-accuracy", percent=True,
        title="Bid accuracy by hand size",
        caption="Share of bids equal to the tricks won, by cards in the hand (1 = the blind "
                "hand), with game-clustered 95% intervals.",
        xlabel="cards in the hand", ylabel="correct bids (share)")
    extra = (f"By bidding position:\n\n{markdown(by_position)}\n\nBy seat:\n\n"
             f"{markdown(by_seat)}\n\n{BOOK.figure(fig, STEM)}")
    return BOOK.section(CONTRAST + 1, "Contrast: bid accuracy by hand size, position and seat",
                        STEM, answer, by_cards, extra, QUESTIONS[2])


def errors(runs: Path) -> str:
    cells = cells_of(runs)
    table = wide(cells, "error_cards", "cards", "cards", "plain").assign(**{
        "per player-hand": intervals(cells, "error_per_seat", "plain"),
        "per hand, whole table": intervals(cells, "error_per_hand", "plain")})
    frame = long_form(cells, "error_cards", "cards", ["table", *KEYS])
    top = frame.loc[frame["value"].idxmax()]
    answer = (f"A player takes {plain_range(cells, 'error_per_seat')} error points per hand, "
              f"the whole table {plain_range(cells, 'error_per_hand')}. The costliest hands "
              f"are those of {top['cards']} cards ({top['value']:.2f} per player with "
              f"{top['players']} {top['lineup']} players).")
    fig = grouped_intervals(
        frame, "cards", "table", "value", name="c3-errors", title="Error points per hand",
        caption="Error points (|bid - tricks|) a player takes in a hand, by cards in the "
                "hand, with game-clustered 95% intervals.",
        xlabel="cards in the hand", ylabel="error points per player")
    return BOOK.section(CONTRAST + 2, "Contrast: errors per hand", STEM,
                        answer, table, BOOK.figure(fig, STEM), QUESTIONS[3])


def diff_text(row: pd.Series) -> str:
    """A comparison row's difference with its interval (shares in pp), starred when
    significant after Holm's correction."""
    scale = 100 if row["kind"] == "proportion" else 1
    unit = " pp" if scale == 100 else ""
    star = " *" if row["significant"] else ""
    return (f"{scale * row['diff']:+.2f}{unit} [{scale * row['low']:+.2f}, "
            f"{scale * row['high']:+.2f}]{star}")


def plain_range(cells: pd.DataFrame, name: str) -> str:
    """The smallest and largest of a figure over cells, 'a to b' with two decimals (one
    number when they print alike)."""
    low, high = f"{cells[name].min():.2f}", f"{cells[name].max():.2f}"
    return low if low == high else f"{low} to {high}"


def length(runs: Path) -> str:
    cells = cells_of(runs, None)
    table = pd.DataFrame({
        "variant": cells["variant"], "players": cells["players"], "bots": cells["lineup"],
        "hands per game": intervals(cells, "rounds_per_game", "plain"),
        "5th-95th percentile": [f"{r['rounds_p5']:.0f}-{r['rounds_p95']:.0f}"
                                for _, r in cells.iterrows()],
        "games ending on the blind hand": intervals(cells, "games_end_blind"),
        "shared wins": intervals(cells, "shared_win")})
    base = cells[cells["variant"] == BASE]
    by = base.set_index(["lineup", "players"])["rounds_per_game"]
    trends = "; ".join(
        f"{lineup} players: " + ", ".join(f"{by[lineup, k]:.1f} at {k}" for k in
                                         sorted(base["players"].unique()))
        for lineup in dict.fromkeys(base["lineup"]))
    longer = (by["estimator"] > by["random"]).all()
    answer = (f"Under the rules a game lasts, on average until a score pile reaches the As: "
              f"{trends} hands. "
              + ("Better bidders (estimator) make every game longer, because they take fewer "
                 "error points per hand." if longer else
                 "Better bidding does not lengthen the game at every player count."))
    fig = grouped_intervals(
        base, "players", "lineup", "rounds_per_game", name="c4-game-length",
        title="Game length in hands",
        caption="Mean hands per game under the spec's rules, with 95% intervals.",
        xlabel="players at the table (count)", ylabel="hands per game")
    return BOOK.section(CONTRAST + 3, "Contrast: game length in hands", STEM,
                        answer, table, BOOK.figure(fig, STEM), QUESTIONS[4])


def excuse(runs: Path) -> str:
    cells = cells_of(runs, None)
    cells = cells[cells["variant"].isin([BASE, "excuse-chosen"])]
    table = pd.DataFrame({
        "blind Excuse": cells["variant"].map({BASE: "highest",
                                              "excuse-chosen": "owner chooses"}),
        "players": cells["players"], "bots": cells["lineup"],
        "extra tricks with the Excuse": intervals(cells, "excuse_tricks", "plain"),
        "extra error points with the Excuse": intervals(cells, "excuse_error", "plain")})
    base = cells[cells["variant"] == BASE]
    more = (base["excuse_tricks_low"] > 0).sum()
    fewer = (base["excuse_error_high"] < 0).sum()
    raised = (base["excuse_error_low"] > 0).sum()
    said = "; ".join(f"{r['players']} {r['lineup']} players: "
                     f"{interval(r, 'excuse_tricks', 'plain')} tricks, "
                     f"{interval(r, 'excuse_error', 'plain')} error points"
                     for _, r in base.iterrows())
    answer = (f"Holding the Excuse in a hand, compared with not holding it at the same hand "
              f"size: {said}. In plain words: the Excuse wins its holder significantly more "
              f"tricks at {more} of {len(base)} tables; it significantly lowers its holder's "
              f"error points at {fewer} and raises them at {raised} (a lower figure means "
              f"the Excuse helps its holder make the bid).")
    fig = grouped_intervals(
        cells.assign(setting=cells["lineup"] + ", " + table["blind Excuse"]), "players",
        "setting", "excuse_error", name="c5-excuse", reference=0.0,
        title="What the Excuse does to its holder's errors",
        caption="Error points in a hand when holding the Excuse minus without it, at equal "
                "hand size (least squares, game-clustered 95% intervals).",
        xlabel="players at the table (count)", ylabel="error points per hand")
    return BOOK.section(CONTRAST + 4, "Contrast: value of the Excuse", STEM,
                        answer, table, BOOK.figure(fig, STEM), QUESTIONS[5])


def blind(runs: Path) -> str:
    data = BOOK.load(runs, STEM)
    cells = cells_of(runs, None)
    table = pd.DataFrame({
        "variant": cells["variant"], "players": cells["players"], "bots": cells["lineup"],
        "blind bids right": intervals(cells, "blind_accuracy"),
        "blind error points per player": intervals(cells, "blind_error", "plain"),
        "share of all error points": intervals(cells, "blind_error_share"),
        "winner changes without blind hands": intervals(cells, "blind_winner_differs")})
    comparisons = data["comparisons"]
    shown = comparisons[comparisons["figure"].isin(HEADLINES)]
    changes = pd.DataFrame([
        {"variant": variant, "table": group, **{
            figure_name: diff_text(rows.set_index("figure").loc[figure_name])
            for figure_name in HEADLINES if figure_name in set(rows["figure"])}}
        for (variant, group), rows in shown.groupby(["variant", "group"], sort=False)])
    base = cells[cells["variant"] == BASE]
    differ = comparisons[comparisons["significant"]
                         & comparisons["figure"].isin(HEADLINES)]
    answer = (f"Counting the blind hand's error points or not changes the winner in "
              f"{share_range(base['blind_winner_differs'])} of games, and the blind hand "
              f"brings "
              f"{share_range(base['blind_error_share'])} of all error points. Against the "
              f"rules, the two blind-hand variants (no hook in the blind hand; the blind "
              f"Excuse's owner chooses) change {len(differ)} of the {len(shown)} headline "
              f"figures below significantly.")
    fig = grouped_intervals(
        base, "players", "lineup", "blind_winner_differs", name="c6-blind-hand", percent=True,
        title="How often the blind hand changes the winner",
        caption="Share of games whose players with the fewest error points change when the "
                "blind hands' errors are not counted, with 95% intervals.",
        xlabel="players at the table (count)", ylabel="games (share)")
    extra = (f"The blind-hand variants against the rules, same games (paired; * significant "
             f"after Holm's correction; full comparison reports in "
             f"`runs/experiments/{STEM}/comparisons/`):\n\n{markdown(changes)}"
             f"\n\n{BOOK.figure(fig, STEM)}")
    return BOOK.section(CONTRAST + 5, "Contrast: how the blind hand changes outcomes", STEM,
                        answer, table, extra, QUESTIONS[6])


# ======================================================================================
# Among good players (experiments ascenseur-good and ascenseur-mixed)
# ======================================================================================
def game_mean(values: pd.Series) -> dict[str, float]:
    """The mean of one value per game with its 95% normal interval (``value``, ``low``,
    ``high``); NaN bounds with fewer than two games."""
    n = len(values)
    mean = float(values.mean()) if n else float("nan")
    half = 1.96 * float(values.std(ddof=1)) / np.sqrt(n) if n > 1 else float("nan")
    return {"value": mean, "low": mean - half, "high": mean + half}


def last_dealer_gap(players: pd.DataFrame, first_dealer: int = 0) -> pd.Series:
    """Per game (indexed by ``game_id``), the win share of the last seat in dealing order
    (the one before ``first_dealer``) minus the first dealer's: positive when the seat that
    deals last wins more."""
    seats = int(players["seat"].max()) + 1
    last = (first_dealer - 1) % seats
    share = players.pivot(index="game_id", columns="seat", values="win_share")
    return (share[last] - share[first_dealer]).rename("gap")


def cell_players(runs: Path, stem: str, variant: str, players: int) -> pd.DataFrame:
    """The players table of one cell of a good-players experiment (raises NotRun while it
    has not been played)."""
    folder = runs / stem / "cells" / f"{variant}-{players}p-{LINEUPS[stem]}"
    if not (folder / "manifest.json").is_file():
        raise NotRun(stem)
    return results.load(folder, "players", columns=["game_id", "seat", "win_share"])


def needs_good(runs: Path, title: str, question: str) -> None:
    """Raise NotRun, naming the section, while either good-players experiment has not run."""
    for stem in POPULATIONS:
        if not (runs / stem / "cells.csv").is_file():
            raise NotRun(stem, title, question, BOOK.command(stem))


def good_cells(runs: Path, variants: tuple[str, ...] | None = None) -> pd.DataFrame:
    """The cells of both good-players experiments (of ``variants``, or all), with their
    population named."""
    frames = []
    for stem, population in POPULATIONS.items():
        cells = BOOK.load(runs, stem)["cells"].assign(population=population, stem=stem)
        frames.append(cells if variants is None else cells[cells["variant"].isin(variants)])
    return pd.concat(frames, ignore_index=True)


def pp(figure: dict[str, float]) -> str:
    """A share difference with its interval, in percentage points."""
    return (f"{100 * figure['value']:+.1f} pp [{100 * figure['low']:+.1f}, "
            f"{100 * figure['high']:+.1f}]")


SHORT = "round-of-dealers-9"          # C6 with a target of 9 error points (C5), mixed only
ENDINGS = {BASE: "after the hand (text)", ROUND_OF_DEALERS: "round of dealers (C6)",
           SHORT: "round of dealers, 9 errors"}
GOOD_COMMANDS = (f"`python -m sim.experiment experiments/{GOOD}.toml` and "
                 f"`python -m sim.experiment experiments/{MIXED}.toml` (setups: "
                 f"[`{GOOD}.toml`](../../experiments/{GOOD}.toml), "
                 f"[`{MIXED}.toml`](../../experiments/{MIXED}.toml)); win shares by seat and "
                 f"the last-minus-first gaps from each cell's `players` table.")
SEATS_QUESTION = (
    "Among good players, do the seats win equally often? The first dealer deals the first "
    "tour and the game usually ends in the middle of a tour, so the last seat in dealing "
    "order deals least. Does ending the game at the close of a full round of dealers (C6) "
    "even the seats out, also with a shorter target of 9 error points (C5)?")
SEATS_TITLE = "Seats and the order of dealing among good players"


def seats(runs: Path) -> str:
    needs_good(runs, SEATS_TITLE, SEATS_QUESTION)
    rows, gaps, said = [], [], []
    for stem, population in POPULATIONS.items():
        cells = BOOK.load(runs, stem)["cells"].set_index(["variant", "players"])
        played = set(cells.index.get_level_values("variant"))
        for k in sorted(cells.index.get_level_values("players").unique()):
            by_ending = {}
            for variant, ending in ENDINGS.items():
                if variant not in played:
                    continue
                players = cell_players(runs, stem, variant, k)
                shares = win_share(players, "seat")
                gap = last_dealer_gap(players)
                by_ending[variant] = gap
                figure = game_mean(gap)
                gaps.append({"players": k, "setting": f"{population}, {ending}",
                             "gap": figure["value"], "gap_low": figure["low"],
                             "gap_high": figure["high"]})
                rows.append({
                    "population": population, "players": k, "game ends": ending,
                    "games": len(gap),
                    **{f"seat {int(r['seat'])}": estimate(r["share"], r["low"], r["high"])
                       for _, r in shares.iterrows()},
                    "last dealer minus first (pp)": pp(figure),
                    "all seats equal (chi-square p)":
                        f"{cells.loc[(variant, k), 'seat_equality_p']:.3f}"})
            change = game_mean(by_ending[ROUND_OF_DEALERS] - by_ending[BASE])
            before, after = game_mean(by_ending[BASE]), game_mean(by_ending[ROUND_OF_DEALERS])
            short = (f", {pp(game_mean(by_ending[SHORT]))} under C6 with a target of 9 "
                     f"errors" if SHORT in by_ending else "")
            said.append(f"{population} at {k} players: {pp(before)} under the text's ending, "
                        f"{pp(after)} under C6 (change on the same deals {pp(change)}){short}")
    dealers = good_cells(runs, (BASE,))
    hand = "; ".join(f"{r['population']} at {r['players']} players: "
                     f"{interval(r, 'dealer_error_diff', 'plain')}"
                     for _, r in dealers.iterrows())
    said.append(f"Within a hand, the dealer (who bids last, under the hook) takes this many "
                f"error points more than the other players at the same hand size (negative: "
                f"fewer): {hand}")
    table = pd.DataFrame(rows).fillna("")
    seat_columns = sorted((c for c in table.columns if c.startswith("seat ")),
                          key=lambda c: int(c.split()[1]))
    rest = [c for c in table.columns if not c.startswith("seat ")]
    table = table[rest[:4] + seat_columns + rest[4:]]
    answer = (
        "Seat 0 deals the first tour; seat 1 bids and leads first; the last seat in dealing "
        "order is seat K-1. How much more often the last dealer wins than the first dealer, "
        "in percentage points of games (positive: the last dealer wins more): "
        + "; ".join(said[:-1]) + ". " + said[-1] + ". Each figure holds for the population "
        "named (seats rotating, "
        "so every bot sits in every seat equally often); the change pairs each game with "
        "the same deals under the other ending.")
    fig = gap_figure(
        gaps, "q1-seats-good", "Last dealer's win share minus the first dealer's",
        "among good players, with 95% intervals; under the text's ending, at the close of a "
        "round of dealers (C6) and, between estimators, C6 with a target of 9 error points "
        "(C5).")
    return BOOK.section(1, SEATS_TITLE, GOOD, answer,
                        table, fig_note(fig),
                        SEATS_QUESTION, GOOD_COMMANDS)


def gap_figure(gaps: list[dict], name: str, title: str, caption: str) -> Figure:
    """The last dealer's win share minus the first dealer's (``gap`` with its interval) by
    player count, one series per ``setting``; ``caption`` goes on from "Win share of the last
    seat in dealing order minus that of the first dealer, per game,"."""
    return grouped_intervals(
        pd.DataFrame(gaps), "players", "setting", "gap", name=name, reference=0.0,
        percent=True, title=title,
        caption=f"Win share of the last seat in dealing order minus that of the first "
                f"dealer, per game, {caption}",
        xlabel="players at the table (count)",
        ylabel="last minus first dealer (share of games won)")


def good_table(cells: pd.DataFrame, columns: dict[str, tuple[str, str]]) -> pd.DataFrame:
    """A table of good-players cells: population, players, variant, then ``columns``
    (label -> (figure, scale))."""
    return pd.DataFrame({
        "population": cells["population"], "players": cells["players"],
        "variant": cells["variant"],
        **{label: intervals(cells, name, scale) for label, (name, scale) in columns.items()}})


def fig_note(fig: Figure) -> str:
    """Save a figure beside the report; its Markdown with the caption (the section above it
    gives the commands)."""
    fig.save(HERE)
    return f"![{fig.title}]({fig.name}.png)\n\n*{fig.caption}*"


TIES_QUESTION = ("How often do several players share the win, and what does the last-hand "
                 "tiebreak (C3: fewer errors in the final hand first) change?")
TIES_TITLE = "Shared wins and the last-hand tiebreak"


def ties(runs: Path) -> str:
    needs_good(runs, TIES_TITLE, TIES_QUESTION)
    cells = good_cells(runs, (BASE, LAST_HAND))
    table = good_table(cells, {"shared wins": ("shared_win", "percent"),
                               "first dealer's edge over 1/K": ("first_player_edge", "pp")})
    base = cells[cells["variant"] == BASE]
    tie = cells[cells["variant"] == LAST_HAND].set_index(["population", "players"])
    said = "; ".join(
        f"{r['population']} at {r['players']} players: {interval(r, 'shared_win')} of games "
        f"shared, {interval(tie.loc[(r['population'], r['players'])], 'shared_win')} with "
        f"the tiebreak" for _, r in base.iterrows())
    answer = (f"Share of games whose win is shared, under the text (ties shared) and under "
              f"the last-hand tiebreak: {said}. The tiebreak leaves a win shared only when "
              f"the tied players also missed their final bids by as much.")
    fig = grouped_intervals(
        cells.assign(setting=cells["population"] + ", " + cells["variant"].map(
            {BASE: "ties shared", LAST_HAND: "last-hand tiebreak"})),
        "players", "setting", "shared_win", name="q2-shared-wins", percent=True,
        title="Games with a shared win", caption="Share of games won jointly by several "
        "players, among good players, with 95% intervals.",
        xlabel="players at the table (count)", ylabel="games with a shared win (share)")
    return BOOK.section(2, TIES_TITLE, GOOD, answer, table,
                        fig_note(fig), TIES_QUESTION, GOOD_COMMANDS)


EXCUSE_QUESTION = ("What is the Excuse worth to the player who holds it, among good players, "
                   "and why did the figure change sign between bots in the earlier report?")
EXCUSE_GOOD_TITLE = "The Excuse among good players, and the bot artefact"


def excuse_good(runs: Path) -> str:
    needs_good(runs, EXCUSE_GOOD_TITLE, EXCUSE_QUESTION)
    cells = good_cells(runs, (BASE,))
    mirror = cells_of(runs).assign(population=lambda f: "contrast: copies of " + f["lineup"])
    both = pd.concat([cells, mirror], ignore_index=True)
    table = pd.DataFrame({
        "population": both["population"], "players": both["players"],
        "extra tricks with the Excuse": intervals(both, "excuse_tricks", "plain"),
        "extra error points with the Excuse": intervals(both, "excuse_error", "plain")})
    said = "; ".join(f"{r['population']} at {r['players']} players: "
                     f"{interval(r, 'excuse_error', 'plain')}" for _, r in cells.iterrows())
    lower = int((cells["excuse_error_high"] < 0).sum())
    flips = mirror.groupby("players").apply(
        lambda part: bool((part["excuse_error"] > 0).any()
                          and (part["excuse_error"] < 0).any()), include_groups=False)
    signs = cells.assign(sign=np.sign(cells["excuse_error"]).where(
        (cells["excuse_error_low"] > 0) | (cells["excuse_error_high"] < 0), 0))
    agree = signs.groupby("players")["sign"].agg(lambda s: s[s != 0].nunique() <= 1)
    answer = (
        f"Error points in a hand when holding the Excuse minus without it, at equal hand "
        f"size (negative: the Excuse helps its holder make the bid): {said}. The Excuse "
        f"lowers its holder's errors significantly in {lower} of {len(cells)} good-player "
        f"tables; the two good-player populations agree in sign (no significant effects "
        f"of opposite signs) at {int(agree.sum())} of {len(agree)} player counts. "
        f"It always wins its holder more tricks; whether that lowers the holder's errors "
        f"depends on the bid, so the figure measures how a player bids and plays with the "
        f"card, not the card alone. In tables of copies of one bot (the contrast rows) the "
        f"sign differs between random players and estimator bots at "
        f"{int(flips.sum())} of {len(flips)} player counts: random players bid without "
        f"counting the Excuse, estimators count it as part of a trick; that difference of "
        f"the bots, not the rules, made the earlier report's sign flip.")
    fig = grouped_intervals(
        both, "players", "population", "excuse_error", name="q3-excuse-good", reference=0.0,
        title="The Excuse's effect on its holder's errors",
        caption="Error points per hand when holding the Excuse minus without it, at equal "
                "hand size (least squares, game-clustered 95% intervals), among good players "
                "and, as a contrast, in tables of copies of one bot.",
        xlabel="players at the table (count)", ylabel="extra error points per hand")
    return BOOK.section(3, EXCUSE_GOOD_TITLE, GOOD,
                        answer, table, fig_note(fig), EXCUSE_QUESTION, GOOD_COMMANDS)


TWO_QUESTION = ("Does the 2-player game work? With the hook in the blind 1-card hand the two "
                "announcements may not add up to one taker, so exactly one of the two players "
                "misses it.")
TWO_PLAYERS_TITLE = "The 2-player game"


def two_players(runs: Path) -> str:
    needs_good(runs, TWO_PLAYERS_TITLE, TWO_QUESTION)
    cells = good_cells(runs)
    two = cells[(cells["players"] == 2) & cells["variant"].isin([BASE, "blind-unhooked"])]
    table = good_table(two, {
        "blind hand's share of all errors": ("blind_error_share", "percent"),
        "blind error points per player": ("blind_error", "plain"),
        "winner changes without blind hands": ("blind_winner_differs", "percent"),
        "games ending on the blind hand": ("games_end_blind", "percent"),
        "shared wins": ("shared_win", "percent"),
        "better player's win share": ("lead_win_share", "percent")})
    base = two[two["variant"] == BASE].set_index("population")
    lead = "; ".join(f"{p}: {interval(r, 'lead_win_share')}" for p, r in base.iterrows())
    unhooked = two[two["variant"] == "blind-unhooked"]
    free = ("" if unhooked.empty else
            f" Without the hook in the blind hand (C2) it brings "
            f"{share_range(unhooked['blind_error_share'])} of the errors "
            f"({unhooked['population'].iloc[0]}).")
    answer = (
        f"At 2 players the blind hand costs {plain_range(base, 'blind_error')} error points "
        f"per player: one point for the table every time, as the rule forces. It brings "
        f"{share_range(base['blind_error_share'])} of all error points, and leaving its "
        f"errors out would change the winner in "
        f"{share_range(base['blind_winner_differs'])} of games.{free} Skill still shows: the "
        f"better player of each table (the search, or the tuned estimator) wins {lead} of "
        f"its games against a fair 50%.")
    return BOOK.section(4, TWO_PLAYERS_TITLE, GOOD, answer, table, "", TWO_QUESTION,
                        GOOD_COMMANDS)


LENGTH_QUESTION = ("How many hands does a game last among good players, how much longer does "
                   "ending at the close of a round of dealers (C6) make it, and does a shorter "
                   "target of 9 error points (C5) bring it back?")
LENGTH_GOOD_TITLE = "Game length among good players"


def length_good(runs: Path) -> str:
    needs_good(runs, LENGTH_GOOD_TITLE, LENGTH_QUESTION)
    cells = good_cells(runs, tuple(ENDINGS))
    table = good_table(cells, {"hands per game": ("rounds_per_game", "plain"),
                               "games ending on the blind hand": ("games_end_blind",
                                                                  "percent")}).assign(**{
        "5th-95th percentile": [f"{r['rounds_p5']:.0f}-{r['rounds_p95']:.0f}"
                                for _, r in cells.iterrows()],
        "decisions per player": [f"{m:.0f}" for m in cells["mean_decisions_per_player"]]})
    by = cells.set_index(["population", "players", "variant"])["rounds_per_game"]
    said = "; ".join(
        f"{p} at {k} players: {by[p, k, BASE]:.1f} hands, "
        f"{by[p, k, ROUND_OF_DEALERS]:.1f} under C6"
        + (f", {by[p, k, SHORT]:.1f} under C6 with a target of 9 errors"
           if (p, k, SHORT) in by.index else "")
        for p, k in dict.fromkeys(zip(cells["population"], cells["players"], strict=True)))
    answer = (f"Mean hands per game: {said}. Ending at the close of a round of dealers adds "
              f"the rest of the round after the As, never more than one round (players x 5 "
              f"hands).")
    fig = grouped_intervals(
        cells.assign(setting=cells["population"] + ", " + cells["variant"].map(ENDINGS)),
        "players", "setting", "rounds_per_game", name="q5-length-good",
        title="Game length in hands among good players",
        caption="Mean hands per game with 95% intervals, under the text's ending, at the "
                "close of a round of dealers (C6) and, between estimators, C6 with a target "
                "of 9 error points (C5).",
        xlabel="players at the table (count)", ylabel="hands per game")
    return BOOK.section(5, LENGTH_GOOD_TITLE, GOOD, answer, table,
                        fig_note(fig), LENGTH_QUESTION, GOOD_COMMANDS)


STRENGTH_QUESTION = ("How strong are the good players: does the search win more than its "
                     "share beside tuned estimators, and the tuned estimator beside default "
                     "ones?")
STRENGTH_TITLE = "How strong the good players are"


def strength(runs: Path) -> str:
    needs_good(runs, STRENGTH_TITLE, STRENGTH_QUESTION)
    cells = good_cells(runs, (BASE,))
    table = pd.DataFrame({"population": cells["population"], "players": cells["players"],
                          "better player": cells["lineup"].str.split("+").str[0],
                          "its win share": intervals(cells, "lead_win_share"),
                          "fair share": [percent(1 / k) for k in cells["players"]]})
    above = int((cells["lead_win_share_low"] > 1 / cells["players"]).sum())
    answer = (f"The better player of each population wins significantly more than its fair "
              f"share at {above} of {len(cells)} tables (its share and the fair 1/K below). "
              f"The search's default profile was chosen on this evidence "
              f"([docs/agents.md](../../docs/agents.md), "
              f"[agents/profiles/ascenseur-atouts.toml]"
              f"(../../agents/profiles/ascenseur-atouts.toml)).")
    return BOOK.section(6, STRENGTH_TITLE, GOOD, answer, table, "",
                        STRENGTH_QUESTION, GOOD_COMMANDS)


# --------------------------------------------------------------------------------------
# The meta-game: which mix of the good players is stable, and the seats among it
# --------------------------------------------------------------------------------------
POOL = ("ismcts", "estimator@tuned", "estimator")
METAGAME_GAMES = 400                 # games per table of the pool (about 40 CPU minutes in all)
# The meta-games played: every count under the text's ending, and C6 where the seats differ.
METAGAMES = ((2, BASE), (3, BASE), (4, BASE), (3, ROUND_OF_DEALERS), (4, ROUND_OF_DEALERS))
ANALYSIS = "--bootstrap 100"         # the analysis settings, given again to a resume
MIXES = {"equilibrium": "stable mix", "uniform": "uniform mix"}


def metagame_folder(players: int, ending: str = BASE) -> str:
    return f"ascenseur-metagame-{players}p" + ("" if ending == BASE else f"-{ending}")


def metagame_arguments(players: int, ending: str = BASE) -> str:
    """The ``sim.metagame`` arguments of one meta-game, without ``--out`` and the analysis
    settings."""
    rule = "" if ending == BASE else f" --variant ending={ending}"
    return (f"ascenseur-atouts --players {players} --agents {','.join(POOL)} "
            f"--games {METAGAME_GAMES}{rule}")


def metagame_command(players: int, ending: str = BASE) -> str:
    return (f"`python -m sim.metagame {metagame_arguments(players, ending)} {ANALYSIS} "
            f"--out runs/experiments/{metagame_folder(players, ending)}`")


def metagame_lines(runs: Path) -> list[str]:
    """``OUT|ARGUMENTS|ANALYSIS`` of every meta-game, for ``make ascenseur-report``."""
    return [f"{runs / metagame_folder(k, e)}|{metagame_arguments(k, e)}|{ANALYSIS}"
            for k, e in METAGAMES]


def lineup_figures(folder: Path) -> dict[str, float]:
    """One table of the pool: the last dealer's win share minus the first dealer's
    (``gap``) and the hands a game (``hands``), per-game means with 95% intervals."""
    players = results.load(folder, "players", columns=["game_id", "seat", "win_share"])
    hands = results.load(folder, "games", columns=["rounds"])["rounds"]
    out: dict[str, float] = {}
    for name, values in (("gap", last_dealer_gap(players)), ("hands", hands)):
        figure = game_mean(values.astype(float))
        out |= {name: figure["value"], f"{name}_low": figure["low"],
                f"{name}_high": figure["high"]}
    return out


def mix_figures(folder: Path, game: Mapping) -> dict[str, dict[str, float]]:
    """``gap`` and ``hands`` at tables drawn from the stable mix and from a uniform mix of
    the pool: each table's figures weighted by its chance."""
    tables = sorted({row["lineup"] for row in game["payoff_table"]})
    chances = population_chances(game["equilibrium"], tables, LEAST_CHANCE)
    per_table = {t: lineup_figures(folder / t) for t in set().union(*chances.values())}
    return {name: population_figures(per_table, chance, ("gap", "hands"))
            for name, chance in chances.items()}


METAGAME_QUESTION = (
    "Which mix of the three good players (the search, the tuned and the default estimator) is "
    "stable, so that no player gains by switching to another way of playing? Is one of them "
    "dominant? At tables drawn from that stable mix, does the last dealer still win more "
    "than the first, under the text's ending and under C6, and how long is a game? How much "
    "of a result is luck?")
METAGAME_TITLE = "The stable mix of good players, and the seats among it"


def stable_mix(runs: Path) -> str:
    games = {}
    for k, ending in METAGAMES:
        path = runs / metagame_folder(k, ending) / "metagame.json"
        if not path.is_file():
            raise NotRun(metagame_folder(k, ending), METAGAME_TITLE, METAGAME_QUESTION,
                         metagame_command(k, ending))
        games[k, ending] = json.loads(path.read_text(encoding="utf-8"))
    figures = {key: mix_figures(runs / metagame_folder(*key), g) for key, g in games.items()}
    rows, gaps, said = [], [], []
    for (k, ending), g in games.items():
        top = g["luck"]["top_two"]
        dominated = ", ".join(sorted({d["dominates"] for d in g["dominance"]})) or "none"
        stable = figures[k, ending]["equilibrium"]
        rows.append({
            "players": k, "game ends": ENDINGS[ending],
            "stable mix (equilibrium)": stable_text(g["equilibrium"]), "dominated": dominated,
            **{f"last dealer minus first, {MIXES[m]}": interval(figures[k, ending][m], "gap",
                                                                "pp") for m in MIXES},
            "hands a game, stable mix": interval(stable, "hands", "plain"),
            "weaker of the two best finishes ahead": f"{top['weaker']}: "
                                                     f"{interval(top, 'upsets')}"})
        gaps += [{"players": k, "setting": f"{MIXES[m]}, {ENDINGS[ending]}",
                  **figures[k, ending][m]} for m in MIXES]
        if ending != BASE:
            continue
        c6 = "".join(f"; under C6 (its stable mix: {stable_text(games[k, e]['equilibrium'])})"
                     f" the last dealer wins "
                     f"{interval(figures[k, e]['equilibrium'], 'gap', 'pp')} more, a game "
                     f"lasting {interval(figures[k, e]['equilibrium'], 'hands', 'plain')} hands"
                     for j, e in games if j == k and e != BASE)
        said.append(
            f"At {k} players the stable mix is {stable_text(g['equilibrium'])} (dominated: "
            f"{dominated}); at its tables the last dealer wins "
            f"{interval(stable, 'gap', 'pp')} more than the first under the text's ending, "
            f"a game lasting {interval(stable, 'hands', 'plain')} hands{c6}. Between the "
            f"two best ({', '.join(top['agents'])}), {interval(top, 'luck')} of the variance "
            f"of a seat's result is luck, and {top['weaker']} finishes ahead of the other "
            f"{interval(top, 'upsets')} of the time.")
    answer = (" ".join(said) + " Seats rotate at every table of the pool; a table drawn from "
              "a mix has each seat filled independently from it (docs/metagame.md).")
    fig = gap_figure(
        gaps, "q7-seats-stable-mix",
        "Last dealer minus first dealer at tables drawn from a mix of good players",
        "with 95% intervals, at tables drawn from the stable mix (equilibrium) and from a "
        "uniform mix of ismcts, estimator@tuned and estimator, under the text's ending and "
        "under C6.")
    commands = " and ".join(metagame_command(k, e) for k, e in METAGAMES)
    return BOOK.section(7, METAGAME_TITLE, GOOD, answer, pd.DataFrame(rows), fig_note(fig),
                        METAGAME_QUESTION, f"{commands}, {METAGAME_GAMES} games per table of "
                        f"the pool (docs/metagame.md).")


SECTIONS = [seats, ties, excuse_good, two_players, length_good, strength, stable_mix,
            dealer, bids, errors, length, excuse, blind]


def build(runs: Path) -> Path:
    """Write README.md (the summaries and recommendations of summary.md, then every
    question) and its figures."""
    head = (HERE / "summary.md").read_text(encoding="utf-8")
    return BOOK.build(runs, SECTIONS, "ascenseur-report", head)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--metagames"]:
        print("\n".join(metagame_lines(Path("runs/experiments"))))
        return 0
    return BOOK.main(argv, __doc__.split("\n\n")[0], build)


if __name__ == "__main__":
    sys.exit(main())
