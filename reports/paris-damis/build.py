"""Build the Paris d'amis balance report, ``reports/paris-damis/README.md`` and its figures,
from the outputs of the experiments in ``experiments/`` (``runs/experiments/<name>/``).

    make paris-report                      # plays what is missing, then builds
    python reports/paris-damis/build.py    # builds from finished experiments

Every number is read from an experiment's tables (cells.csv, comparisons.csv,
tournaments.csv); each section prints the command that reproduces them.  Sentences that
depend on a number (significant or not, which variant is best) are derived from the numbers,
so a rebuild never contradicts its tables; the recommendations and the summaries in
``summary.md`` (English and French) are the authors-facing reading of those numbers.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from sim.analysis.book import Book, interval, intervals, markdown, with_edge
from sim.analysis.figures import grouped_intervals
from sim.report import percent

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BOOK = Book(HERE, ROOT / "experiments")
load, figure, section = BOOK.load, BOOK.figure, BOOK.section


def verdict_against(row: pd.Series, base: pd.Series, name: str) -> str:
    """'more than', 'less than' or 'no different from' the baseline, when the two 95%
    intervals do not overlap (a conservative reading)."""
    if row[f"{name}_low"] > base[f"{name}_high"]:
        return "more than without jokers"
    if row[f"{name}_high"] < base[f"{name}_low"]:
        return "less than without jokers"
    return "no different from without jokers"


# --------------------------------------------------------------------------------------
# The questions
# --------------------------------------------------------------------------------------
def seat_fairness(runs: Path) -> str:
    stem = "01-seat-fairness"
    cells = load(runs, stem)["cells"]
    table = pd.DataFrame({
        "players": cells["players"], "bots": cells["lineup"],
        "first seat's edge over 1/K": intervals(cells, "first_player_edge", "pp"),
        "all seats equal (chi-square p)": cells["seat_equality_p"].map(lambda p: f"{p:.3f}")})
    unfair = cells[(cells["first_player_edge_low"] > 0) | (cells["first_player_edge_high"] < 0)]
    worst = cells.loc[cells["first_player_edge"].abs().idxmax()]
    answer = (f"The first seat's edge is significant in {len(unfair)} of {len(cells)} "
              f"tables. The largest is {interval(worst, 'first_player_edge', 'pp')} at "
              f"{worst['players']} players with {worst['lineup']} bots.")
    if len(unfair):
        answer += " Significant edges: " + "; ".join(
            f"{r['players']} players, {r['lineup']}: {interval(r, 'first_player_edge', 'pp')}"
            for _, r in unfair.iterrows()) + "."
    fig = grouped_intervals(
        cells, "players", "lineup", "first_player_edge", name="q1-first-player-edge",
        title="First player's edge", reference=0.0, percent=True,
        caption="Win share of the seat that starts round 1 minus the fair share 1/K, with "
                "95% intervals, for tables of four kinds of bots.",
        xlabel="players at the table (count)", ylabel="edge over 1/K (share of games)")
    return section(1, "Seat fairness at 2, 3 and 4 players", stem, answer, table,
                   figure(fig, stem))


def reward_table(runs: Path) -> str:
    stem = "02-reward-table"
    cells = with_edge(load(runs, stem)["cells"], "lead_win_share")
    mixed = cells[cells["lineup"] == "greedy+random"]
    alone = cells[cells["lineup"] == "greedy"].set_index(["variant", "players"])
    rows = []
    for _, r in mixed.iterrows():
        same = alone.loc[(r["variant"], r["players"])]
        rows.append({"table": r["variant"], "players": r["players"],
                     "greedy's edge over 1/K (vs random)": interval(r, "lead_win_share_edge",
                                                                    "pp"),
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
    fig = grouped_intervals(
        mixed, "variant", "players", "lead_win_share_edge", name="q2-reward-table",
        title="What a good bettor gains under each reward table", reference=0.0,
        percent=True, caption="Win share of one greedy bot among random bots minus the fair "
                              "share 1/K, with 95% intervals, for each reward table.",
        xlabel="reward table for a correct bet", ylabel="greedy's edge (share of games)")
    return section(2, "The reward table for correct bets (A1)", stem, answer,
                   pd.DataFrame(rows), figure(fig, stem))


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
        title="Luck with and without jokers", reference=0.5, percent=True,
        caption="Share of head-to-head comparisons won by the lower-rated of two bots (4 "
                "players, random and three strategy bots), with 95% intervals; 50% would be "
                "pure chance.", xlabel="joker variant", ylabel="upsets (share of comparisons)")
    return section(3, "Jokers (A7)", stem, answer, table, figure(fig, stem))


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
    answer += ("Skill and luck by rule (4 players): " + "; ".join(
        f"{v}: depth {int(luck.loc[v, 'chain_length'])}, upsets "
        f"{interval(luck.loc[v], 'luck')}" for v in luck.index) + ".")
    greedy = cells[cells["lineup"] == "greedy"]
    fig = grouped_intervals(
        greedy, "variant", "players", "short_games", name="q4-discard-shortage",
        title="Deck shortages by discard rule", percent=True,
        caption="Share of games in which the deck could not give every player the new cards "
                "owed, with 95% intervals, for tables of greedy bots.",
        xlabel="discard rule", ylabel="games with a short deal (share)")
    return section(4, "The discard rule (A5)", stem, answer, pd.DataFrame(rows),
                   markdown(tournament_rows(tournaments)) + "\n\n" + figure(fig, stem))


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
    return section(5, "Is ending a round with an odd hand better?", stem, answer, table,
                   figure(fig, stem))


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
    return section(6, "The hand change (A6)", stem, answer, pd.DataFrame(rows),
                   figure(fig, stem))


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
    return section(7, "Lowest-suit scoring against the total (A9)", stem, answer, table,
                   figure(fig, stem))


def game_length(runs: Path) -> str:
    stem = "08-game-length"
    cells = load(runs, stem)["cells"]
    pace = cells["seconds_per_decision"].iloc[0]
    table = pd.DataFrame({
        "players": cells["players"], "bots": cells["lineup"],
        "decisions per player": cells["mean_decisions_per_player"].map(lambda v: f"{v:.0f}"),
        "game (minutes)": intervals(cells, "table_minutes", "plain"),
        "per player (minutes)": intervals(cells, "minutes_per_player", "plain")})
    answer = (f"At {pace:.0f} s per decision a game takes "
              f"{cells['minutes_per_player'].min():.0f} to "
              f"{cells['minutes_per_player'].max():.0f} minutes per player.")
    fig = grouped_intervals(
        cells, "players", "lineup", "minutes_per_player", name="q8-game-length",
        reference=20.0, title="Minutes per player",
        caption=f"Game length divided by the players, at an assumed {pace:.0f} seconds per "
                "decision, with 95% intervals; the dashed line is the authors' 20 minutes.",
        xlabel="players at the table (count)", ylabel="minutes per player")
    return section(8, "Game length", stem, answer, table, figure(fig, stem))


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
    return section(9, "Column ties (A4) and empty columns (A3)", stem, answer, table,
                   figure(fig, stem))


SECTIONS: list[Callable[[Path], str]] = [seat_fairness, reward_table, jokers, discard,
                                         odd_hand, hand_change, scoring, game_length,
                                         column_rules]


def build(runs: Path) -> Path:
    """Write README.md (the summary from summary.md, then every question) and the figures."""
    summary = (HERE / "summary.md").read_text(encoding="utf-8")
    return BOOK.build(runs, SECTIONS, "paris-report", summary)


def main(argv: list[str] | None = None) -> int:
    return BOOK.main(argv, __doc__.split("\n\n")[0], build)


if __name__ == "__main__":
    sys.exit(main())
