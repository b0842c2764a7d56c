"""Build the Ascenseur aux atouts report, ``reports/ascenseur-atouts/README.md`` and its
figures, from the outputs of ``experiments/ascenseur-atouts.toml``
(``runs/experiments/ascenseur-atouts/``).

    make ascenseur-report                     # plays what is missing, then builds
    python reports/ascenseur-atouts/build.py  # builds from the finished experiment

Every number is read from the experiment's cells.csv and comparisons.csv; each section
prints the command that reproduces it, and every sentence that depends on a number is
derived from it, so a rebuild never contradicts its tables.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from sim.analysis.book import Book, interval, intervals, long_form, markdown, share_range, verdict
from sim.analysis.figures import grouped_intervals

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BOOK = Book(HERE, ROOT / "experiments")
STEM = "ascenseur-atouts"
BASE = "rules"                       # the experiment's first variant: the spec's defaults
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
        "setting", "dealer_error_diff", name="q1-dealer", reference=0.0,
        title="The dealer's extra error points per hand",
        caption="Error points the dealer takes in a hand minus the other players', at equal "
                "hand size (least squares, game-clustered 95% intervals); with the hook in "
                "every hand and without it in the blind hand.",
        xlabel="players at the table (count)", ylabel="error points per hand")
    return BOOK.section(1, "The dealer under the hook", STEM, answer, table, BOOK.figure(fig, STEM),
                        QUESTIONS[1])


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
        frame, "cards", "table", "value", name="q2-bid-accuracy", percent=True,
        title="Bid accuracy by hand size",
        caption="Share of bids equal to the tricks won, by cards in the hand (1 = the blind "
                "hand), with game-clustered 95% intervals.",
        xlabel="cards in the hand", ylabel="correct bids (share)")
    extra = (f"By bidding position:\n\n{markdown(by_position)}\n\nBy seat:\n\n"
             f"{markdown(by_seat)}\n\n{BOOK.figure(fig, STEM)}")
    return BOOK.section(2, "Bid accuracy by hand size, position and seat", STEM, answer,
                        by_cards, extra, QUESTIONS[2])


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
        frame, "cards", "table", "value", name="q3-errors", title="Error points per hand",
        caption="Error points (|bid - tricks|) a player takes in a hand, by cards in the "
                "hand, with game-clustered 95% intervals.",
        xlabel="cards in the hand", ylabel="error points per player")
    return BOOK.section(3, "Errors per hand", STEM, answer, table, BOOK.figure(fig, STEM),
                        QUESTIONS[3])


def diff_text(row: pd.Series) -> str:
    """A comparison row's difference with its interval (shares in pp), starred when
    significant after Holm's correction."""
    scale = 100 if row["kind"] == "proportion" else 1
    unit = " pp" if scale == 100 else ""
    star = " *" if row["significant"] else ""
    return (f"{scale * row['diff']:+.2f}{unit} [{scale * row['low']:+.2f}, "
            f"{scale * row['high']:+.2f}]{star}")


def plain_range(cells: pd.DataFrame, name: str) -> str:
    return f"{cells[name].min():.2f} to {cells[name].max():.2f}"


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
        base, "players", "lineup", "rounds_per_game", name="q4-game-length",
        title="Game length in hands",
        caption="Mean hands per game under the spec's rules, with 95% intervals.",
        xlabel="players at the table (count)", ylabel="hands per game")
    return BOOK.section(4, "Game length in hands", STEM, answer, table, BOOK.figure(fig, STEM),
                        QUESTIONS[4])


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
        "setting", "excuse_error", name="q5-excuse", reference=0.0,
        title="What the Excuse does to its holder's errors",
        caption="Error points in a hand when holding the Excuse minus without it, at equal "
                "hand size (least squares, game-clustered 95% intervals).",
        xlabel="players at the table (count)", ylabel="error points per hand")
    return BOOK.section(5, "Value of the Excuse", STEM, answer, table, BOOK.figure(fig, STEM),
                        QUESTIONS[5])


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
        base, "players", "lineup", "blind_winner_differs", name="q6-blind-hand", percent=True,
        title="How often the blind hand changes the winner",
        caption="Share of games whose players with the fewest error points change when the "
                "blind hands' errors are not counted, with 95% intervals.",
        xlabel="players at the table (count)", ylabel="games (share)")
    extra = (f"The blind-hand variants against the rules, same games (paired; * significant "
             f"after Holm's correction; full comparison reports in "
             f"`runs/experiments/{STEM}/comparisons/`):\n\n{markdown(changes)}"
             f"\n\n{BOOK.figure(fig, STEM)}")
    return BOOK.section(6, "How the blind hand changes outcomes", STEM, answer, table, extra,
                        QUESTIONS[6])


