"""Figures for designers' questions that the standard analysis does not answer, each a pure
function of a run's tables returning flat ``{name: value}`` figures (with ``_low``/``_high``
95% bounds).  An experiment file names them under ``analyses`` (docs/experiments.md).

They read table columns only (docs/results.md), never rules; each says which columns it
needs.
"""

from __future__ import annotations

from collections.abc import Callable
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd
import statsmodels.api as sm

from sim.analysis.run import Run
from sim.stats import proportion

# Table time: the seconds people take for each kind of action at a Paris d'amis table, at a
# brisk and at a leisurely pace: stated assumptions, shown with every answer that uses them.
# A placement is one card put in a column, a discard one card discarded, a deal the new
# cards handed out after a round, a shuffle the decks shuffled at the start of a game.
PACE = {"placement": (4.0, 8.0), "bet": (5.0, 12.0), "discard": (1.5, 3.0),
        "hand_change": (3.0, 8.0), "deal": (10.0, 20.0), "shuffle": (20.0, 40.0)}
SUIT_COLUMNS = ["points_hearts", "points_diamonds", "points_spades", "points_clubs"]


def normal_bounds(name: str, value: float, se: float, confidence: float = 0.95
                  ) -> dict[str, float]:
    """A normal-approximation interval around ``value``."""
    half = NormalDist().inv_cdf(0.5 + confidence / 2) * se
    return {name: value, f"{name}_low": value - half, f"{name}_high": value + half}


def clustered_slope(y: np.ndarray, columns: list[np.ndarray], groups: np.ndarray
                    ) -> tuple[float, float]:
    """Least-squares coefficient of the last of ``columns`` (with an intercept) and its
    standard error, robust to correlation within ``groups`` (games)."""
    x = sm.add_constant(np.column_stack(columns))
    fit = sm.OLS(y, x).fit(cov_type="cluster", cov_kwds={"groups": groups})
    return float(fit.params[-1]), float(fit.bse[-1])


def odd_hand(run: Run) -> dict[str, float]:
    """The authors' claim that ending a round with an odd hand is better (rounds: game_id,
    round, seat, hand_end, points_cards_won; players: win_share).

    ``odd_hand_next_points``: points cards won in the next round after an odd hand at round
    end, beyond what the hand's size alone predicts (least squares on hand size and an odd
    indicator; game-clustered interval).  ``odd_hand_win_share``: a game's win share for a
    player all of whose round ends were odd, against all even, at the same mean hand size
    (least squares over players)."""
    rounds = run.rounds_table().sort_values(["game_id", "seat", "round"])
    following = rounds.groupby(["game_id", "seat"])["points_cards_won"].shift(-1)
    has_next = following.notna().to_numpy()
    ended = rounds[has_next]
    size = ended["hand_end"].to_numpy(np.float64)
    odd = (size % 2 == 1).astype(np.float64)
    points, points_se = clustered_slope(following[has_next].to_numpy(np.float64),
                                        [size, odd], ended["game_id"].to_numpy())
    per_player = rounds.groupby(["game_id", "seat"]).agg(
        mean_size=("hand_end", "mean"),
        odd_share=("hand_end", lambda h: float((h % 2 == 1).mean()))).reset_index()
    per_player = per_player.merge(run.players[["game_id", "seat", "win_share"]],
                                  on=["game_id", "seat"])
    win, win_se = clustered_slope(per_player["win_share"].to_numpy(np.float64),
                                  [per_player["mean_size"].to_numpy(np.float64),
                                   per_player["odd_share"].to_numpy(np.float64)],
                                  per_player["game_id"].to_numpy())
    return (normal_bounds("odd_hand_next_points", points, points_se)
            | normal_bounds("odd_hand_win_share", win, win_se))


