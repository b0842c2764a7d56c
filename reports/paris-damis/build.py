"""Build the Paris d'amis balance report, ``reports/paris-damis/README.md`` and its figures,
from the outputs of the experiments in ``experiments/`` (``runs/experiments/<name>/``); with
``--metagames`` alone, print instead the meta-games it reads, one ``OUT|ARGUMENTS|ANALYSIS``
line each (the arguments of ``python -m sim.metagame``,
``make paris-report`` plays them).

    make paris-report                      # plays what is missing, then builds
    python reports/paris-damis/build.py    # builds from finished experiments
    python reports/paris-damis/build.py --metagames   # the meta-games it reads, OUT|ARGS|ANALYSIS

Every number is read from an experiment's tables (cells.csv, comparisons.csv,
tournaments.csv); each section prints the command that reproduces them.  Sentences that
depend on a number (significant or not, which variant is best) are derived from the numbers,
so a rebuild never contradicts its tables; the recommendations and the summaries in
``summary.md`` (English and French) are the authors-facing reading of those numbers.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from sim import results
from sim.analysis import Run, questions
from sim.analysis.balance import decisions_that_matter, matter_by
from sim.analysis.book import (
    Book,
    NotRun,
    interval,
    intervals,
    markdown,
    share_range,
    stable_text,
    verdict,
    with_edge,
)
from sim.analysis.figures import Figure, grouped_intervals
from sim.analysis.metagame import population_chances, population_figure, population_figures
from sim.metagame import LEAST_CHANCE
from sim.report import percent

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BOOK = Book(HERE, ROOT / "experiments")
load, figure, section = BOOK.load, BOOK.figure, BOOK.section


def verdict_against(row: pd.Series | dict, base: pd.Series | dict, name: str) -> str:
    """'more than', 'less than' or 'no different from' the baseline, when the two 95%
    intervals do not overlap (a conservative reading)."""
    if row[f"{name}_low"] > base[f"{name}_high"]:
        return "more than without jokers"
    if row[f"{name}_high"] < base[f"{name}_low"]:
        return "less than without jokers"
    return "no different from without jokers"


def compared(comparisons: pd.DataFrame, group: str, variant: str, figure_name: str
             ) -> pd.Series | None:
    """The comparison row of one figure of ``variant`` against its experiment's baseline in
    ``group`` (``<K>p-<lineup>``), or None for the baseline itself."""
    rows = comparisons[(comparisons["group"] == group) & (comparisons["variant"] == variant)
                       & (comparisons["figure"] == figure_name)]
    return None if rows.empty else rows.iloc[0]


def word_for(row: pd.Series) -> str:
    """'significant', 'negligible' (significant, but an effect too small to matter: Cohen's
    h or d below sim.analysis.compare.MIN_EFFECT) or 'not significant'."""
    if not bool(row["significant"]):
        return "not significant"
    return "negligible" if bool(row["negligible"]) else "significant"


def difference(row: pd.Series | None, scale: float = 100.0, unit: str = " pp") -> str:
    """A compared difference with its Holm-adjusted interval (which excludes 0 exactly when
    the difference is significant) and verdict (significant, negligible: an effect too
    small to matter although significant, or not significant), '-' for the baseline."""
    if row is None:
        return "-"
    word = word_for(row)
    return (f"{scale * row['diff']:+.1f}{unit} [{scale * row['low_adj']:+.1f}, "
            f"{scale * row['high_adj']:+.1f}], {word}")


CONTRAST = ("**Contrast: tables of copies of one naive bot** (the earlier answer, kept "
            "for comparison; it does not hold for good players).")


def with_contrast(number: int, title: str, stem: str, good: tuple[str, pd.DataFrame, str],
                  lead: str, answer: str, table: pd.DataFrame, figure_markdown: str,
                  question: str, reproduce: str) -> str:
    """A question's section answered among good players (``good``: answer, table, figure),
    then the earlier answer among naive bots (``lead``: which tables) as the contrast."""
    good_answer, good_table, good_figure = good
    contrast = f"{CONTRAST} {lead}: {answer}\n\n{markdown(table)}\n\n{figure_markdown}"
    return section(number, title, stem, good_answer, good_table,
                   good_figure + "\n\n" + contrast, question, reproduce)


# --------------------------------------------------------------------------------------
# The questions
# --------------------------------------------------------------------------------------
def seat_fairness(runs: Path) -> str:
    stem = "01-seat-fairness"
    cells = load(runs, stem)["cells"]
    table = pd.DataFrame({
        "players": cells["players"], "bots": cells["lineup"],
        "first seat's edge over its fair share": intervals(cells, "first_player_edge", "pp"),
        "all seats equal (chi-square p)": cells["seat_equality_p"].map(lambda p: f"{p:.3f}")})
    unfair = cells[(cells["first_player_edge_low"] > 0) | (cells["first_player_edge_high"] < 0)]
    worst = cells.loc[cells["first_player_edge"].abs().idxmax()]
    answer = (f"The first seat's edge is significant in {len(unfair)} of {len(cells)} "
              f"tables. The largest is {interval(worst, 'first_player_edge', 'pp')} at "
              f"{worst['players']} players with {worst['lineup']} bots. These are tables of "
              f"copies of one bot, whose habits can make a seat edge: question 10 asks the "
              f"same of good players.")
    if len(unfair):
        answer += " Significant edges: " + "; ".join(
            f"{r['players']} players, {r['lineup']}: {interval(r, 'first_player_edge', 'pp')}"
            for _, r in unfair.iterrows()) + "."
    fig = grouped_intervals(
        cells, "players", "lineup", "first_player_edge", name="q1-first-player-edge",
        title="First player's edge", reference=0.0, percent=True,
        caption="Win share of the seat that starts round 1 minus its fair share (a half, a "
                "third or a quarter of the games), with 95% intervals, for tables of four "
                "kinds of bots.",
        xlabel="players at the table (count)",
        ylabel="edge over the fair share (share of games)")
    return with_contrast(1, SEATS_TITLE, stem, seat_fairness_good(runs),
                         "Tables of copies of random and of each naive strategy bot", answer,
                         table, figure(fig, stem), SEATS_QUESTION,
                         f"{good_commands()} (the seat effects of each meta-game); the "
                         f"contrast: {BOOK.command(stem)}.")


SEATS_TITLE = "Seat fairness at 2, 3 and 4 players"
SEATS_QUESTION = ("Is the first player favoured, or any seat, at 2, 3 and 4 players, when "
                  "the players are good?")


def seat_fairness_good(runs: Path) -> tuple[str, pd.DataFrame, str]:
    """Each seat's edge over its fair share at tables drawn from the good players' stable
    mix and from a uniform mix of their pool (the meta-games' seat effects)."""
    rows = []
    for k in COUNTS:
        game = metagame(runs, k, SEATS_TITLE, SEATS_QUESTION)
        for name, population in POPULATIONS.items():
            seats = [e for e in game["seat_effects"] if e["population"] == name]
            worst = max(seats, key=lambda e: abs(e["edge"]))
            rows.append({"players": k, "population": population,
                         "first seat's edge": pp_interval(seats[0], "edge"),
                         "largest edge": f"seat {worst['seat']}: {pp_interval(worst, 'edge')}",
                         "significant": sum(e["edge_low"] > 0 or e["edge_high"] < 0
                                            for e in seats)})
    frame = pd.DataFrame(rows)
    significant = int(frame["significant"].sum())
    answer = (f"{good_population(runs, SEATS_TITLE, SEATS_QUESTION)} "
              + ("No seat's edge is significant in either population at any player count: "
                 "among good players the seats are fair (95% bootstrap intervals; question "
                 "10 gives every seat and the figure)." if not significant else
                 f"{significant} seat edges are significant (95% bootstrap intervals; "
                 f"question 10 gives every seat and the figure)."))
    return answer, frame.drop(columns="significant"), ""


def reward_table(runs: Path) -> str:
    stem = "02-reward-table"
    cells = with_edge(load(runs, stem)["cells"], "lead_win_share")
    mixed = cells[cells["lineup"] == "greedy+random"]
    alone = cells[cells["lineup"] == "greedy"].set_index(["variant", "players"])
    rows = []
    for _, r in mixed.iterrows():
        same = alone.loc[(r["variant"], r["players"])]
        rows.append({"table": r["variant"], "players": r["players"],
                     "greedy's edge over its fair share (vs random)": interval(
                         r, "lead_win_share_edge", "pp"),
                     "greedy's bet accuracy": interval(r, "lead_bet_accuracy"),
                     "first seat's edge (greedy table)": interval(same, "first_player_edge",
                                                                  "pp"),
                     "hand at round end, mean / max": f"{same['mean_hand_end']:.1f} / "
                                                      f"{same['max_hand_end']:.0f}"})
    fair = alone[(alone["first_player_edge_low"] <= 0) & (alone["first_player_edge_high"] >= 0)]
    edges = mixed.groupby("players")["lead_win_share_edge"].agg(["min", "max"])
    answer = ("The table does not decide who wins: one greedy bot's edge over random bots is "
              "the same under every table (" + "; ".join(
                  f"{k} players: {100 * lo:+.1f} to {100 * hi:+.1f} pp"
                  for k, (lo, hi) in edges.iterrows()) + "). What the table changes is ")
    three = alone.xs(3, level="players")
    answer += (f"the first seat's edge at 3 players among greedy bots "
               f"({interval(three.loc['flat-8'], 'first_player_edge', 'pp')} with flat-8, "
               f"{interval(three.loc['flat-12'], 'first_player_edge', 'pp')} with flat-12) "
               f"and the hands: the largest hand at a round's end grows from "
               f"{three.loc['flat-8', 'max_hand_end']:.0f} (flat-8) to "
               f"{three['max_hand_end'].max():.0f} cards. Seats stay fair (first seat's edge "
               f"not significant) in {len(fair)} of {len(alone)} variant × player-count "
               f"tables of greedy bots.")
    hands = cells[cells["lineup"] == "greedy"]
    fig = grouped_intervals(
        hands.assign(max_hand_end_low=hands["max_hand_end"],
                     max_hand_end_high=hands["max_hand_end"]),
        "variant", "players", "max_hand_end", name="q2-reward-table",
        title="The largest hand at a round's end under each reward table",
        caption="The largest hand any player held at the end of a round, over 100,000 games "
                "of greedy bots, for each reward table (what the table changes; a good "
                "bettor's edge over random players is the same under every table).",
        xlabel="reward table for a correct bet", ylabel="largest hand (cards)")
    return with_contrast(2, "The reward table for correct bets (A1)", BETTING,
                         betting_good(runs), "One greedy bot among random bots", answer,
                         pd.DataFrame(rows), figure(fig, stem),
                         BOOK.question(BETTING) + " (Question 2 first asked: " +
                         BOOK.question(stem) + ")",
                         f"{BOOK.command(BETTING)} (setup: [`experiments/{BETTING}.toml`]"
                         f"(../../experiments/{BETTING}.toml)); the contrast: "
                         f"{BOOK.command(stem)}.")


BETTING = "10-betting-good"


def reading_order(table: str) -> tuple[int, int, str]:
    """Reward tables in reading order: the flat ones by their reward, then the others."""
    if table.startswith("flat-") and table[5:].isdigit():
        return (0, int(table[5:]), table)
    return (1, 0, table)
GOOD_BETTOR = "greedy@tuned"


def betting_good(runs: Path) -> tuple[str, pd.DataFrame, str]:
    """Question 2 among good players: the answer, table and figure of what betting well is
    worth under each reward table (a good bettor among copies of itself betting blind)."""
    data = load(runs, BETTING)
    cells = with_edge(data["cells"], "lead_win_share")
    comparisons = data["comparisons"]
    rows = []
    for _, r in cells.iterrows():
        against = compared(comparisons, f"{r['players']}p-{r['lineup']}", r["variant"],
                           f"win share agent {GOOD_BETTOR}")
        rows.append({"table": r["variant"], "players": r["players"],
                     "good bettor's edge over its fair share": interval(
                         r, "lead_win_share_edge", "pp"),
                     "its bets right": interval(r, "lead_bet_accuracy"),
                     "all bets right (table)": interval(r, "bet_accuracy"),
                     "its win share against flat-10": difference(against)})
    pays = cells[cells["lead_win_share_edge_low"] > 0]
    lines = []
    for k, at in cells.groupby("players"):
        base = at[at["variant"] == at["variant"].iloc[0]].iloc[0]
        best = at.loc[at["lead_win_share_edge"].idxmax()]
        worst = at.loc[at["lead_win_share_edge"].idxmin()]
        moved = []
        for _, r in at.iloc[1:].iterrows():
            row = compared(comparisons, f"{k}p-{r['lineup']}", r["variant"],
                           f"win share agent {GOOD_BETTOR}")
            if row is not None and word_for(row) == "significant":
                moved.append(f"{r['variant']} {difference(row)}")
        lines.append(
            f"At {k} players the good bettor wins "
            f"{interval(base, 'lead_win_share_edge', 'pp')} more than its fair share "
            f"({percent(1 / k)}) under the rules' flat-10, from "
            f"{interval(worst, 'lead_win_share_edge', 'pp')} ({worst['variant']}) to "
            f"{interval(best, 'lead_win_share_edge', 'pp')} ({best['variant']}) across the "
            f"tables; against flat-10 "
            + ("; ".join(moved) if moved else "no table changes it beyond a negligible "
                                              "amount") + ".")
    answer = (f"Population: one `{GOOD_BETTOR}` at a table of copies of itself that bet "
              f"blind (`greedy@blindbet`: the same placements and discards, bets placed at "
              f"the same moments but on a random k), {int(cells['games'].iloc[0]):,} games "
              f"per table and player count, seats rotating. Betting well pays under "
              f"{len(pays)} of {len(cells)} table × player-count combinations (edge above "
              f"zero with its 95% interval). "
              + " ".join(lines) + " Differences against flat-10 are paired (the same deals), "
                                  "their intervals adjusted for the many comparisons "
                                  "(Holm), and called negligible when their effect size "
                                  "is below Cohen's h = 0.05 (about 2 pp), even if "
                                  "significant.")
    ordered = cells.iloc[sorted(range(len(cells)), key=lambda i: reading_order(
        cells["variant"].iloc[i]))]
    fig = grouped_intervals(
        ordered, "variant", "players", "lead_win_share_edge", name="q2-betting-pays",
        reference=0.0, percent=True, title="What betting well is worth, by reward table",
        caption="Win share of one greedy@tuned above its fair share (a third at 3 players, a "
                "quarter at 4) at a table of copies of itself that bet on a random k, with "
                "95% intervals, for each reward table: above the dashed line, betting well "
                "pays.", xlabel="reward table for a correct bet",
        ylabel="good bettor's edge (share of games)")
    return answer, pd.DataFrame(rows), figure(fig, BETTING)


def tournament_rows(tournaments: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({
        "variant": tournaments["variant"], "players": tournaments["players"],
        "skill chain (depth)": [f"{r['skill_chain']} ({r['chain_length']})"
                                for _, r in tournaments.iterrows()],
        "upsets (luck)": intervals(tournaments, "luck"),
        "best bot with random bots": [f"{r['best_vs_random']}: "
                                      f"{interval(r, 'best_vs_random_share')}"
                                      for _, r in tournaments.iterrows()]})


def jokers(runs: Path) -> str:
    stem = "03-jokers"
    data = load(runs, stem)
    cells, tournaments = data["cells"], data["tournaments"]
    greedy = cells[cells["lineup"] == "greedy"].set_index("variant")
    table = tournament_rows(tournaments).assign(**{
        "decisions per game (greedy)": [f"{greedy.loc[v, 'mean_decisions']:.0f}"
                                        for v in tournaments["variant"]],
        "bet accuracy (greedy)": [interval(greedy.loc[v], "bet_accuracy")
                                  for v in tournaments["variant"]]})
    base = tournaments.iloc[0]
    answer = (f"Without jokers the weaker of two bots finishes ahead in "
              f"{interval(base, 'luck')} of comparisons. " + "; ".join(
                  f"{r['variant']}: {interval(r, 'luck')}, "
                  f"{verdict_against(r, base, 'luck')}"
                  for _, r in tournaments.iloc[1:].iterrows()) + ".")
    fig = grouped_intervals(
        tournaments.assign(bots="all pairs"), "variant", "bots", "luck", name="q3-jokers-luck",
        title="Luck with and without jokers", percent=True,
        caption="Share of head-to-head comparisons won by the lower-rated of two bots (4 "
                "players, random and three strategy bots), with 95% intervals (50% would be "
                "pure chance): every joker rule lies within about a point of no jokers.",
        xlabel="joker variant", ylabel="upsets (share of comparisons)")
    return with_contrast(3, "Jokers (A7)", SEARCH_RULES, jokers_good(runs),
                         "Four players only, random and three naive strategy bots, upsets "
                         "pooled over every pair of bots (most pairs are always decided)",
                         answer, table, figure(fig, stem), JOKERS_QUESTION,
                         rules_commands(JOKER_SETS) + f"; {BOOK.command(SEARCH_RULES)} "
                         f"(setup: [`experiments/{SEARCH_RULES}.toml`](../../experiments/"
                         f"{SEARCH_RULES}.toml)); the contrast: {BOOK.command(stem)}.")


JOKER_SETS = ("defaults", "wild-1", "wild-2", "tiebreak-1", "tiebreak-2")
JOKERS_QUESTION = (
    "The authors ask for joker ideas. Among good players at 3 and 4 players, what do one or "
    "two jokers (wild: any column, value 11; tiebreak: any column, value 0, wins every tie "
    "there) change in who wins, and do good players use them well?")
SEARCH = "ismcts"
# How the search plays (its Paris d'amis default profile), for the population sentences.
SEARCH_PLAYS = ("default budget; it searches its turns, where it keeps `greedy@tuned`'s "
                "move unless its simulations find a clearly better one, and plays its "
                "discards and hand changes as `greedy@tuned` does")
# A pair whose weaker player finishes ahead less often than this is almost always decided.
DECIDED = 0.10


def search_edge_figure(cells: pd.DataFrame, x: str, name: str, title: str, under: str,
                       xlabel: str) -> Figure:
    """The search's edge over its fair share at its table with greedy@tuned, by ``x`` and
    player count, with 95% intervals; ``under`` says which rules the caption covers."""
    return grouped_intervals(
        cells, x, "players", "lead_win_share_edge", name=name, reference=0.0, percent=True,
        title=title, caption=f"Win share of one ismcts search above its fair share (a third "
                             f"at 3 players, a quarter at 4) at a table with greedy@tuned in "
                             f"every other seat, with 95% intervals, {under}.",
        xlabel=xlabel, ylabel="the search's edge (share of games)")


def rules_game(runs: Path, name: str, players: int, title: str, question: str) -> dict:
    """The meta-game of one rule set (NotRun, saying what to run, when it has not run)."""
    path = runs / rules_folder(name, players) / "metagame.json"
    if not path.is_file():
        raise NotRun(rules_folder(name, players), title, question,
                     rules_command(name, players))
    return json.loads(path.read_text(encoding="utf-8"))


def rules_commands(names: tuple[str, ...]) -> str:
    """The meta-games of these rule sets, as one line of commands."""
    return "; ".join(rules_command(name, k) for name in names for k in RULES_COUNTS)


def luck_row(game: dict) -> dict:
    """The luck share over the pool's mixed tables and the upsets between its two best, as
    table cells."""
    pool, top = game["luck"]["pool"], game["luck"]["top_two"]
    return {"luck share (mixed tables)": interval(pool, "luck"),
            "weaker of the two best ahead": f"{top['weaker']}: {interval(top, 'upsets')} "
                                            f"of {top['comparisons']:,}"}


def jokers_good(runs: Path) -> tuple[str, pd.DataFrame, str]:
    """Jokers among good players: meta-games of the fast good players under each joker rule,
    and the search against greedy@tuned."""
    title = "Jokers (A7)"
    rows, lines = [], []
    for k in RULES_COUNTS:
        base = rules_game(runs, "defaults", k, title, JOKERS_QUESTION)
        changed = []
        for name in JOKER_SETS:
            game = rules_game(runs, name, k, title, JOKERS_QUESTION)
            stable = stable_text(game["equilibrium"])
            rows.append({"jokers": name.replace("defaults", "none"), "players": k,
                         "stable mix": stable, **luck_row(game)})
            if name != "defaults":
                moved = verdict_against(game["luck"]["pool"], base["luck"]["pool"], "luck")
                upsets = verdict_against(game["luck"]["top_two"], base["luck"]["top_two"],
                                         "upsets")
                changed.append(f"{name}: luck {interval(game['luck']['pool'], 'luck')}, "
                               f"{moved}; upsets {interval(game['luck']['top_two'], 'upsets')}"
                               f", {upsets}")
        top = base["luck"]["top_two"]
        decided = (" (this pair is almost always decided, so its upsets say little: the "
                   "luck share and the search's edge below are the informative figures)"
                   if top["upsets_high"] < DECIDED else "")
        lines.append(f"At {k} players, without jokers luck is "
                     f"{interval(base['luck']['pool'], 'luck')} of the variance of a "
                     f"player's result and the weaker of the two best "
                     f"({', '.join(base['luck']['top_two']['agents'])}) finishes ahead "
                     f"{interval(base['luck']['top_two'], 'upsets')} of the time{decided}; "
                     + "; ".join(changed) + ".")
    data = load(runs, SEARCH_RULES)
    cells = with_edge(data["cells"], "lead_win_share")
    comparisons = data["comparisons"]
    search = cells[(cells["lineup"] == f"{SEARCH}+{GOOD_BETTOR}")
                   & cells["variant"].isin(["base", *JOKER_SETS])].copy()
    gains, search_rows = [], []
    for _, r in search.iterrows():
        row = compared(comparisons, f"{r['players']}p-{r['lineup']}", r["variant"],
                       f"win share agent {SEARCH}")
        search_rows.append({
            "jokers": r["variant"].replace("base", "none"), "players": r["players"],
            "the search's edge over its fair share": interval(r, "lead_win_share_edge", "pp"),
            "its win share against no joker": difference(row),
            "bets right (table)": interval(r, "bet_accuracy")})
        if row is not None:
            gains.append(f"{r['variant']} at {r['players']} players {difference(row)}")
    games = int(search["games"].iloc[0])
    answer = (
        f"Population: the meta-game of {RULES_POOL.replace(',', ', ')} under each joker "
        f"rule ({RULES_GAMES:,} games per table of the pool, luck and upsets over the mixed "
        f"tables; the upsets are counted only between the two best players, a pair that is "
        f"not always decided), and one `{SEARCH}` search against `{GOOD_BETTOR}` "
        f"({games} paired games per rule). " + " ".join(lines)
        + " Who gains from jokers: the search's win share against no joker, "
        + "; ".join(gains) + ". A search that used jokers better than greedy@tuned would "
          "gain from them; a difference within its interval means neither player makes "
          "more of them than the other. (Intervals compared by overlap: \"no different\" "
          "means the two 95% intervals overlap.)")
    search = search.assign(rule=search["variant"].str.replace("base", "no joker"))
    fig = search_edge_figure(search, "rule", "q3-jokers-search",
                             "The search's edge with and without jokers",
                             f"under each joker rule ({games} games each, the same deals)",
                             "joker rule")
    return answer, pd.DataFrame(rows), (markdown(pd.DataFrame(search_rows)) + "\n\n"
                                         + figure(fig, SEARCH_RULES))


def discard(runs: Path) -> str:
    stem = "04-discard"
    data = load(runs, stem)
    cells, tournaments = data["cells"], data["tournaments"]
    rows = []
    for _, r in cells[cells["lineup"] == "greedy"].iterrows():
        rows.append({"discard": r["variant"], "players": r["players"],
                     "hand at round end, mean / max": f"{r['mean_hand_end']:.1f} / "
                                                      f"{r['max_hand_end']:.0f}",
                     "games with a short deal": interval(r, "short_games"),
                     "cards missing per seat-round": interval(r, "mean_cards_short", "plain"),
                     "decisions per game": f"{r['mean_decisions']:.0f}"})
    luck = tournaments.set_index("variant")
    greedy = cells[cells["lineup"] == "greedy"].set_index("variant")
    short = greedy[greedy["short_games_low"] > 0.5]
    answer = (f"Deck shortages: among greedy bots at 4 players the deck cannot give every "
              f"player the new cards owed in most games under {', '.join(short.index)} "
              f"(" + "; ".join(f"{v}: {interval(r, 'short_games')} of games, "
                               f"{r['mean_cards_short']:.2f} cards missing per seat-round"
                               for v, r in short.iterrows()) + "), and in "
              f"{percent(greedy['short_games'].min())} of games under "
              f"{greedy['short_games'].idxmin()}. ")
    if "short_after_correct" in greedy.columns and "half-down" in greedy.index:
        rule = greedy.loc["half-down"]
        answer += (f"Under the rules' discard the shortage falls on the players owed the "
                   f"most, {rule['short_after_correct']:.1f} cards missing a round after a "
                   f"correct bet against {rule['short_after_wrong']:.1f} after a wrong one, "
                   f"but it does not pick the loser: the game's winners miss "
                   f"{rule['short_winners']:.2f} cards a round, the others "
                   f"{rule['short_others']:.2f} (over 100,000 games these means are exact "
                   f"to about 0.01). ")
    answer += ("Skill and luck by rule (4 players): " + "; ".join(
        f"{v}: depth {int(luck.loc[v, 'chain_length'])}, upsets "
        f"{interval(luck.loc[v], 'luck')}" for v in luck.index) + ".")
    greedy = cells[cells["lineup"] == "greedy"]
    fig = grouped_intervals(
        greedy, "variant", "players", "mean_cards_short", name="q4-discard-shortage",
        title="Cards the deck could not give, by discard rule",
        caption="Mean new cards owed but missing per player and round (after the first), "
                "with 95% intervals, for tables of greedy bots: how short the deck runs, "
                "not only how often.",
        xlabel="discard rule", ylabel="cards missing per player and round")
    return with_contrast(4, DISCARD_TITLE, stem, discard_good(runs),
                         "Tables of greedy bots, and the skill chain of the naive bots",
                         answer, pd.DataFrame(rows),
                         markdown(tournament_rows(tournaments)) + "\n\n"
                         + figure(fig, stem), DISCARD_QUESTION,
                         f"{good_commands()} and {BOOK.command(ODD_GOOD)}, figures from "
                         f"`sim.analysis.questions.deck_shortage`; the contrast: "
                         f"{BOOK.command(stem)}.")


DISCARD_TITLE = "The discard rule (A5)"
DISCARD_QUESTION = (
    "At the end of a round each player discards half their hand, rounded down. Does the deck "
    "run short of the new cards owed, and whom does the shortage hurt, among good players? "
    "What does rounding up change?")
SHORTAGE = {"games with a short deal": (("short_games",), "percent"),
            "cards missing per seat-round": (("mean_cards_short",), "plain"),
            "after a correct bet / a wrong one": (("short_after_correct",
                                                   "short_after_wrong"), "plain"),
            "the game's winners / the others": (("short_winners", "short_others"), "plain")}


def shortage_cells(row: pd.Series | dict) -> dict[str, str]:
    """A row's shortage figures as table cells (pairs as 'a / b')."""
    out = {}
    for column, (names, scale) in SHORTAGE.items():
        out[column] = " / ".join(interval(row, name, scale) for name in names)
    return out


def discard_good(runs: Path) -> tuple[str, pd.DataFrame, str]:
    """The deck shortage among good players: at 4 players at tables drawn from the stable
    mix and from a uniform mix of the pool (the rules' discard), and at tables of
    greedy@tuned under the rules' rounding down and under rounding up."""
    figures = [name for names, _ in SHORTAGE.values() for name in names]
    rows = []
    per_table, chances = good_tables(runs, 4, DISCARD_TITLE, DISCARD_QUESTION,
                                     questions.deck_shortage)
    for name, chance in chances.items():
        rows.append({"players": 4, "tables": POPULATIONS[name], "discard": "half-down",
                     **shortage_cells(population_figures(per_table, chance, figures))})
    cells = load(runs, ODD_GOOD)["cells"]
    tuned = cells[(cells["lineup"] == GOOD_BETTOR) & (cells["players"] == 4)]
    tuned = tuned.set_index("variant")
    rows += [{"players": 4, "tables": f"{GOOD_BETTOR} only", "discard": variant,
              **shortage_cells(r)} for variant, r in tuned.iterrows()]
    stable = population_figures(per_table, chances["equilibrium"], figures)
    down, up = tuned.loc["half-down"], tuned.loc["half-up"]
    three = cells[(cells["lineup"] == GOOD_BETTOR) & (cells["players"] == 3)].set_index(
        "variant")
    hurts = ("falls on the players owed the most (after a correct bet)"
             if stable["short_after_correct_low"] > stable["short_after_wrong_high"] else
             "falls alike on players after a correct and after a wrong bet")
    picks = ("but not on the game's losers: winners miss as many cards as the others"
             if stable["short_winners_low"] <= stable["short_others_high"]
             and stable["short_others_low"] <= stable["short_winners_high"] else
             "and the winners miss " + ("more" if stable["short_winners"] >
                                        stable["short_others"] else "fewer")
             + " cards than the others")
    answer = (f"{good_population(runs, DISCARD_TITLE, DISCARD_QUESTION)} At 4 players, "
              f"under the rules' discard, the deck runs short in "
              f"{interval(stable, 'short_games')} of the stable mix's games, "
              f"{interval(stable, 'mean_cards_short', 'plain')} cards missing per player "
              f"and round; the shortage {hurts}, {picks} (the authors' \"les pertes sont "
              f"partagées\" holds for who wins). Between `{GOOD_BETTOR}` players "
              f"({int(down['games']):,} games a rule), rounding the discard up takes the "
              f"shortage from {down['mean_cards_short']:.2f} to {up['mean_cards_short']:.2f} "
              f"cards per player and round. At 3 players, between the same players, it runs "
              f"short in {interval(three.loc['half-down'], 'short_games')} of games "
              f"({three.loc['half-down', 'mean_cards_short']:.2f} cards per player and "
              f"round) with rounding down and {interval(three.loc['half-up'], 'short_games')}"
              f" ({three.loc['half-up', 'mean_cards_short']:.2f}) with rounding up.")
    return answer, pd.DataFrame(rows), ""


def odd_hand(runs: Path) -> str:
    stem = "05-odd-hand"
    cells = load(runs, stem)["cells"]
    table = pd.DataFrame({
        "discard": cells["variant"], "players": cells["players"], "bots": cells["lineup"],
        "extra points cards next round": intervals(cells, "odd_hand_next_points", "plain"),
        "win share, all odd vs all even": intervals(cells, "odd_hand_win_share", "pp")})
    down = cells[cells["variant"] == "half-down"]
    holds = (down["odd_hand_next_points_low"] > 0).sum()
    plain = cells[cells["lineup"] == "random"].set_index(["variant", "players"])
    answer = (f"Under the rules' rounding down, an odd hand at round end brings significantly "
              f"more points cards in the next round in {holds} of {len(down)} tables. The "
              f"clean test is random play, where a hand's parity is not chosen: there an odd "
              f"hand is worth " + ", ".join(
                  f"{interval(r, 'odd_hand_next_points', 'plain')} points cards at {k} "
                  f"players" for k, r in plain.loc["half-down"].iterrows()) +
              " in the next round, and a player whose rounds all end odd wins "
              f"{100 * plain.loc['half-down']['odd_hand_win_share'].min():+.1f} to "
              f"{100 * plain.loc['half-down']['odd_hand_win_share'].max():+.1f} pp more "
              f"often than one whose rounds all end even; with half-up rounding (the control) "
              f"the sign reverses ({100 * plain.loc['half-up']['odd_hand_win_share'].min():+.1f}"
              f" to {100 * plain.loc['half-up']['odd_hand_win_share'].max():+.1f} pp). The "
              f"authors' claim holds, as a small edge. Among strategy bots parity is a choice "
              f"made from the position (cautious aims for odd hands), so their rows mix the "
              f"rule's effect with the reasons for the choice.")
    fig = grouped_intervals(
        cells.assign(setting=cells["variant"] + ", " + cells["lineup"]), "players", "setting",
        "odd_hand_next_points", name="q5-odd-hand", title="What an odd hand is worth",
        reference=0.0, caption="Extra points cards won in the next round after ending a round "
                               "with an odd hand, at equal hand size, with 95% intervals.",
        xlabel="players at the table (count)", ylabel="points cards (per round)")
    return with_contrast(5, "Is ending a round with an odd hand better?", ODD_GOOD,
                         odd_hand_good(runs),
                         f"Random play and the naive strategies; the win-share figure "
                         f"extrapolates to players whose rounds all end odd or all even, "
                         f"which deliberate players never are, so its values for them are not "
                         f"to be read (cautious's "
                         f"{100 * cells['odd_hand_win_share'].min():+.1f} pp)", answer,
                         table, figure(fig, stem),
                         BOOK.question(ODD_GOOD), f"{BOOK.command(ODD_GOOD)} (setup: "
                         f"[`experiments/{ODD_GOOD}.toml`](../../experiments/{ODD_GOOD}"
                         f".toml)); the search's tables: {BOOK.command(SEARCH_RULES)}; the "
                         f"contrast: "
                         f"{BOOK.command(stem)}.")


ODD_GOOD = "11-odd-hand-good"
PARITY_CHOOSER = "cautious"      # the bot that aims for odd hands (docs/agents.md)
# An odd hand's worth below this share of a seat's mean points cards a round is negligible.
NEGLIGIBLE_SHARE = 0.05


def points_per_round(runs: Path, stem: str, cell: pd.Series) -> float:
    """A seat's mean points cards won a round in one cell of an experiment."""
    folder = runs / stem / "cells" / f"{cell['variant']}-{cell['players']}p-{cell['lineup']}"
    return float(Run.open(folder).rounds_table()["points_cards_won"].mean())


def odd_hand_good(runs: Path) -> tuple[str, pd.DataFrame, str]:
    """The odd-hand tip among good players: the points cards an odd hand brings in the next
    round, at equal hand size, under rounding down and up."""
    cells = load(runs, ODD_GOOD)["cells"]
    search = load(runs, SEARCH_RULES)["cells"]
    search = search[(search["variant"] == "base")
                    & (search["lineup"] == f"{SEARCH}+{GOOD_BETTOR}")]
    both = pd.concat([cells.assign(stem=ODD_GOOD), search.assign(stem=SEARCH_RULES)])
    both["per_round"] = [points_per_round(runs, r["stem"], r) for _, r in both.iterrows()]
    both["share"] = both["odd_hand_next_points"] / both["per_round"]
    both["reading"] = [
        "confounded (cautious aims for odd hands)" if PARITY_CHOOSER in r["lineup"] else
        "may be confounded (the search may end odd more often)"
        if r["stem"] == SEARCH_RULES and r["odd_hand_next_points_low"] > 0 else
        "negligible" if abs(r["share"]) < NEGLIGIBLE_SHARE and (
            r["odd_hand_next_points_low"] > 0 or r["odd_hand_next_points_high"] < 0)
        else verdict(r, "odd_hand_next_points").replace("no different from",
                                                          "not significant")
        .replace("above", "odd better").replace("below", "even better")
        for _, r in both.iterrows()]
    table = pd.DataFrame({
        "discard": both["variant"].str.replace("base", "half-down"),
        "players": both["players"], "tables": both["lineup"],
        "extra points cards next round (odd hand)": intervals(both, "odd_hand_next_points",
                                                               "plain"),
        "a seat's points cards a round": both["per_round"].map(lambda v: f"{v:.2f}"),
        "reading": both["reading"]})
    clean = both[~both["lineup"].str.contains(PARITY_CHOOSER, regex=False)
                 & (both["stem"] == ODD_GOOD)]
    searched = both[both["stem"] == SEARCH_RULES]
    down = clean[clean["variant"].isin(["half-down", "base"])]
    up = clean[clean["variant"] == "half-up"]
    shortage = cells[(cells["lineup"] == GOOD_BETTOR) & (cells["players"] == 4)
                     ].set_index("variant")
    holds = down[down["reading"] == "odd better"]
    answer = (
        f"Population: tables of `{GOOD_BETTOR}` alone and beside `aggressive` or `cautious` "
        f"({int(cells['games'].iloc[0]):,} games each), and one `{SEARCH}` search against "
        f"`{GOOD_BETTOR}` "
        f"({int(search['games'].iloc[0])} games). The measure is the points cards won in the "
        f"next round after ending a round with an odd hand, at equal hand size; a worth "
        f"below {percent(NEGLIGIBLE_SHARE)} of the points cards a seat wins in a round is "
        f"called negligible. Under the rules' rounding down an odd hand is worth "
        f"{down['odd_hand_next_points'].min():+.2f} to {down['odd_hand_next_points'].max():+.2f}"
        f" points cards in the next round ({share_range(down['share'])} of a round's "
        f"points cards); the tip holds, beyond a negligible amount, in {len(holds)} of "
        f"{len(down)} tables. With rounding up the worth is "
        f"{up['odd_hand_next_points'].min():+.2f} to {up['odd_hand_next_points'].max():+.2f}"
        f" points cards ({share_range(up['share'])} of a round's points cards), the "
        f"control where an even hand should be the better one. At tables with `cautious`, "
        f"which aims for odd hands, a hand's parity tells which player holds it, so the "
        f"measure there compares players, not hands (left out of the counts above). At the "
        f"search's tables an odd hand is worth "
        + ", ".join(f"{interval(r, 'odd_hand_next_points', 'plain')} points cards at "
                    f"{r['players']} players ({percent(r['share'])} of a round's)"
                    for _, r in searched.iterrows())
        + "; the search wins most of the points cards, so if it ends rounds odd more often "
          "than greedy@tuned, parity there also tells the players apart: an upper bound "
          "on the tip's worth to the strongest player, left out of the counts above. The "
        f"deck shortage at 4 players among `{GOOD_BETTOR}` bots: "
        f"{shortage.loc['half-down', 'mean_cards_short']:.2f} cards missing per player and "
        f"round with rounding down, {shortage.loc['half-up', 'mean_cards_short']:.2f} with "
        f"rounding up.")
    shown = both[~both["lineup"].str.contains(PARITY_CHOOSER, regex=False)]
    fig = grouped_intervals(
        shown.assign(setting=shown["variant"].str.replace("base", "half-down") + ", "
                     + shown["lineup"]), "players", "setting", "odd_hand_next_points",
        name="q5-odd-hand-good", title="What an odd hand is worth to good players",
        reference=0.0, caption="Extra points cards won in the next round after ending a "
                               "round with an odd hand, at equal hand size, with 95% "
                               "intervals, at tables of good players, under the rules' "
                               "rounding down and under half-up (above the dashed line an "
                               "odd hand is the better one; a player wins 0.9 to 1.3 "
                               "points cards a round). The tables with cautious, where "
                               "parity tells the players apart, are in the table only.",
        xlabel="players at the table (count)", ylabel="points cards (per round)")
    return answer, table, figure(fig, ODD_GOOD)


def hand_change(runs: Path) -> str:
    stem = "06-hand-change"
    data = load(runs, stem)
    cells, comparisons = data["cells"], data["comparisons"]
    used = cells[cells["variant"] == "hand-change"]
    rows, diffs = [], []
    for _, r in used.iterrows():
        bot = r["lineup"].split("+")[0]
        worth = comparisons[(comparisons["group"] == f"{r['players']}p-{r['lineup']}")
                            & (comparisons["figure"] == f"win share agent {bot}")].iloc[0]
        diffs.append(100 * worth["diff"])
        rows.append({"bot": bot, "players": r["players"],
                     "hand changes taken (share of rounds)": interval(r, "lead_exchange_rate"),
                     "win share without the rule minus with it":
                         f"{100 * worth['diff']:+.1f} pp [{100 * worth['low']:+.1f}, "
                         f"{100 * worth['high']:+.1f}]"})
    answer = (f"The strategy bots, with their default thresholds, almost never change their "
              f"hand (at most {percent(used['lead_exchange_rate'].max())} of their rounds "
              f"after the first), while random players do in about half of theirs "
              f"(overall rate {percent(used['exchange_rate'].min())} to "
              f"{percent(used['exchange_rate'].max())} of seat-rounds). Removing the rule "
              f"lowers a bot's win share among random bots by {-max(diffs):.1f} to "
              f"{-min(diffs):.1f} pp (paired games): in these tables the rule's worth is "
              f"what the random players lose by taking it. A bot that sweeps its exchange "
              f"threshold would measure what a good player gains from it.")
    fig = grouped_intervals(
        used.assign(bot=used["lineup"].str.split("+").str[0]), "bot", "players",
        "lead_exchange_rate", name="q6-hand-change", title="How often bots change their hand",
        percent=True, caption="Share of rounds after the first in which the bot exchanges its "
                              "hand, with 95% intervals, seated among random bots.",
        xlabel="bot", ylabel="hand changes (share of rounds)")
    return with_contrast(6, "The hand change (A6)", SEARCH_RULES, hand_change_good(runs),
                         "A strategy bot among random bots", answer, pd.DataFrame(rows),
                         figure(fig, stem),
                         "Before each round a player may exchange their hand for (initial "
                         "hand − 2) new cards. How often do good players use it, and what is "
                         "it worth to them, at 3 and 4 players?",
                         f"{BOOK.command(SEARCH_RULES)} (setup: [`experiments/{SEARCH_RULES}"
                         f".toml`](../../experiments/{SEARCH_RULES}.toml)); the contrast: "
                         f"{BOOK.command(stem)}.")


def hand_change_good(runs: Path) -> tuple[str, pd.DataFrame, str]:
    """The hand change among good players: how often the search and greedy@tuned take it,
    and the search's win share without the rule against with it (paired games)."""
    data = load(runs, SEARCH_RULES)
    cells, comparisons = data["cells"], data["comparisons"]
    used = cells[cells["variant"] == "base"]
    rows, lines = [], []
    for _, r in used[used["lineup"] == f"{SEARCH}+{GOOD_BETTOR}"].iterrows():
        group = f"{r['players']}p-{r['lineup']}"
        search = compared(comparisons, group, "no-hand-change", f"win share agent {SEARCH}")
        tuned = used[(used["players"] == r["players"]) & (used["lineup"] == GOOD_BETTOR)]
        rows.append({"players": r["players"],
                     "the search changes its hand (share of rounds)": interval(
                         r, "lead_exchange_rate"),
                     "greedy@tuned changes (share of rounds)": interval(tuned.iloc[0],
                                                                         "exchange_rate"),
                     "the search's win share without the rule minus with it":
                         difference(search)})
        lines.append(f"At {r['players']} players the search changes its hand in "
                     f"{interval(r, 'lead_exchange_rate')} of its rounds after the first "
                     f"(greedy@tuned alone: {interval(tuned.iloc[0], 'exchange_rate')}); "
                     f"without the rule its win share moves by {difference(search)}.")
    games = int(used["games"].iloc[0])
    unused = not (used["lead_exchange_rate"].fillna(0) > 0).any() and \
        not (used["exchange_rate"].fillna(0) > 0).any()
    closing = (f" Neither good player changes its hand: `{GOOD_BETTOR}`, tuned by play, keeps "
               f"every hand, and the search plays its hand changes as `{GOOD_BETTOR}` does, "
               f"because deciding them by its simulations, which stop two rounds on, cost it "
               f"games (docs/agents.md, \"Delegated phases\"). Among these players the rule "
               f"goes unused, and removing it changes no game." if unused else
               f" A difference is negligible below Cohen's h = 0.05 (about 2 pp) even if "
               f"significant; with {games} paired games the interval is wide, so a small "
               f"worth cannot be ruled out.")
    answer = (f"Population: one `{SEARCH}` search ({SEARCH_PLAYS}) against `{GOOD_BETTOR}`, "
              f"and tables of `{GOOD_BETTOR}` alone, {games} games each, the same deals with "
              f"and without the rule (without it nobody can change hands"
              + ("). " if unused else
                 f"; `{GOOD_BETTOR}` seldom does anyway, so the difference is what the rule "
                 f"is worth to the search). ")
              + " ".join(lines) + closing)
    frame = used.assign(bot=[f"{SEARCH} (beside greedy@tuned)" if "+" in lineup else
                             f"{GOOD_BETTOR} (alone)" for lineup in used["lineup"]])
    frame = frame.assign(rate=[r["lead_exchange_rate"] if "+" in r["lineup"] else
                               r["exchange_rate"] for _, r in frame.iterrows()],
                         rate_low=[r["lead_exchange_rate_low"] if "+" in r["lineup"] else
                                   r["exchange_rate_low"] for _, r in frame.iterrows()],
                         rate_high=[r["lead_exchange_rate_high"] if "+" in r["lineup"] else
                                    r["exchange_rate_high"] for _, r in frame.iterrows()])
    fig = grouped_intervals(
        frame, "bot", "players", "rate", name="q6-hand-change-good", percent=True,
        title="How often good players change their hand",
        caption=f"Share of rounds after the first in which the player exchanges its hand, "
                f"with 95% intervals ({games} games per table).",
        xlabel="player", ylabel="hand changes (share of rounds)")
    return answer, pd.DataFrame(rows), figure(fig, SEARCH_RULES)


def scoring(runs: Path) -> str:
    stem = "07-scoring"
    cells = load(runs, stem)["cells"]
    base = cells[cells["variant"] == "lowest-suit"]
    table = pd.DataFrame({"players": base["players"], "bots": base["lineup"],
                          "winner differs under a plain total": intervals(base, "winner_differs")})
    answer = (f"The lowest-suit rule changes the winner in "
              f"{percent(base['winner_differs'].min())} to "
              f"{percent(base['winner_differs'].max())} of games.")
    fig = grouped_intervals(
        base, "players", "lineup", "winner_differs", name="q7-scoring", percent=True,
        title="How often lowest-suit scoring changes the winner",
        caption="Share of games whose best players by lowest suit differ from the best by "
                "total points, with 95% intervals.", xlabel="players at the table (count)",
        ylabel="games (share)")
    return with_contrast(7, SCORING_TITLE, stem, scoring_good(runs),
                         "Random bots, and one greedy bot among random bots", answer, table,
                         figure(fig, stem), SCORING_QUESTION,
                         f"{good_commands()}, figures from `sim.analysis.questions.scoring`; "
                         f"the contrast: {BOOK.command(stem)}.")


SCORING_TITLE = "Lowest-suit scoring against the total (A9)"
SCORING_QUESTION = (
    "A player's score is their weakest suit, not their total. How often would the winner "
    "differ under a plain total among good players, and does the rule change who wins?")


def scoring_good(runs: Path) -> tuple[str, pd.DataFrame, str]:
    """How often the lowest suit and the total name different winners, at tables drawn from
    the good players' stable mix and from a uniform mix of their pool."""
    rows = []
    for k in COUNTS:
        per_table, chances = good_tables(runs, k, SCORING_TITLE, SCORING_QUESTION,
                                         questions.scoring)
        rows += [{"players": k, "population": POPULATIONS[name],
                  **population_figure(per_table, chance, "winner_differs")}
                 for name, chance in chances.items()]
    frame = pd.DataFrame(rows)
    table = pd.DataFrame({"players": frame["players"], "population": frame["population"],
                          "winner differs under a plain total": intervals(frame,
                                                                          "winner_differs")})
    stable = frame[frame["population"] == POPULATIONS["equilibrium"]]
    uniform = frame[frame["population"] == POPULATIONS["uniform"]]
    answer = (f"{good_population(runs, SCORING_TITLE, SCORING_QUESTION)} Between good "
              f"players the lowest suit and the total name different winners in " + ", ".join(
                  f"{interval(r, 'winner_differs')} of games at {r['players']} players"
                  for _, r in stable.iterrows()) + f" (stable mix; in a uniform mix of the "
              f"pool {share_range(uniform['winner_differs'])}). "
              + ("So between good players the rule seldom decides the winner at the count: "
                 "it matters through the play it asks for (no suit may be neglected), "
                 "unlike at tables of random players, who neglect suits (the contrast "
                 "below)." if stable["winner_differs_high"].max() < RARELY else
                 "So the rule often names another winner than the total would, even "
                 "between good players."))
    return answer, table, population_plot(
        frame, "winner_differs", "q7-scoring-good",
        "How often lowest-suit scoring changes the winner (good players)",
        "Share of games whose best players by lowest suit differ from the best by total "
        "points, with 95% intervals,", "games (share)", percent=True)


def pace_text() -> str:
    """The pace model's seconds, as a sentence."""
    return ", ".join(f"{kind.replace('_', ' ')} {brisk:g} to {leisurely:g} s"
                     for kind, (brisk, leisurely) in questions.PACE.items())


def minutes(row: pd.Series, name: str) -> str:
    """A time at the middle pace with its brisk-to-leisurely range, in whole minutes."""
    return f"{row[name]:.0f} ({row[name + '_low']:.0f} to {row[name + '_high']:.0f})"


def length_table(cells: pd.DataFrame, first: dict[str, pd.Series]) -> pd.DataFrame:
    """Actions and minutes per game, a row per row of ``cells``, after the columns
    ``first``."""
    rows = list(cells.iterrows())
    return pd.DataFrame({
        **first,
        "placements / bets / discards / hand changes per game": [
            f"{r['actions_placement']:.0f} / {r['actions_bet']:.0f} / "
            f"{r['actions_discard']:.0f} / {r['actions_hand_change']:.0f}" for _, r in rows],
        "game (minutes; brisk to leisurely)": [minutes(r, "table_minutes") for _, r in rows],
        "per player (minutes)": [minutes(r, "minutes_per_player") for _, r in rows]})


def discard_shares(cells: pd.DataFrame) -> str:
    """The discards' share of the decisions and of the time (at the middle pace), over the
    rows of ``cells``, as text."""
    middle = {kind: sum(pace) / 2 for kind, pace in questions.PACE.items()}
    discards = cells["actions_discard"]
    decisions = sum(cells[f"actions_{kind}"] for kind in DECISION_KINDS)
    seconds = sum(cells[f"actions_{kind}"] * middle[kind] for kind in middle)
    return (f"{share_range(discards / decisions)} of the decisions but "
            f"{share_range(discards * middle['discard'] / seconds)} of the time")


def game_length(runs: Path) -> str:
    stem = "08-game-length"
    cells = load(runs, stem)["cells"]
    table = length_table(cells, {"players": cells["players"], "bots": cells["lineup"]})
    deliberate = cells[cells["lineup"] != "random"]
    answer = (f"Counting each kind of action at its own pace ({pace_text()}; a deal after "
              f"each round and one shuffle a game), a game between deliberate players "
              f"takes {deliberate['table_minutes_low'].min():.0f} to "
              f"{deliberate['table_minutes_high'].max():.0f} minutes at the table, "
              f"{deliberate['minutes_per_player_low'].min():.0f} to "
              f"{deliberate['minutes_per_player_high'].max():.0f} minutes per player: the "
              f"range is the pace's, from brisk to leisurely (over 100,000 games the "
              f"statistical error is under a second). Discards, one card each, are "
              f"{discard_shares(deliberate)}.")
    fig = grouped_intervals(
        cells, "players", "lineup", "minutes_per_player", name="q8-game-length",
        reference=20.0, title="Minutes per player",
        caption="Game length at the table divided by the players, at the middle of the "
                "pace model's range; the bars run from a brisk to a leisurely pace (not a "
                "statistical interval). The dashed line is the authors' guess of 20 "
                "minutes per player.",
        xlabel="players at the table (count)", ylabel="minutes per player")
    return with_contrast(8, LENGTH_TITLE, stem, game_length_good(runs),
                         "Tables of copies of random and of each naive strategy bot", answer,
                         table, figure(fig, stem), LENGTH_QUESTION,
                         f"{good_commands()}, the actions counted by "
                         f"`sim.analysis.questions.actions`; the contrast: "
                         f"{BOOK.command(stem)}.")


LENGTH_TITLE = "Game length"
LENGTH_QUESTION = (
    "The authors guess \"about 20 minutes per player (we actually have no idea)\". How many "
    "actions of each kind (placements, bets, discards, hand changes, deals) does a game "
    "between good players take, and what does that mean in minutes at a stated pace for "
    "each kind, from brisk to leisurely?")


def mix_actions(per_table: dict[str, dict[str, float]], chances: dict[str, float]
                ) -> pd.Series:
    """The mean actions of each kind per game at tables drawn with ``chances``."""
    total = sum(chances.values())
    return sum((pd.Series(per_table[t]) * p for t, p in chances.items()),
               start=pd.Series(0.0, index=list(questions.PACE))) / total


def game_length_good(runs: Path) -> tuple[str, pd.DataFrame, str]:
    """Actions and minutes per game by the pace model at tables drawn from the good
    players' stable mix and from a uniform mix of their pool."""
    rows = []
    for k in COUNTS:
        per_table, chances = good_tables(runs, k, LENGTH_TITLE, LENGTH_QUESTION,
                                         lambda run: questions.actions(run).mean().to_dict())
        rows += [{"players": k, "population": POPULATIONS[name],
                  **questions.paced_minutes(mix_actions(per_table, chance), k)}
                 for name, chance in chances.items()]
    frame = pd.DataFrame(rows)
    table = length_table(frame, {"players": frame["players"],
                                 "population": frame["population"]})
    stable = frame[frame["population"] == POPULATIONS["equilibrium"]]
    per_player = ("under" if stable["minutes_per_player_high"].max() < GUESS else
                  "over" if stable["minutes_per_player_low"].min() > GUESS else "around")
    answer = (f"{good_population(runs, LENGTH_TITLE, LENGTH_QUESTION)} Counting each kind "
              f"of action at its own pace ({pace_text()}; a deal after each round and one "
              f"shuffle a game), a game between good players takes " + ", ".join(
                  f"{minutes(r, 'table_minutes')} minutes at {r['players']} players"
                  for _, r in stable.iterrows()) + " (stable mix, middle pace and, in "
              "brackets, brisk to leisurely), that is " + ", ".join(
                  f"{minutes(r, 'minutes_per_player')}" for _, r in stable.iterrows())
              + f" minutes per player: {per_player} the authors' guess of {GUESS:.0f} "
              f"minutes per player. The range is the pace's, from brisk to leisurely, not a "
              f"statistical interval. The discards, one card each, are "
              f"{discard_shares(stable)}.")
    return answer, table, population_plot(
        frame, "minutes_per_player", "q8-game-length-good", "Minutes per player (good players)",
        "Game length at the table divided by the players, at the middle of the pace model's "
        "range (the bars run from a brisk to a leisurely pace, not a statistical interval; "
        f"the dashed line is the authors' guess of {GUESS:.0f} minutes per player),",
        "minutes per player", reference=GUESS)


def column_rules(runs: Path) -> str:
    stem = "09-column-rules"
    comparisons = load(runs, stem)["comparisons"]
    significant = comparisons[comparisons["significant"]]
    counts = comparisons.groupby("variant")["significant"].agg(["sum", "size"])
    table = pd.DataFrame({"variant (against first-placed, stays)": counts.index,
                          "figures that differ significantly": [
                              f"{int(s)} of {int(n)}" for s, n in counts.to_numpy()]})
    top = significant.reindex(significant["effect_size"].abs().sort_values(
        ascending=False).index).head(6)
    empty = counts.loc["first-discard"]
    answer = (f"Discarding the points card of an empty column instead of keeping it changes "
              f"{int(empty['sum'])} of {int(empty['size'])} figures significantly (columns "
              f"are rarely left empty). The tie rule matters a little: last-placed changes "
              f"{int(counts.loc['last-stays', 'sum'])} figures and nobody "
              f"{int(counts.loc['nobody-stays', 'sum'])}, all by small amounts; bet accuracy "
              f"and seat fairness stay where they are (figure). ")
    answer += "Largest significant differences: " + ("; ".join(
        f"{r['variant']} ({r['group']}): {r['figure']} {r['diff']:+.3g} "
        f"({r['effect']} {r['effect_size']:+.2f})" for _, r in top.iterrows()) or "none") + "."
    cells = load(runs, stem)["cells"]
    greedy = cells[cells["lineup"] == "greedy"]
    fig = grouped_intervals(
        greedy, "variant", "players", "bet_accuracy", name="q9-column-rules",
        title="Bet accuracy under each column rule", percent=True,
        caption="Share of correct bets at tables of greedy bots, with 95% intervals, for each "
                "tie rule (first-placed, last-placed, nobody) and empty-column rule (stays, "
                "discard).", xlabel="column tie rule and empty-column rule",
        ylabel="correct bets (share)")
    return with_contrast(9, COLUMN_TITLE, COLUMN_GOOD, column_rules_good(runs),
                         "Tables of random bots and of greedy bots", answer, table,
                         figure(fig, stem), COLUMN_QUESTION,
                         f"{BOOK.command(COLUMN_GOOD)} (setup: [`experiments/{COLUMN_GOOD}"
                         f".toml`](../../experiments/{COLUMN_GOOD}.toml)); the contrast: "
                         f"{BOOK.command(stem)}.")


COLUMN_TITLE = "Column ties (A4) and empty columns (A3)"
COLUMN_QUESTION = (
    "Two points the text leaves open: who wins a tied column (the first to have placed, the "
    "last, or nobody), and what happens to the points card of a column nobody played in (it "
    "stays for the next round, or is discarded). Do they matter to good players?")
COLUMN_GOOD = "14-column-rules-good"
COLUMN_RULES = {"first-stays": "first-placed, stays", "last-stays": "last-placed, stays",
                "nobody-stays": "nobody, stays", "first-discard": "first-placed, discarded"}


def changes(rows: pd.DataFrame) -> str:
    """Compared figures, as 'bet accuracy bet 2 +5.0 pp (last-placed, stays at 3 players)'."""
    def amount(row: pd.Series) -> str:
        return (f"{100 * row['diff']:+.1f} pp" if row["kind"] == "proportion" else
                f"{row['diff']:+.3g}")
    return ", ".join(f"{r['figure']} {amount(r)} ({COLUMN_RULES[r['variant']]} at "
                     f"{r['group'].split('p-')[0]} players)" for _, r in rows.iterrows())


def column_rules_good(runs: Path) -> tuple[str, pd.DataFrame, str]:
    """The column rules among good players: one search against greedy@tuned under each
    rule, paired deals, every figure compared with the first-placed, stays baseline."""
    data = load(runs, COLUMN_GOOD)
    cells, comparisons = data["cells"], data["comparisons"]
    lineup = f"{SEARCH}+{GOOD_BETTOR}"
    rows = []
    for _, r in cells[cells["lineup"] == lineup].iterrows():
        group = f"{r['players']}p-{lineup}"
        differ = comparisons[(comparisons["group"] == group)
                             & (comparisons["variant"] == r["variant"])]
        search = compared(comparisons, group, r["variant"], f"win share agent {SEARCH}")
        rows.append({"players": r["players"], "tie rule, empty column": COLUMN_RULES[
                         r["variant"]],
                     "the search's win share": interval(r, "lead_win_share"),
                     "against the baseline": difference(search),
                     "bet accuracy against the baseline": difference(compared(
                         comparisons, group, r["variant"], "bet accuracy")),
                     "points cards won by the last bettor": interval(r, "last_bettor_points"),
                     "figures that differ (not negligibly)":
                         "-" if search is None else
                         f"{int((differ['significant'] & ~differ['negligible']).sum())} of "
                         f"{len(differ)}"})
    real = comparisons[comparisons["significant"] & ~comparisons["negligible"]]
    headline = [f"win share agent {SEARCH}", "bet accuracy", "first-player edge"]
    moved = real[real["figure"].isin(headline)]
    others = real[~real["figure"].isin(headline)]
    compared_others = int((~comparisons["figure"].isin(headline)).sum())
    games = int(cells["games"].iloc[0])
    answer = (f"Population: one `{SEARCH}` search ({SEARCH_PLAYS}) against `{GOOD_BETTOR}` at "
              f"3 and 4 players, {games} games under each rule, the same deals (every figure "
              f"of the comparison tested against the first-placed, stays rules, intervals "
              f"Holm-adjusted; a difference below Cohen's h or d = 0.05 is negligible). "
              + (f"Beyond noise: {changes(moved)}. " if len(moved) else
                 "No rule moves the search's win share, the bets' accuracy or the first "
                 "seat's edge beyond noise. ")
              + f"Of the other {compared_others} comparisons, "
              + (f"{len(others)} {'differs' if len(others) == 1 else 'differ'}: "
                 f"{changes(others)}. " if len(others) else
                 "none differs. ")
              + ("" if len(moved) else "Among good players the choice between these "
                 "readings hardly matters: the authors may write the simplest. ")
              + f"With {games} games a rule a few points better or worse for the search "
              f"cannot be ruled out (the intervals in the table).")
    fig = search_edge_figure(with_edge(cells, "lead_win_share").assign(
        variant=lambda f: f["variant"].map(COLUMN_RULES)), "variant", "q9-column-rules-good",
        "The search's edge under each column rule",
        f"under each tie rule and empty-column rule ({games} games each, the same deals)",
        "tie rule, empty column")
    return answer, pd.DataFrame(rows), figure(fig, COLUMN_GOOD)


# --------------------------------------------------------------------------------------
# Among good players: the meta-game and the design search
# --------------------------------------------------------------------------------------
POOL = "ismcts,greedy@tuned,aggressive,cautious"
METAGAME_GAMES = 200
COUNTS = (2, 3, 4)
GOOD_PLAYERS = ("The pool: `ismcts` (a search that plays from what its seat may know, "
                "keeping `greedy@tuned`'s move unless its simulations find a clearly better "
                "one, its discards and hand changes as `greedy@tuned` plays them), "
                "`greedy@tuned` (the greedy strategy with parameters tuned by play), "
                "`aggressive` (waits, bets last and steals columns) and `cautious` (bets "
                "early).")


def metagame_arguments(players: int) -> str:
    """The ``sim.metagame`` arguments of the good players' meta-game, without ``--out``."""
    return f"paris-damis --players {players} --agents {POOL} --games {METAGAME_GAMES}"


def metagame_command(players: int) -> str:
    return (f"`python -m sim.metagame {metagame_arguments(players)} "
            f"--out runs/experiments/metagame-{players}p`")


def metagame(runs: Path, players: int, title: str, question: str) -> dict:
    """The meta-game at ``players`` (NotRun, saying what to run, when it has not run)."""
    path = runs / f"metagame-{players}p" / "metagame.json"
    if not path.is_file():
        raise NotRun(f"metagame-{players}p", title, question, metagame_command(players))
    return json.loads(path.read_text(encoding="utf-8"))


# The populations a good players' figure is given for (sim.analysis.metagame).
POPULATIONS = {"equilibrium": "stable mix", "uniform": "uniform mix of the pool"}
# A share whose upper bound stays below this is "rare" in the text.
RARELY = 0.10
GUESS = 20.0                  # the authors' guess, minutes per player
DECISION_KINDS = ("placement", "bet", "discard", "hand_change")


def good_population(runs: Path, title: str, question: str) -> str:
    """Which players a figure of the good players' meta-games holds for, as a sentence."""
    mixes = "; ".join(f"{stable_text(metagame(runs, k, title, question)['equilibrium'])} at "
                      f"{k} players" for k in COUNTS)
    pool = ", ".join(f"`{agent}`" for agent in POOL.split(","))
    return (f"Population: the good players of question 10 ({pool}, {METAGAME_GAMES} games "
            f"per table of their meta-games), at tables drawn from their stable mix "
            f"({mixes}) and from a uniform mix of the pool.")


def good_commands() -> str:
    """The good players' meta-games, as one line of commands."""
    return " and ".join(metagame_command(k) for k in COUNTS)


def good_tables(runs: Path, players: int, title: str, question: str,
                measure: Callable[[Run], dict[str, float]]
                ) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]]]:
    """``measure`` of each table of the good players' meta-game at ``players`` that the
    stable mix or a uniform mix of the pool seats (with :data:`LEAST_CHANCE` or more), and
    each population's chance of each table (NotRun when the meta-game has not run)."""
    game = metagame(runs, players, title, question)
    tables = sorted({row["lineup"] for row in game["payoff_table"]})
    chances = population_chances(game["equilibrium"], tables, LEAST_CHANCE)
    folder = runs / f"metagame-{players}p"
    return ({t: measure(Run.open(folder / t)) for t in set().union(*chances.values())},
            chances)