SECTIONS = [dealer, bids, errors, length, excuse, blind]
INTRO = """# Ascenseur aux atouts: statistics report

Answers to the "Statistics worth reporting" of the game's rules specification
from simulated games (tapis-vert; `make ascenseur-report` regenerates all of it). Rules: the
spec's defaults (hands of 5 to 1 cards, the hook in every hand, a blind Excuse counts high,
13 error points end the game), and two variants: `blind-unhooked` (C2: no hook in the blind
hand) and `excuse-chosen` (the blind Excuse's owner declares it high or low). Bots: `random`
(uniform over legal moves) and `estimator` (bids the tricks it expects from its trumps, plays
to make its bid); see [docs/agents.md](../../docs/agents.md). Brackets are 95% intervals,
game-clustered where a game gives several observations; "pp" are percentage points.
"""


def summary(runs: Path) -> list[str]:
    """The report's answers in a few plain sentences (the summary's bullets), from the same
    tables."""
    cells = cells_of(runs)
    comparisons = BOOK.load(runs, STEM)["comparisons"]
    smart = cells[cells["lineup"] == "estimator"].set_index("players")
    rand = cells[cells["lineup"] == "random"].set_index("players")
    hurt = (cells["dealer_error_diff_low"] > 0).sum()
    by_cards = long_form(cells[cells["lineup"] == "estimator"], "bet_accuracy_cards", "cards",
                         KEYS)
    small, big = by_cards["cards"].min(), by_cards["cards"].max()
    falls = all((part.sort_values("cards")["value"].diff().dropna() < 0).all()
                for _, part in by_cards.groupby("players"))
    unhooked = comparisons[(comparisons["variant"] == "blind-unhooked")
                           & (comparisons["figure"] == "mean rounds")
                           & comparisons["group"].str.endswith("estimator")]
    return [
        f"**The dealer under the hook.** Bidding last, the dealer takes significantly more "
        f"error points per hand than the others in {hurt} of {len(cells)} tables "
        f"({plain_range(smart, 'dealer_error_diff')} more with estimator bots).",
        f"**Bid accuracy falls with the hand size.** Estimator bots bid right in "
        f"{share_range(by_cards.loc[by_cards['cards'] == small, 'value'])} of {small}-card "
        f"hands and {share_range(by_cards.loc[by_cards['cards'] == big, 'value'])} of "
        f"{big}-card hands; random bidders in {share_range(rand['bet_accuracy'])} of all "
        f"hands." if falls else
        f"**Bid accuracy.** Estimator bots bid right in {share_range(smart['bet_accuracy'])} "
        f"of hands, random bidders in {share_range(rand['bet_accuracy'])}.",
        f"**Game length.** A game lasts {plain_range(smart, 'rounds_per_game')} hands on "
        f"average with estimator bots and {plain_range(rand, 'rounds_per_game')} with "
        f"random players.",
        f"**The Excuse** brings its holder {plain_range(smart, 'excuse_tricks')} extra "
        f"tricks per hand with estimator bots and changes its error points by "
        f"{plain_range(smart, 'excuse_error')} per hand.",
        f"**The blind hand.** Not counting it would change the winner in "
        f"{share_range(smart['blind_winner_differs'])} of estimator games. Removing the hook "
        f"from it lengthens those games by "
        f"{unhooked['diff'].min():.1f} to {unhooked['diff'].max():.1f} hands."]


def build(runs: Path) -> Path:
    """Write README.md (the summary, then every question) and its figures."""
    pending = "The summary appears once the experiment has run."
    return BOOK.build(runs, SECTIONS, "ascenseur-report",
                      INTRO + "\n" + BOOK.summary(runs, summary, pending))


def main(argv: list[str] | None = None) -> int:
    return BOOK.main(argv, __doc__.split("\n\n")[0], build)


if __name__ == "__main__":
    sys.exit(main())