def hand_change(run: Run) -> dict[str, float]:
    """How often the hand change is taken (rounds: round, exchanged), over the seat-rounds
    after the first, overall and for the lineup's lead agent (players: agent)."""
    rounds = run.rounds_table()
    later = rounds[rounds["round"] > 1]
    overall = proportion(int(later["exchanged"].sum()), len(later))
    out = {"exchange_rate": overall["p"], "exchange_rate_low": overall["low"],
           "exchange_rate_high": overall["high"]}
    agents = later.merge(run.players[["game_id", "seat", "agent"]], on=["game_id", "seat"])
    lead = run.agents[0]
    mine = agents[agents["agent"] == lead]
    share = proportion(int(mine["exchanged"].sum()), len(mine))
    return out | {"lead_exchange_rate": share["p"], "lead_exchange_rate_low": share["low"],
                  "lead_exchange_rate_high": share["high"]}


def _winners(scores: pd.DataFrame) -> pd.Series:
    """Per game, the frozenset of seats with the best score (a row per game and seat)."""
    best = scores.groupby("game_id")["score"].transform("max")
    return scores[scores["score"] == best].groupby("game_id")["seat"].agg(frozenset)


def scoring(run: Run) -> dict[str, float]:
    """How often the game's winner depends on the scoring rule (players: game_id, seat and
    the four suit points): the share of games whose best seats by lowest suit differ from
    the best seats by total points (before any tiebreak)."""
    points = run.players[["game_id", "seat", *SUIT_COLUMNS]]
    lowest = _winners(points.assign(score=points[SUIT_COLUMNS].min(axis=1)))
    total = _winners(points.assign(score=points[SUIT_COLUMNS].sum(axis=1)))
    differ = int((lowest != total.reindex(lowest.index)).sum())
    share = proportion(differ, len(lowest))
    return {"winner_differs": share["p"], "winner_differs_low": share["low"],
            "winner_differs_high": share["high"]}


def actions(run: Run) -> pd.DataFrame:
    """Each game's actions by kind (:data:`PACE`'s kinds; Paris d'amis tables: games'
    decisions and rounds; rounds: game_id, round, cards_placed): a placement per card
    placed, a bet per seat and round, a hand change per seat from round 2 when the rules
    offer it, a deal per round, a shuffle per game; the discards are the other decisions."""
    rounds = run.rounds_table()
    per_game = rounds.groupby("game_id").agg(placement=("cards_placed", "sum"),
                                             bet=("round", "size"),
                                             deal=("round", "nunique"),
                                             later=("round", lambda r: int((r > 1).sum())))
    offered = str(run.params.get("mulligan", "false")).lower() == "true"
    later = per_game.pop("later")
    per_game["hand_change"] = later if offered else 0
    decisions = run.games.set_index("game_id")["decisions"].reindex(per_game.index)
    per_game["discard"] = (decisions - per_game["placement"] - per_game["bet"]
                           - per_game["hand_change"]).clip(lower=0)
    per_game["shuffle"] = 1
    return per_game[list(PACE)].astype(np.float64)


def table_time(run: Run) -> dict[str, float]:
    """Game length in minutes by the pace model :data:`PACE`, from the mean actions of each
    kind per game (see :func:`paced_minutes`)."""
    return paced_minutes(actions(run).mean(), run.n_players)


def paced_minutes(counts: pd.Series, k: int) -> dict[str, float]:
    """The mean actions of each kind per game (``counts`` by :data:`PACE`'s kinds; as
    ``actions_<kind>``) times their seconds at a table of ``k``: ``table_minutes`` at the
    middle pace, ``_low`` at the brisk and ``_high`` at the leisurely one (a range of paces,
    not a statistical interval: over many games the mean is exact to a second); the same
    divided by the players (``minutes_per_player``)."""
    brisk, leisurely = ((counts * pd.Series({kind: pace[i] for kind, pace in PACE.items()}))
                        .sum() / 60 for i in (0, 1))
    brisk, leisurely = float(brisk), float(leisurely)
    middle = (brisk + leisurely) / 2
    return ({f"actions_{kind}": float(counts[kind]) for kind in PACE}
            | {"table_minutes": middle, "table_minutes_low": brisk,
               "table_minutes_high": leisurely, "minutes_per_player": middle / k,
               "minutes_per_player_low": brisk / k, "minutes_per_player_high": leisurely / k})