def population_plot(frame: pd.DataFrame, value: str, name: str, title: str, what: str,
                    ylabel: str, reference: float | None = None, percent: bool = False) -> str:
    """``value`` by player count in each population of the good players (``frame``:
    players, population, the value and its bounds), saved; ``what`` begins the caption."""
    return saved(grouped_intervals(
        frame, "players", "population", value, name=name, title=title, percent=percent,
        reference=reference, xlabel="players at the table (count)", ylabel=ylabel,
        caption=f"{what} at tables drawn from the good players' stable mix and from a "
                f"uniform mix of the four bots (question 10's meta-games)."))


def saved(fig: Figure) -> str:
    """Save a figure of the meta-games beside the report; its Markdown and caption."""
    fig.save(HERE)
    return f"![{fig.title}]({fig.name}.png)\n\n*{fig.caption}*"


def pp_interval(row: dict, name: str) -> str:
    return f"{100 * row[name]:+.1f} pp [{100 * row[name + '_low']:+.1f}, " \
           f"{100 * row[name + '_high']:+.1f}]"


ORDINALS = {0: "first to play", 1: "second", 2: "third", 3: "fourth"}


def drama(figures: dict) -> str:
    """The snowball, the decisive lead and the lead changes in the stable mix, as text."""
    if not {"snowball", "lead_holds", "lead_changes"} <= set(figures):
        return ""
    ball = ("the extra cards snowball" if figures["snowball_low"] > 0 else
            "no measurable snowball")
    return (f" In the stable mix a correct bet makes the same player's next bet right "
            f"{pp_interval(figures, 'snowball')} more often ({ball}); the sole leader after "
            f"round {figures['lead_after_round']:.0f} goes on to win "
            f"{interval(figures, 'lead_holds')} of its games, and the lead changes "
            f"hands {figures['lead_changes']:.2f} [{figures['lead_changes_low']:.2f}, "
            f"{figures['lead_changes_high']:.2f}] times a game.")


