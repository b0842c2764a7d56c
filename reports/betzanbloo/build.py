"""Build the Betzanbloo report, ``reports/betzanbloo/README.md`` and its figures, from the
outputs of ``experiments/betzanbloo-*.toml`` (``runs/experiments/<name>/``).

    make betzanbloo-report                 # plays what is missing, then builds
    python reports/betzanbloo/build.py     # builds from finished experiments

Every number is read from an experiment's cells.csv; each section prints the command that
reproduces it, and every sentence that depends on a number is derived from it, so a rebuild
never contradicts its tables.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from sim.analysis.book import Book, interval, intervals, long_form, markdown, share_range, with_edge
from sim.analysis.figures import grouped_intervals
from sim.report import percent

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BOOK = Book(HERE, ROOT / "experiments")
PLAYERS, RESPONSE = "betzanbloo-players", "betzanbloo-best-response"
CASES = {"all-same": "all in one camp (every card saved)",
         "lone": "one player alone (saves, captures)",
         "split": "split (every card lost)"}
QUESTIONS = {
    1: "How are final scores spread, how often is a win shared, and is every seat's win rate "
       "fair, at 3 to 8 players?",
    2: "How often does a turn end with every card in one camp, with one player alone, or "
       "split, by threshold card and by turn?",
    3: "What is being the lone player worth, and how often do captures happen?",
    4: "How does a contrarian bot fare against safe bots, and what is the best response (and "
       "its payoff) against each fixed bot population?"}
USUAL = 5            # the engine's default table, used for the by-threshold and by-turn views


def plain(value: float) -> str:
    return f"{value:.1f}"


def scores(runs: Path) -> str:
    cells = BOOK.load(runs, PLAYERS)["cells"]
    table = pd.DataFrame({
        "players": cells["players"], "bots": cells["lineup"],
        "mean score": intervals(cells, "mean_score", "plain"),
        "winner's score": intervals(cells, "winning_score", "plain"),
        "spread: sd (5th-95th pct)": [f"{r['score_sd']:.1f} ({r['score_p5']:.0f}-"
                                      f"{r['score_p95']:.0f})" for _, r in cells.iterrows()],
        "shared wins": intervals(cells, "shared_win"),
        "first seat's edge over 1/K": intervals(cells, "first_player_edge", "pp"),
        "seats equal (chi-square p)": cells["seat_equality_p"].map(lambda p: f"{p:.3f}")})
    rand = cells[cells["lineup"] == "random"].set_index("players")
    resp = cells[cells["lineup"] == "responder"].set_index("players")
    low, high = rand.index.min(), rand.index.max()
    unfair = cells[(cells["first_player_edge_low"] > 0) | (cells["first_player_edge_high"] < 0)]
    answer = (
        f"With random players a player ends with {plain(rand.loc[low, 'mean_score'])} points "
        f"on average at {low} players and {plain(rand.loc[high, 'mean_score'])} at {high} "
        f"players, and the winner with {plain(rand.loc[low, 'winning_score'])} and "
        f"{plain(rand.loc[high, 'winning_score'])}: the more players, the more turns end "
        f"split with every card lost (section 2), so scores fall and their spread narrows "
        f"(standard deviation {plain(rand.loc[low, 'score_sd'])} to "
        f"{plain(rand.loc[high, 'score_sd'])}). Wins are shared in "
        f"{percent(rand.loc[low, 'shared_win'])} of games at {low} players and "
        f"{percent(rand.loc[high, 'shared_win'])} at {high}. The first seat's win rate differs "
        f"significantly from its fair share 1/K in {len(unfair)} of {len(cells)} tables "
        f"(seats choose at the same time, so the order should not matter). Tables of "
        f"responder bots score {plain(resp['mean_score'].min())} to "
        f"{plain(resp['mean_score'].max())} and share the win in "
        f"{share_range(resp['shared_win'])} of games: with the same cards and the same "
        f"reasoning they play alike, and their turns end with every card in one camp in "
        f"{share_range(resp['case_all-same'])} of turns.")
    figures = [grouped_intervals(
        cells, "players", "lineup", "mean_score", name="q1-mean-score",
        title="Mean final score by player count",
        caption="Mean final score of a player (card values saved and captured), with 95% "
                "intervals, for tables of random and of responder bots.",
        xlabel="players at the table (count)", ylabel="final score (points)"),
        grouped_intervals(
        cells, "players", "lineup", "shared_win", name="q1-shared-wins", percent=True,
        title="Games with a shared win",
        caption="Share of games in which several players tie for the highest score, with 95% "
                "intervals.", xlabel="players at the table (count)",
        ylabel="games with a shared win (share)")]
    extra = "\n\n".join(BOOK.figure(f, PLAYERS) for f in figures)
    return BOOK.section(1, "Scores and wins by player count", PLAYERS, answer, table, extra,
                        QUESTIONS[1])


def case_frame(cells: pd.DataFrame, by: str) -> pd.DataFrame:
    """The share of turns of each case by ``by`` (threshold or round), one row per (cell,
    case, value), for the random tables."""
    parts = [long_form(cells, f"case_{case}_{by}", by, ["players", "lineup"]).assign(case=case)
             for case in CASES]
    return pd.concat(parts, ignore_index=True)


def case_table(frame: pd.DataFrame, by: str, label: str) -> pd.DataFrame:
    wide = frame.pivot(index=by, columns="case", values=["value", "value_low", "value_high"])
    rows = {label: wide.index}
    for case in CASES:
        rows[case] = [interval(pd.Series({"v": wide.loc[i, ("value", case)],
                                          "v_low": wide.loc[i, ("value_low", case)],
                                          "v_high": wide.loc[i, ("value_high", case)]}), "v")
                      for i in wide.index]
    return pd.DataFrame(rows)


def cases(runs: Path) -> str:
    cells = BOOK.load(runs, PLAYERS)["cells"]
    rand = cells[cells["lineup"] == "random"]
    usual = rand[rand["players"] == USUAL]
    by_threshold = case_frame(usual, "threshold")
    by_turn = case_frame(usual, "round")
    overall = pd.DataFrame({"players": rand["players"], **{
        case: intervals(rand, f"case_{case}") for case in CASES}})
    row = usual.iloc[0]
    lone = by_threshold[by_threshold["case"] == "lone"].set_index("threshold")
    same = by_threshold[by_threshold["case"] == "all-same"].set_index("threshold")
    turn_lone = by_turn[by_turn["case"] == "lone"]
    turn_effect = ("all six intervals overlap, so the turn makes no detectable difference"
                   if turn_lone["value_low"].max() <= turn_lone["value_high"].min() else
                   "some intervals do not overlap, so the turn matters")
    split = rand.set_index("players")["case_split"]
    trend = "grows with every extra player" if split.is_monotonic_increasing else \
        "does not grow steadily with the table"
    answer = (
        f"With {USUAL} random players, {percent(row['case_all-same'])} of turns end with every "
        f"card in one camp, {percent(row['case_lone'])} with one player alone and "
        f"{percent(row['case_split'])} split. By threshold card, all cards fall in one camp "
        f"most often at {same['value'].idxmax()} ({percent(same['value'].max())} of turns) "
        f"and least often at {same['value'].idxmin()} ({percent(same['value'].min())}); a "
        f"lone player is most frequent at {lone['value'].idxmax()} "
        f"({percent(lone['value'].max())}) and least at {lone['value'].idxmin()} "
        f"({percent(lone['value'].min())}). By turn, the lone case ranges from "
        f"{percent(turn_lone['value'].min())} to {percent(turn_lone['value'].max())}: "
        f"{turn_effect}. The split case (every card lost) {trend}: "
        f"{percent(split.iloc[0])} at {split.index[0]} players, {percent(split.iloc[-1])} at "
        f"{split.index[-1]}.")
    figures = [grouped_intervals(
        by_threshold, "threshold", "case", "value", name="q2-cases-by-threshold",
        percent=True, title=f"How turns resolve, by threshold ({USUAL} players)",
        caption=f"Share of turns ending in each case by threshold card, {USUAL} random "
                "players, with 95% intervals.", xlabel="threshold card",
        ylabel="turns (share)"),
        grouped_intervals(
        by_turn, "round", "case", "value", name="q2-cases-by-turn", percent=True,
        title=f"How turns resolve, by turn ({USUAL} players)",
        caption=f"Share of turns ending in each case by turn number, {USUAL} random players, "
                "with 95% intervals.", xlabel="turn", ylabel="turns (share)")]
    extra = (f"By threshold card ({USUAL} random players):\n\n"
             f"{markdown(case_table(by_threshold, 'threshold', 'threshold'))}\n\n"
             f"By turn ({USUAL} random players):\n\n"
             f"{markdown(case_table(by_turn, 'round', 'turn'))}\n\n"
             + "\n\n".join(BOOK.figure(f, PLAYERS) for f in figures))
    return BOOK.section(2, "The three resolution cases", PLAYERS, answer, overall, extra,
                        QUESTIONS[2])


def lone(runs: Path) -> str:
    cells = BOOK.load(runs, PLAYERS)["cells"]
    table = pd.DataFrame({
        "players": cells["players"], "bots": cells["lineup"],
        "turns with a capture": intervals(cells, "case_lone"),
        "games with a capture": intervals(cells, "games_with_capture"),
        "points kept by the lone player": intervals(cells, "lone_turn_points", "plain"),
        "points kept by any player": intervals(cells, "turn_points", "plain"),
        "win share per lone turn": intervals(cells, "lone_win_share", "pp")})
    rand = cells[cells["lineup"] == "random"].set_index("players")
    resp = cells[cells["lineup"] == "responder"]
    usual = rand.loc[USUAL]
    pays = ("Being alone pays" if usual["lone_turn_points_low"] > usual["turn_points_high"]
            else "Being alone pays no more than an average turn")
    answer = (
        f"{pays}. With {USUAL} random players the lone player keeps "
        f"{plain(usual['lone_turn_points'])} points in that turn (its own card plus the "
        f"captured one) against {plain(usual['turn_points'])} for an average player-turn, and "
        f"each lone turn adds {100 * usual['lone_win_share']:.1f} percentage points to the "
        f"chance of winning the game. Captures happen in "
        f"{percent(rand['case_lone'].min())} to {percent(rand['case_lone'].max())} of turns "
        f"with random players (most at {rand['case_lone'].idxmax()} players, fewest at "
        f"{rand['case_lone'].idxmin()}), and in "
        f"{percent(rand['games_with_capture'].min())} or more of games. Responder tables "
        + ("never capture."
           if resp["case_lone"].max() == 0 else
           f"capture in at most {percent(resp['case_lone'].max())} of turns."))
    fig = grouped_intervals(
        cells, "players", "lineup", "lone_win_share", name="q3-lone-value", percent=True,
        title="What one lone turn is worth",
        caption="Increase in a player's win share for each turn it was the lone player "
                "(least squares, game-clustered 95% intervals).",
        xlabel="players at the table (count)", ylabel="win share per lone turn")
    return BOOK.section(3, "The lone player and captures", PLAYERS, answer, table,
                        BOOK.figure(fig, PLAYERS), QUESTIONS[3])


def response_cells(runs: Path) -> pd.DataFrame:
    """The best-response cells with the lead bot's edge over 1/K, the lead ``bot`` and the
    population it plays ``against``."""
    cells = with_edge(BOOK.load(runs, RESPONSE)["cells"], "lead_win_share")
    split = cells["lineup"].str.split("+")
    return cells.assign(bot=split.str[0], against=split.str[1])


def best_response(runs: Path) -> str:
    cells = response_cells(runs)
    table = pd.DataFrame({
        "players": cells["players"], "one bot": cells["bot"], "the others": cells["against"],
        "its edge over 1/K": intervals(cells, "lead_win_share_edge", "pp"),
        "its score minus the others'": intervals(cells, "lead_score_diff", "plain")})
    lines = "; ".join(best_responses(cells))
    duel = cells[(cells["bot"] == "contrarian") & (cells["against"] == "safe")]
    answer = (
        "A contrarian among safe bots: " + "; ".join(
            f"{r['players']} players, win share {interval(r, 'lead_win_share')} against a "
            f"fair {percent(1 / r['players'])}" for _, r in duel.iterrows())
        + ". Best responses to each population (the bot with the highest win share when "
          "seated alone among it, and any other whose interval reaches it): "
          f"{lines}. {exploitable(cells)} {stability(cells)}")
    usual = cells[cells["players"] == USUAL]
    fig = grouped_intervals(
        usual, "against", "bot", "lead_win_share_edge", name="q4-best-response",
        reference=0.0, percent=True, title=f"One bot against a population ({USUAL} players)",
        caption=f"Win share of one bot seated with {USUAL - 1} copies of another, minus the "
                "fair share 1/K, with 95% intervals.",
        xlabel="the other players' bot", ylabel="edge over 1/K (share of games)")
    return BOOK.section(4, "Best responses: contrarian, safe and the others", RESPONSE, answer,
                        table, BOOK.figure(fig, RESPONSE), QUESTIONS[4])


def best_responses(cells: pd.DataFrame) -> list[str]:
    """Per (players, population), the bots whose win share is not significantly below the
    best's, with their edge over 1/K."""
    out = []
    for (players, against), rows in cells.groupby(["players", "against"], sort=False):
        top = rows["lead_win_share"].max()
        best = rows[rows["lead_win_share_high"] >= rows.loc[
            rows["lead_win_share"] == top, "lead_win_share_low"].min()]
        out.append(f"{players} players against {against}: " + ", ".join(
            f"{r['bot']} ({interval(r, 'lead_win_share_edge', 'pp')})"
            for _, r in best.sort_values("lead_win_share", ascending=False).iterrows()))
    return out