def deck_shortage(run: Run) -> dict[str, float]:
    """How often the deck runs short of new cards (rounds: game_id, round, cards_short):
    the share of games with a shortage, the share of seat-rounds after the first dealt short,
    and the mean cards missing per seat-round after the first."""
    table = run.rounds_table()
    later = table[table["round"] > 1]
    short = later["cards_short"] > 0
    games = proportion(int(short.groupby(later["game_id"]).any().sum()), len(run.games))
    rounds = proportion(int(short.sum()), len(later))
    missing = later["cards_short"].to_numpy(np.float64)
    return ({"short_games": games["p"], "short_games_low": games["low"],
             "short_games_high": games["high"], "short_rounds": rounds["p"],
             "short_rounds_low": rounds["low"], "short_rounds_high": rounds["high"]}
            | normal_bounds("mean_cards_short", float(missing.mean()),
                            float(missing.std(ddof=1) / np.sqrt(len(missing))))
            | shortage_bearers(table, run.players))


def shortage_bearers(rounds: pd.DataFrame, players: pd.DataFrame) -> dict[str, float]:
    """Who bears the shortage (rounds: game_id, round, seat, cards_short and, when present,
    bet_correct; players: game_id, seat, win_share): the mean cards missing per seat-round
    after the first for the seats whose bet of the round before was right
    (``short_after_correct``) or wrong (``short_after_wrong``), and for the game's winners
    (``short_winners``) and the others (``short_others``), each with a game-clustered
    interval."""
    out: dict[str, float] = {}
    if "bet_correct" in rounds.columns:
        before = rounds[["game_id", "round", "seat", "bet_correct"]].assign(
            round=rounds["round"] + 1)
        owed = rounds[rounds["round"] > 1].merge(before, on=["game_id", "round", "seat"],
                                                 suffixes=("", "_before"))
        right = owed["bet_correct_before"].astype(bool)
        out |= clustered_mean("short_after_correct", owed.loc[right, "cards_short"],
                              owed.loc[right, "game_id"])
        out |= clustered_mean("short_after_wrong", owed.loc[~right, "cards_short"],
                              owed.loc[~right, "game_id"])
    if {"win_share", "seat"} <= set(players.columns):
        later = rounds[rounds["round"] > 1].merge(players[["game_id", "seat", "win_share"]],
                                                  on=["game_id", "seat"])
        won = later["win_share"] > 0
        out |= clustered_mean("short_winners", later.loc[won, "cards_short"],
                              later.loc[won, "game_id"])
        out |= clustered_mean("short_others", later.loc[~won, "cards_short"],
                              later.loc[~won, "game_id"])
    return out


def steal(run: Run) -> dict[str, float]:
    """The "colonne volée" dynamic (rounds: game_id, round, seat, bet_position,
    points_cards_won, k): ``last_bettor_points``, the share of the points cards won by the
    seat that bet last in its round; ``sweeps``, the share of rounds in which one seat
    won every points card won (k = 1); both with game-clustered intervals."""
    table = run.rounds_table()
    last = table["bet_position"] == table.groupby(["game_id", "round"])["bet_position"
                                                                        ].transform("max")
    won = table["points_cards_won"].astype(np.float64)
    sums = pd.DataFrame({"g": table["game_id"], "last": won.where(last, 0.0), "all": won}
                        ).groupby("g").sum()
    rounds = table.drop_duplicates(["game_id", "round"])
    return (_ratio("last_bettor_points", sums["last"].to_numpy(), sums["all"].to_numpy())
            | clustered_mean("sweeps", rounds["k"] == 1, rounds["game_id"]))