GOOD_SEATS_TITLE = "Seats, skill and luck among good players"
GOOD_SEATS_QUESTION = (
    "Questions 1, 3 and 4 measured seats and skill in tables of copies of one bot, which "
    "mixes the rules with that bot's habits. Asked instead of a population of good players: "
    "which mix of them is stable (nobody gains by switching), is one of them dominant, do "
    "the seats differ among them, and how much is luck when both players are good? At 2 "
    "players too, the only count the authors played: is that game worth keeping?")


def good_seats(runs: Path) -> str:
    games = {k: metagame(runs, k, GOOD_SEATS_TITLE, GOOD_SEATS_QUESTION) for k in COUNTS}
    rows, lines, seat_rows = [], [], []
    for k, g in games.items():
        mix = {m["agent"]: m for m in g["mix"]}
        stable = stable_text(g["equilibrium"])
        line = max(g["mix"], key=lambda m: m["against_uniform"])
        top = g["luck"]["top_two"]
        population = [e for e in g["seat_effects"] if e["population"] == "equilibrium"]
        worst = max(population, key=lambda e: abs(e["edge"]))
        rows.append({
            "players": k, "stable mix (equilibrium)": stable,
            "dominant line: wins in a uniform mix": f"{line['agent']} "
                                                    f"{percent(line['against_uniform'])}",
            "largest seat edge among the stable mix": f"seat {worst['seat']}: "
                                                      f"{pp_interval(worst, 'edge')}",
            "weaker of the two best finishes ahead": f"{top['weaker']}: "
                                                     f"{interval(top, 'upsets')}"})
        dominated = sorted({d["dominates"] for d in g["dominance"]})
        outside = [f"{a} wins {percent(m['against_equilibrium'])}"
                   for a, m in mix.items() if g["equilibrium"][a] < 0.01]
        against = (f"; against it {', '.join(outside)} of its games (fair "
                   f"{percent(1 / k)})" if outside else "")
        lines.append(
            f"At {k} players the stable mix is {stable}{against}. Dominated: "
            f"{', '.join(dominated) or 'none'}. Among the stable mix the seats' edges are "
            + ", ".join(f"seat {e['seat']} {pp_interval(e, 'edge')}" for e in population)
            + "; in a uniformly mixed population "
            + ", ".join(f"seat {e['seat']} {pp_interval(e, 'edge')}"
                        for e in g["seat_effects"] if e["population"] == "uniform")
            + f". Between the two best ({', '.join(top['agents'])}), "
            f"{interval(top, 'luck')} of the variance of a seat's result is luck."
            + drama(g["population_figures"].get("equilibrium", {})))
        seat_rows += [{**e, "population": f"{k} players\n{e['population']}"}
                      for e in g["seat_effects"] if e["population"] in ("equilibrium",
                                                                         "uniform")]
    fig = grouped_intervals(
        pd.DataFrame(seat_rows).assign(seat=lambda f: f["seat"].map(ORDINALS)), "population",
        "seat", "edge", name="q10-seats-good-players", reference=0.0, percent=True,
        title="Seat edges among good players",
        caption="Each seat's win share minus its fair share (a half at 2 players, a third at "
                "3, a quarter at 4), with 95% bootstrap intervals, at tables drawn from the "
                "stable mix (equilibrium) and from a uniform mix of the four bots.",
        xlabel="players and population", ylabel="edge over the fair share (share of games)")
    return section(10, GOOD_SEATS_TITLE, "metagame", " ".join(lines), pd.DataFrame(rows),
                   saved(fig),
                   GOOD_SEATS_QUESTION, f"{good_commands()}, {METAGAME_GAMES} games per table of "
                   f"the pool (docs/metagame.md). {GOOD_PLAYERS}")