def exploitable(cells: pd.DataFrame) -> str:
    """The populations in which some single deviator wins at least 95% of games."""
    top = cells.groupby(["players", "against"])["lead_win_share"].max()
    swept = sorted({against for (_, against), share in top.items() if share >= 0.95})
    if not swept:
        return ""
    return (f"Tables of {', '.join(swept)} bots are swept: one player doing something else "
            "wins 95% or more of games at some player count. Identical copies of a "
            "deterministic bot play identical cards, so they share one camp every turn and "
            "leave the deviator alone to save and capture.")


def stability(cells: pd.DataFrame) -> str:
    """Which populations no other bot beats significantly (candidates for an equilibrium
    among these bots) and which invite a deviation."""
    invaded = cells[cells["lead_win_share_edge_low"] > 0].groupby(
        ["players", "against"]).size()
    groups = cells.groupby(["players", "against"]).size().index
    stable = [f"{y} at {k} players" for k, y in groups if (k, y) not in invaded.index]
    if not stable:
        return ("Every population is beaten by some other bot, so none of these fixed ways "
                "of playing is an equilibrium: a table that settles on one invites another.")
    return ("No other bot beats these populations significantly, so they are the candidates "
            f"for an equilibrium among these bots: {', '.join(stable)}; every other "
            "population invites a deviation.")