# --------------------------------------------------------------------------------------
# Breakdowns of round-level columns (game-clustered intervals)
# --------------------------------------------------------------------------------------
def _ratio(name: str, numerators: np.ndarray, denominators: np.ndarray) -> dict[str, float]:
    """Sum of ``numerators`` over sum of ``denominators`` (one of each per game), with a
    normal interval from the games' spread (the ratio estimator's linearised variance); NaN
    without data."""
    total = float(denominators.sum())
    if total == 0:
        return normal_bounds(name, float("nan"), float("nan"))
    ratio = float(numerators.sum()) / total
    clusters = len(numerators)
    if clusters < 2:
        return normal_bounds(name, ratio, float("nan"))
    residual = numerators - ratio * denominators
    variance = float((residual ** 2).sum()) / total ** 2 * clusters / (clusters - 1)
    return normal_bounds(name, ratio, float(np.sqrt(variance)))


def clustered_mean(name: str, values: pd.Series, games: pd.Series) -> dict[str, float]:
    """The mean of ``values`` with a normal interval robust to correlation within games;
    for a 0/1 column, a share."""
    frame = pd.DataFrame({"y": values.to_numpy(np.float64), "g": games.to_numpy()})
    sums = frame.groupby("g")["y"].agg(["sum", "size"])
    return _ratio(name, sums["sum"].to_numpy(np.float64), sums["size"].to_numpy(np.float64))


def _by_value(name: str, frame: pd.DataFrame, value: str, column: str) -> dict[str, float]:
    """``name_<v>``: the clustered mean of ``value`` among rows where ``column`` equals v,
    for every v seen."""
    out: dict[str, float] = {}
    for key, rows in frame.groupby(column, observed=True):
        out |= clustered_mean(f"{name}_{key}", rows[value], rows["game_id"])
    return out


def indicators(values: pd.Series) -> list[np.ndarray]:
    """0/1 columns for every value of ``values`` but the first (controls in a regression)."""
    levels = sorted(values.unique())
    return [(values == level).to_numpy(np.float64) for level in levels[1:]]


def score_summary(run: Run) -> dict[str, float]:
    """The distribution of final scores (players: game_id, score, rank): the mean score and
    the winner's score with intervals, the spread (standard deviation, 5th, 50th and 95th
    percentiles)."""
    players = run.players
    winners = players[players["rank"] == 1].drop_duplicates("game_id")
    scores = players["score"].to_numpy(np.float64)
    return (clustered_mean("mean_score", players["score"], players["game_id"])
            | clustered_mean("winning_score", winners["score"], winners["game_id"])
            | {"score_sd": float(scores.std(ddof=1)),
               "score_p5": float(np.percentile(scores, 5)),
               "score_p50": float(np.percentile(scores, 50)),
               "score_p95": float(np.percentile(scores, 95))})


def resolution_cases(run: Run) -> dict[str, float]:
    """How each turn resolves (rounds: game_id, round, threshold, case): ``case_<c>`` the
    share of turns of each case, overall, ``case_<c>_threshold_<t>`` by threshold card and
    ``case_<c>_round_<r>`` by turn."""
    turns = run.rounds_table().drop_duplicates(["game_id", "round"])
    out: dict[str, float] = {}
    cases = turns["case"].cat.categories if isinstance(turns["case"].dtype, pd.CategoricalDtype) \
        else turns["case"].unique()
    for case in sorted(map(str, cases)):
        hit = (turns["case"].astype(str) == case).astype(np.float64)
        frame = turns.assign(hit=hit)
        out |= clustered_mean(f"case_{case}", frame["hit"], frame["game_id"])
        out |= _by_value(f"case_{case}_threshold", frame, "hit", "threshold")
        out |= _by_value(f"case_{case}_round", frame, "hit", "round")
    return out