STEAL_TITLE = "The stolen column (\"colonne volée\") and dominant strategies"
STEAL_QUESTION = (
    "The authors' story: a player who waits and bets last can steal the columns of those "
    "who bet early. Among copies of one naive bot the last bettor takes most points cards. "
    "Does waiting to steal dominate among good players?")


def steal_rows(runs: Path, players: int, agents: list[str]) -> list[dict]:
    """The steal figures in each mirror table of the pool and in its mixed tables pooled."""
    folder = runs / f"metagame-{players}p"
    rows = []
    mixed = []
    for lineup in sorted(p for p in folder.iterdir() if (p / "manifest.json").is_file()):
        run = Run.open(lineup)
        if len(set(run.agents)) == 1:
            rows.append({"players": players, "tables": f"{run.agents[0]} only",
                         **questions.steal(run)})
        else:
            mixed.append(run)
    rounds = pd.concat([r.rounds_table().assign(game_id=r.rounds_table()["game_id"] + i * 10**6)
                        for i, r in enumerate(mixed)])
    pooled_run = Run(path=folder, manifest={}, games=pd.DataFrame({"game_id": rounds[
        "game_id"].unique()}), players=pd.DataFrame(), rounds=rounds, label="mixed")
    rows.append({"players": players, "tables": "mixed tables of the pool",
                 **questions.steal(pooled_run)})
    return rows