SECTIONS = [scores, cases, lone, best_response]
INTRO = """# Betzanbloo: statistics report

Answers to the "Statistics worth reporting" of the game's rules specification from
simulated games (tapis-vert; `make betzanbloo-report` regenerates all of it) under the
spec's default rules (cards 1 to 10, points scoring). Bots: `random` (each player picks a
legal card uniformly, the spec's Decisions section), `safe` (plays its lowest card in the
camp the others are likely to choose), `contrarian` (its highest card in the other camp),
`responder` (a one-turn best response to how the table has played so far); see
[docs/agents.md](../../docs/agents.md). Brackets are 95% intervals (game-clustered where a
game gives several observations); "pp" are percentage points. The talk phase is not
simulated.
"""


def summary(runs: Path) -> list[str]:
    """The report's answers in a few plain sentences (the summary's bullets), from the same
    tables."""
    cells = BOOK.load(runs, PLAYERS)["cells"]
    response = response_cells(runs)
    rand = cells[cells["lineup"] == "random"].set_index("players")
    usual = rand.loc[USUAL]
    low, high = rand.index.min(), rand.index.max()
    versus_random = response[response["against"] == "random"]
    fair_misses = ((cells["first_player_edge_low"] > 0)
                   | (cells["first_player_edge_high"] < 0)).sum()
    commonest = max(CASES, key=lambda case: usual[f"case_{case}"]).capitalize()
    best = versus_random.loc[versus_random.groupby("players")["lead_win_share"].idxmax()]
    return [
        f"**Bigger tables, lower scores.** A random player's final score averages "
        f"{plain(rand.loc[low, 'mean_score'])} at {low} players and "
        f"{plain(rand.loc[high, 'mean_score'])} at {high}; wins are shared in "
        f"{percent(rand.loc[low, 'shared_win'])} to {percent(rand.loc[high, 'shared_win'])} "
        f"of games. The first seat's win share differs significantly from the fair 1/K in "
        f"{fair_misses} of {len(cells)} tables.",
        f"**{commonest} turns are the most common.** At {USUAL} players "
        f"{percent(usual['case_split'])} of turns are split (every card lost), "
        f"{percent(usual['case_lone'])} leave one player alone and "
        f"{percent(usual['case_all-same'])} save every card; the split share goes "
        f"from {percent(rand.loc[low, 'case_split'])} at {low} players to "
        f"{percent(rand.loc[high, 'case_split'])} at {high}.",
        f"**Being alone pays.** A lone turn keeps {plain(usual['lone_turn_points'])} "
        f"points (own card plus capture) and adds "
        f"{100 * usual['lone_win_share']:.0f} percentage points to the chance of winning at "
        f"{USUAL} players; captures happen in {share_range(rand['case_lone'])} of turns.",
        "**Against random players** the best of the four bots is "
        + "; ".join(f"{r['bot']} at {r['players']} players "
                    f"({interval(r, 'lead_win_share_edge', 'pp')} over the fair share)"
                    for _, r in best.iterrows())
        + f". {exploitable(response)} {stability(response)}"]


def build(runs: Path) -> Path:
    """Write README.md (the summary, then every question) and its figures."""
    pending = "The summary appears once every experiment has run."
    return BOOK.build(runs, SECTIONS, "betzanbloo-report",
                      INTRO + "\n" + BOOK.summary(runs, summary, pending))


def main(argv: list[str] | None = None) -> int:
    return BOOK.main(argv, __doc__.split("\n\n")[0], build)


if __name__ == "__main__":
    sys.exit(main())