def lone_player(run: Run) -> dict[str, float]:
    """What being the lone player of a turn is worth (rounds: game_id, seat, lone, saved,
    card, captured; players: win_share, times_lone; games: turns_lone).

    ``lone_turn_points``: card values a lone player keeps in that turn (its own card plus
    the captured one); ``turn_points``: the same for every seat-turn; ``lone_win_share``:
    the win share one more lone turn brings (least squares of win share on the lone turns,
    game-clustered); ``games_with_capture``: share of games with at least one capture."""
    rounds = run.rounds_table()
    kept = rounds["card"].where(rounds["saved"], 0) + rounds["captured"]
    lone = rounds["lone"].to_numpy(bool)
    players = run.players
    win, win_se = float("nan"), float("nan")
    if players["times_lone"].nunique() > 1:
        win, win_se = clustered_slope(players["win_share"].to_numpy(np.float64),
                                      [players["times_lone"].to_numpy(np.float64)],
                                      players["game_id"].to_numpy())
    captures = proportion(int((run.games["turns_lone"] > 0).sum()), len(run.games))
    return (clustered_mean("lone_turn_points", kept[lone], rounds["game_id"][lone])
            | clustered_mean("turn_points", kept, rounds["game_id"])
            | normal_bounds("lone_win_share", win, win_se)
            | {"games_with_capture": captures["p"], "games_with_capture_low": captures["low"],
               "games_with_capture_high": captures["high"]})


def lead_score(run: Run) -> dict[str, float]:
    """The lineup's lead agent's score minus the mean score of the other agents in the same
    game (players: game_id, agent, score), averaged over games; nothing when every seat is
    the same agent."""
    players = run.players
    lead = players["agent"].astype(str) == run.agents[0]
    if lead.all():
        return {}
    mine = players[lead].groupby("game_id")["score"].mean()
    others = players[~lead].groupby("game_id")["score"].mean()
    diff = (mine - others).dropna().to_numpy(np.float64)
    return normal_bounds("lead_score_diff", float(diff.mean()),
                         float(diff.std(ddof=1) / np.sqrt(len(diff))))


def bid_breakdown(run: Run) -> dict[str, float]:
    """Bid accuracy (rounds: game_id, bet_correct, cards, bet_position, seat) by hand size
    ``bet_accuracy_cards_<c>``, by bidding position ``bet_accuracy_position_<p>`` (0 bids
    first) and by seat ``bet_accuracy_seat_<s>``."""
    rounds = run.rounds_table()
    rounds = rounds.assign(correct=rounds["bet_correct"].astype(np.float64))
    return (_by_value("bet_accuracy_cards", rounds, "correct", "cards")
            | _by_value("bet_accuracy_position", rounds, "correct", "bet_position")
            | _by_value("bet_accuracy_seat", rounds, "correct", "seat"))


def errors_per_hand(run: Run) -> dict[str, float]:
    """Error points a player takes in a hand (rounds: game_id, round, cards, error):
    ``error_per_seat`` overall, ``error_cards_<c>`` by hand size, and ``error_per_hand`` the
    whole table's error points in a hand."""
    rounds = run.rounds_table()
    hands = rounds.groupby(["game_id", "round"])["error"].sum().reset_index()
    return (clustered_mean("error_per_seat", rounds["error"], rounds["game_id"])
            | _by_value("error_cards", rounds, "error", "cards")
            | clustered_mean("error_per_hand", hands["error"], hands["game_id"]))


def dealer_role(run: Run) -> dict[str, float]:
    """The dealer against the other players of a hand (rounds: game_id, seat, dealer, cards,
    error, bet_correct): ``dealer_error`` and ``other_error`` (error points per hand),
    ``dealer_error_diff`` their difference at equal hand size (least squares,
    game-clustered), and ``dealer_accuracy``, ``other_accuracy``."""
    rounds = run.rounds_table()
    dealer = rounds["seat"] == rounds["dealer"]
    diff, se = clustered_slope(rounds["error"].to_numpy(np.float64),
                               [*indicators(rounds["cards"]), dealer.to_numpy(np.float64)],
                               rounds["game_id"].to_numpy())
    correct = rounds["bet_correct"].astype(np.float64)
    return (clustered_mean("dealer_error", rounds["error"][dealer], rounds["game_id"][dealer])
            | clustered_mean("other_error", rounds["error"][~dealer],
                              rounds["game_id"][~dealer])
            | normal_bounds("dealer_error_diff", diff, se)
            | clustered_mean("dealer_accuracy", correct[dealer], rounds["game_id"][dealer])
            | clustered_mean("other_accuracy", correct[~dealer],
                              rounds["game_id"][~dealer]))