def steal_section(runs: Path) -> str:
    games = {k: metagame(runs, k, STEAL_TITLE, STEAL_QUESTION) for k in COUNTS}
    rows = [row for k, g in games.items() for row in steal_rows(runs, k, g["agents"])]
    frame = pd.DataFrame(rows)
    table = pd.DataFrame({"players": frame["players"], "tables": frame["tables"],
                          "points cards won by the last bettor": intervals(
                              frame, "last_bettor_points"),
                          "rounds one player sweeps": intervals(frame, "sweeps")})
    lines = []
    for k, g in games.items():
        at = frame[frame["players"] == k].set_index("tables")
        mix = {m["agent"]: m for m in g["mix"]}
        stealer = mix["aggressive"]
        lines.append(
            f"At {k} players the last bettor wins "
            f"{interval(at.loc['ismcts only'], 'last_bettor_points')} of the points cards "
            f"at tables of the search, "
            f"{interval(at.loc['greedy@tuned only'], 'last_bettor_points')} at tables of "
            f"greedy@tuned and {interval(at.loc['aggressive only'], 'last_bettor_points')} at "
            f"tables of aggressive (a fair split would be {percent(1 / k)}). The waiting "
            f"stealer, aggressive, has weight {100 * stealer['weight']:.0f}% in the stable "
            f"mix and wins {percent(stealer['against_equilibrium'])} of its games against it "
            f"(fair {percent(1 / k)}).")
    dominant = [d for k, g in games.items() for d in g["dominance"]]
    verdict = ("No strategy of the pool dominates every other at either player count"
               if not any(sum(1 for d in g["dominance"] if d["agent"] == a)
                          == len(g["agents"]) - 1 for g in games.values()
                          for a in g["agents"]) else
               "A strategy of the pool dominates every other")
    searches = frame[frame["tables"] == "ismcts only"]
    edge = all(r["last_bettor_points_low"] > 1 / r["players"] for _, r in searches.iterrows())
    closing = (
        ("Betting last keeps a real edge among good players (at tables of the search the "
         "last bettor still wins more than its fair share of the points cards), but it no "
         "longer sweeps whole rounds (" + ", ".join(
             f"{interval(r, 'sweeps')} of rounds at {r['players']} players"
             for _, r in searches.iterrows()) + "), and waiting as a strategy is not stable: "
         "the stolen column is a feature of the rules that good players share, not a "
         "dominant strategy.") if edge else
        "Among good players the last bettor wins no more than its fair share of the points "
        "cards: the stolen column is a habit of the naive bots.")
    answer = (" ".join(lines) + f" {verdict}; {len(dominant)} dominance relations hold "
              f"between pairs of bots (question 10's tables). {closing}")
    return section(11, STEAL_TITLE, "metagame", answer, table, "", STEAL_QUESTION,
                   "the meta-games of question 10 (the tables are their lineups' runs; "
                   "figures from `sim.analysis.questions.steal`).")


DESIGN_TITLE = "Rules the design search proposes"
DESIGN_QUESTION = (
    "Which reward table (A1), discard rule (A5), jokers (A7) and column rules (A3, A4) make "
    "the game fair at 3 and 4 players, reward good play and keep it short?")
DESIGN_COMMAND = ("`python -m sim.design experiments/design-paris-damis.toml --out "
                  "runs/experiments/design-paris-damis`")


def design_section(runs: Path) -> str:
    path = runs / "design-paris-damis" / "design.json"
    if not path.is_file():
        raise NotRun("design-paris-damis", DESIGN_TITLE, DESIGN_QUESTION, DESIGN_COMMAND)
    answers = json.loads(path.read_text(encoding="utf-8"))
    settings = answers["settings"]
    sets = pd.DataFrame(answers["rule_sets"])
    table = pd.DataFrame({
        "rule set": sets["rule_set"], "changes from the defaults": sets["changes"],
        "seat unfairness (pp)": [f"{100 * r['seat_unfairness']:.1f} "
                                 f"[{100 * r['seat_unfairness_low']:.1f}, "
                                 f"{100 * r['seat_unfairness_high']:.1f}]"
                                 for _, r in sets.iterrows()],
        "skill (best bot's edge, pp)": [f"{100 * r['skill']:+.1f} "
                                        f"[{100 * r['skill_low']:+.1f}, "
                                        f"{100 * r['skill_high']:+.1f}]"
                                        for _, r in sets.iterrows()],
        "decisions per game": [f"{r['length']:.0f} [{r['length_low']:.0f}, "
                               f"{r['length_high']:.0f}]" for _, r in sets.iterrows()],
        "still on the front": sets["on_front"].map({True: "yes", False: "no"})})
    base = sets.iloc[0]
    front = sets.iloc[1:][sets.iloc[1:]["on_front"]]
    shortest = front.loc[front["length"].idxmin()]
    skilled = front.loc[front["skill"].idxmax()]
    answer = (
        f"{answers['trials']} rule sets were tried on {settings['games_per_trial']:,} games "
        f"per player count in mixed tables of {', '.join(settings['agents'])}, each scored "
        f"at its worst player count (skill: how far the best bot's win share is above its "
        f"fair share); the front was played again on "
        f"{settings['final_games']:,} fresh games beside the defaults. Seats stay within "
        f"{100 * front['seat_unfairness_high'].max():.1f} pp of fair on the whole front, as "
        f"under the defaults ({100 * base['seat_unfairness']:.1f} pp), so the choice is "
        f"between skill and length. The shortest game ({shortest['rule_set']}: "
        f"{shortest['changes']}) takes {shortest['length']:.0f} decisions instead of "
        f"{base['length']:.0f} with skill {100 * shortest['skill']:+.1f} pp against "
        f"{100 * base['skill']:+.1f}; the most skilful ({skilled['rule_set']}: "
        f"{skilled['changes']}) raises the best bot's edge to {100 * skilled['skill']:+.1f} "
        f"pp at {skilled['length']:.0f} decisions. These hold for the heuristic bots the "
        f"search can afford; the rule sets it proposes are played again among good "
        f"players below.")
    good_answer, good_table, good_figure = design_good(runs, sets)
    return section(12, DESIGN_TITLE, "design-paris-damis", answer + " " + good_answer, table,
                   "**Among good players** (one search against greedy@tuned):\n\n"
                   + markdown(good_table) + "\n\n"
                   + good_figure, DESIGN_QUESTION, f"{DESIGN_COMMAND} (setup: "
                   f"[`experiments/design-paris-damis.toml`]"
                   f"(../../experiments/design-paris-damis.toml); docs/design.md); among good "
                   f"players: {BOOK.command(DESIGN_GOOD)} (setup: [`experiments/"
                   f"{DESIGN_GOOD}.toml`](../../experiments/{DESIGN_GOOD}.toml)).")