def excuse_value(run: Run) -> dict[str, float]:
    """What holding the Excuse does in a hand (rounds: game_id, cards, played_excuse,
    tricks, error), at equal hand size (least squares with a column per hand size,
    game-clustered): ``excuse_tricks`` extra tricks won, ``excuse_error`` extra error
    points."""
    rounds = run.rounds_table()
    controls = indicators(rounds["cards"])
    held = rounds["played_excuse"].to_numpy(np.float64)
    games = rounds["game_id"].to_numpy()
    tricks, tricks_se = clustered_slope(rounds["tricks"].to_numpy(np.float64),
                                        [*controls, held], games)
    error, error_se = clustered_slope(rounds["error"].to_numpy(np.float64),
                                      [*controls, held], games)
    return (normal_bounds("excuse_tricks", tricks, tricks_se)
            | normal_bounds("excuse_error", error, error_se))


def blind_hand(run: Run) -> dict[str, float]:
    """The blind hand's part in the outcome (rounds: game_id, seat, blind, error,
    bet_correct; games: last_hand_cards): ``blind_error`` and ``blind_accuracy`` in blind
    hands; ``blind_error_share`` the share of all error points taken in blind hands;
    ``games_end_blind`` the share of games whose last hand is blind;
    ``blind_winner_differs`` the share of games whose seats with the fewest error points
    change when the blind hands' errors are not counted."""
    rounds = run.rounds_table()
    blind = rounds["blind"].to_numpy(bool)
    games = rounds["game_id"]
    per_game = rounds.assign(blind_error=rounds["error"].where(rounds["blind"], 0))
    totals = per_game.groupby("game_id")[["error", "blind_error"]].sum()
    end = proportion(int((run.games["last_hand_cards"] == 1).sum()), len(run.games))
    seats = per_game.groupby(["game_id", "seat"])[["error", "blind_error"]].sum().reset_index()
    all_hands = _winners(seats.assign(score=-seats["error"]))
    sighted = _winners(seats.assign(score=seats["blind_error"] - seats["error"]))
    differ = proportion(int((all_hands != sighted.reindex(all_hands.index)).sum()),
                        len(all_hands))
    return (clustered_mean("blind_error", rounds["error"][blind], games[blind])
            | clustered_mean("blind_accuracy", rounds["bet_correct"][blind].astype(
                np.float64), games[blind])
            | _ratio("blind_error_share", totals["blind_error"].to_numpy(np.float64),
                     totals["error"].to_numpy(np.float64))
            | {"games_end_blind": end["p"], "games_end_blind_low": end["low"],
               "games_end_blind_high": end["high"],
               "blind_winner_differs": differ["p"], "blind_winner_differs_low": differ["low"],
               "blind_winner_differs_high": differ["high"]})


def game_rounds(run: Run) -> dict[str, float]:
    """Rounds (hands, turns) per game (games: game_id, rounds): ``rounds_per_game`` with an
    interval, its 5th and 95th percentiles."""
    rounds = run.games["rounds"].to_numpy(np.float64)
    return (normal_bounds("rounds_per_game", float(rounds.mean()),
                          float(rounds.std(ddof=1) / np.sqrt(len(rounds))))
            | {"rounds_p5": float(np.percentile(rounds, 5)),
               "rounds_p95": float(np.percentile(rounds, 95))})


ANALYSES: dict[str, Callable[[Run], dict[str, Any]]] = {
    "odd_hand": odd_hand, "hand_change": hand_change, "scoring": scoring,
    "table_time": table_time, "deck_shortage": deck_shortage, "score_summary": score_summary,
    "resolution_cases": resolution_cases, "lone_player": lone_player, "lead_score": lead_score,
    "bid_breakdown": bid_breakdown, "errors_per_hand": errors_per_hand,
    "dealer_role": dealer_role, "excuse_value": excuse_value, "blind_hand": blind_hand,
    "game_rounds": game_rounds, "steal": steal}