# A proposal promises more skill when the fast bots' best edge exceeds the defaults' by this.
SKILL_GAIN = 0.05


def design_good(runs: Path, proposals: pd.DataFrame) -> tuple[str, pd.DataFrame, str]:
    """The design search's proposals played among good players (one search against
    greedy@tuned, the same deals under each rule set): seats, the search's edge and length
    at 3 and 4 players, and whether each keeps what it was proposed for (shorter, or more
    skill) with fair seats."""
    data = load(runs, DESIGN_GOOD)
    cells = with_edge(data["cells"], "lead_win_share")
    comparisons = data["comparisons"]
    rows, verdicts = [], []
    base_length = proposals.iloc[0]["length"]
    base_skill = proposals.iloc[0]["skill"]
    for name, at in cells.groupby("variant", sort=False):
        proposed = proposals[proposals["rule_set"].str.replace(" ", "-") == name]
        promises = [] if proposed.empty else (
            (["shorter"] if proposed.iloc[0]["length"] < 0.9 * base_length else [])
            + (["more skill"] if proposed.iloc[0]["skill"] > base_skill + SKILL_GAIN
               else []))
        claims = []
        for _, cell in at.iterrows():
            group = f"{cell['players']}p-{cell['lineup']}"
            search = compared(comparisons, group, name, f"win share agent {SEARCH}")
            length = compared(comparisons, group, name, "mean decisions")
            rows.append({
                "rule set": name, "players": cell["players"],
                "first seat's edge": interval(cell, "first_player_edge", "pp"),
                "the search's edge over its fair share": interval(
                    cell, "lead_win_share_edge", "pp"),
                "its win share against the defaults": difference(search),
                "decisions per game": f"{cell['mean_decisions']:.0f}",
                "against the defaults": difference(length, 1.0, "")})
            if search is None:
                continue
            fair = cell["first_player_edge_low"] <= 0 <= cell["first_player_edge_high"]
            shorter = length is not None and length["high_adj"] < 0 and \
                word_for(length) == "significant"
            skill = word_for(search) == "significant" and search["diff"] > 0
            claims.append((cell["players"], fair, shorter, skill))
        if name == cells["variant"].iloc[0]:
            continue
        kept = all(fair and ("shorter" not in promises or shorter)
                   and ("more skill" not in promises or skill)
                   for _, fair, shorter, skill in claims)
        verdicts.append(
            f"{name} (proposed as {' and '.join(promises) or 'a trade-off'}) "
            f"{'holds' if kept else 'is not confirmed'} ("
            + "; ".join(f"{k} players: seats {'fair' if fair else 'unfair'}, "
                        f"{'shorter' if shorter else 'not shorter'}, the search "
                        f"{'gains' if skill else 'gains nothing significant'}"
                        for k, fair, shorter, skill in claims) + ")")
    games = int(cells["games"].iloc[0])
    answer = (f"**Among good players**, one `{SEARCH}` search against `{GOOD_BETTOR}`, "
              f"{games} games per rule set and player count, the same deals under each: a "
              f"proposal holds when the first seat shows no significant edge at 3 and 4 "
              f"players and it keeps what it was proposed for (with the fast bots: at "
              f"least 10% fewer decisions, or the best bot's edge {100 * SKILL_GAIN:.0f} pp "
              f"above the defaults'), here significantly fewer decisions (a shorter game) "
              f"or a significantly larger win share for the search (good play paying more) "
              f"than under the defaults. "
              + "; ".join(verdicts) + f". With {games} games per cell the seat and skill "
              f"intervals are wide (about ±10 pp), so \"holds\" on skill needs a large "
              f"gain; length is measured far more precisely.")
    fig = search_edge_figure(cells, "variant", "q12-proposals-search",
                             "The search's edge under each proposed rule set",
                             f"under the defaults and each rule set the design search "
                             f"proposed ({games} games each, the same deals): how much good "
                             f"play pays among good players", "rule set")
    return answer, pd.DataFrame(rows), figure(fig, DESIGN_GOOD)


DECISIONS_TITLE = "Decisions that matter among good players, and the trump"
DECISIONS_QUESTION = (
    "The trump cycles through the suits in a fixed order, so every player knows it in "
    "advance. Does the game still leave real choices among good players, and do they "
    "change with the trump?")
JUDGED = "metagame-3p/ismcts+ismcts+ismcts"
JUDGED_GAMES = 12


def decisions_section(runs: Path) -> str:
    folder = runs / JUDGED
    command = (f"`python -m sim.decisions runs/experiments/{JUDGED} --games {JUDGED_GAMES}`")
    judged = results.read_decisions(folder) if folder.is_dir() else None
    if judged is None:
        raise NotRun("decisions", DECISIONS_TITLE, DECISIONS_QUESTION, command)
    table, settings = judged
    trumps = Run.open(folder).rounds_table()[["game_id", "round", "trump"]].drop_duplicates()
    table = table.merge(trumps, on=["game_id", "round"])
    overall = decisions_that_matter(table)
    shares = matter_by(table, "trump")
    rows = pd.concat([overall["by_phase"].rename(columns={"phase": "value"}).assign(by="phase"),
                      shares.rename(columns={"trump": "value"}).assign(by="trump")])
    frame = pd.DataFrame({
        "by": rows["by"], "phase or trump": rows["value"],
        "decisions": rows["decisions"].map(lambda n: f"{n:,}"),
        "that matter": [f"{percent(r.matters)} [{100 * r.low:.1f}, {100 * r.high:.1f}]"
                        for r in rows.itertuples()]})
    overlap = shares["low"].max() <= shares["high"].min()
    answer = (
        f"At tables of three searches (the stable mix at 3 players), a judge that tries "
        f"every legal move {settings['tries']} times finds one clearly better (by at least "
        f"{100 * overall['margin']:g} pp of win share) in "
        f"{percent(overall['matters'])} [{100 * overall['matters_low']:.1f}, "
        f"{100 * overall['matters_high']:.1f}] of the {overall['decisions']:,} decisions "
        f"with a choice in {overall['games']} games. By trump the share runs from "
        f"{share_range(shares['matters'])}: "
        + ("the intervals overlap, so the trump does not change how often a choice "
           "matters" if overlap else "the trump changes how often a choice matters")
        + ". The judge's own simulations play on at random, so this is a floor on the "
          "choices that matter, not a measure of them among experts (docs/analysis.md).")
    return section(13, DECISIONS_TITLE, "decisions", answer, frame, "", DECISIONS_QUESTION,
                   f"{command} (docs/analysis.md, decisions that matter).")


# --------------------------------------------------------------------------------------
# Rule sets among good players: meta-games of the fast good players under each rule set
# --------------------------------------------------------------------------------------
RULES_POOL = "greedy@tuned,aggressive,cautious"
RULES_GAMES = 2000
RULES_BOOTSTRAP = 100
RULES_COUNTS = (3, 4)
SEARCH_RULES, DESIGN_GOOD = "12-search-rules", "13-design-good"


def rule_value(value: object) -> str:
    """A rule parameter's value as ``--variant`` takes it (a list comma-separated)."""
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return str(value)


def rule_sets() -> dict[str, dict]:
    """The rule sets played by the meta-games of the fast good players, by name: the
    defaults and the joker variants of the search's experiment (their parameters are read
    from that experiment file)."""
    sets: dict[str, dict] = {"defaults": {}}
    for variant in BOOK.experiment(SEARCH_RULES)["variants"]:
        if variant.get("params", {}).get("jokers"):
            sets[variant["name"]] = variant["params"]
    return sets


def rules_folder(name: str, players: int) -> str:
    return f"metagame-rules-{name}-{players}p"


RULES_ANALYSIS = f"--bootstrap {RULES_BOOTSTRAP}"   # given again to a resume


def rules_arguments(name: str, players: int, analysis: str = "") -> str:
    """The ``sim.metagame`` arguments of one rule set's meta-game, without ``--out``, with
    the analysis settings given (:data:`RULES_ANALYSIS`) before the variants."""
    variants = "".join(f" --variant {key}={rule_value(value)}"
                       for key, value in rule_sets()[name].items())
    return (f"paris-damis --players {players} --agents {RULES_POOL} --games {RULES_GAMES}"
            f"{' ' + analysis if analysis else ''}{variants}")


def rules_command(name: str, players: int) -> str:
    return (f"`python -m sim.metagame {rules_arguments(name, players, RULES_ANALYSIS)} "
            f"--out runs/experiments/{rules_folder(name, players)}`")


def metagame_lines(runs: Path) -> list[str]:
    """``OUT|ARGUMENTS|ANALYSIS`` of every meta-game the report reads, for ``make
    paris-report``: the good players' at each count, then each rule set's (a resume keeps the
    settings of ARGUMENTS and is given ANALYSIS again)."""
    return ([f"{runs / f'metagame-{k}p'}|{metagame_arguments(k)}|" for k in COUNTS]
            + [f"{runs / rules_folder(name, k)}|{rules_arguments(name, k)}|{RULES_ANALYSIS}"
               for name in rule_sets() for k in RULES_COUNTS])


SECTIONS: list[Callable[[Path], str]] = [seat_fairness, reward_table, jokers, discard,
                                         odd_hand, hand_change, scoring, game_length,
                                         column_rules, good_seats, steal_section,
                                         design_section, decisions_section]


def build(runs: Path) -> Path:
    """Write README.md (the summary from summary.md, then every question) and the figures."""
    summary = (HERE / "summary.md").read_text(encoding="utf-8")
    return BOOK.build(runs, SECTIONS, "paris-report", summary)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--metagames"]:
        print("\n".join(metagame_lines(Path("runs/experiments"))))
        return 0
    return BOOK.main(argv, __doc__.split("\n\n")[0], build)


if __name__ == "__main__":
    sys.exit(main())
