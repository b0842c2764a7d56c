"""The meta-game: its solvers on games whose answers are known (rock-paper-scissors, a
dominant strategy, alpha-Rank against the two-player formula of OpenSpiel's alpharank.py),
invariants of the equilibrium and seat effects, and ``python -m sim.metagame`` end to end:
lineups as runs, metagame.json, the report, resume and one-line errors."""

from __future__ import annotations

import json
import math
from functools import partial
from itertools import combinations_with_replacement
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sim.metagame as metagame
from sim import runlock
from sim.analysis import Run
from sim.analysis.metagame import (
    Games,
    Payoffs,
    alpha_rank,
    equilibrium,
    lineup_chances,
    lineups,
    population_chances,
    population_figure,
    population_figures,
    seat_shares,
    solve,
)
from tests.sim.test_batch_support import call_main

metagame_main = partial(call_main, metagame.main)


def two_player(matrix) -> Payoffs:
    """The meta-game of a two-player symmetric constant-sum game: ``matrix[a][b]`` is a's
    win share against b (so matrix[b][a] = 1 - matrix[a][b])."""
    n = len(matrix)
    table = {}
    for a, b in lineups(n, 2):
        row = np.full(n, np.nan)
        row[a], row[b] = (0.5, 0.5) if a == b else (matrix[a][b], matrix[b][a])
        table[(a, b)] = row
    return Payoffs(n, 2, table)


ROCK_PAPER_SCISSORS = [[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]]
# agent 0 beats both others; agent 1 beats agent 2
DOMINANT = [[0.5, 0.7, 0.6], [0.3, 0.5, 0.55], [0.4, 0.45, 0.5]]


def test_rock_paper_scissors_is_played_uniformly():
    payoffs = two_player(ROCK_PAPER_SCISSORS)
    x = equilibrium(payoffs)
    assert x == pytest.approx([1 / 3] * 3, abs=1e-6)
    assert payoffs.gain(x) == pytest.approx(0, abs=1e-9)
    assert alpha_rank(payoffs) == pytest.approx([1 / 3] * 3)
    assert not any(payoffs.dominates(a, b) for a in range(3) for b in range(3) if a != b)


def test_a_dominant_strategy_is_the_equilibrium_and_tops_alpha_rank():
    payoffs = two_player(DOMINANT)
    x = equilibrium(payoffs)
    assert x == pytest.approx([1, 0, 0], abs=1e-6)
    assert payoffs.dominates(0, 1) and payoffs.dominates(0, 2)
    assert not payoffs.dominates(1, 2)      # 2 does better than 1 against 0
    ranks = alpha_rank(payoffs)
    assert ranks[0] > 0.99 and ranks.sum() == pytest.approx(1)


def openspiel_two_player_rank(matrix, alpha, m):
    """alpha-Rank of a two-player symmetric game as OpenSpiel's ``alpharank.py`` computes it
    (single population, ``_get_singlepop_2player_fitness`` and ``_get_rho_sr`` written out
    from the paper's equations), for comparison."""
    n = len(matrix)

    def fitness(mine, me, other):
        return ((mine - 1) / (m - 1) * matrix[me][me]
                + (m - mine) / (m - 1) * matrix[me][other])

    chain = np.zeros((n, n))
    for s in range(n):
        for r in range(n):
            if r != s:
                summed = 0.0
                for i in range(1, m):
                    product = 1.0
                    for p_r in range(1, i + 1):
                        product *= math.exp(-alpha * (fitness(p_r, r, s)
                                                      - fitness(m - p_r, s, r)))
                    summed += product
                chain[s, r] = 1 / (1 + summed) / (n - 1)
        chain[s, s] = 1 - chain[s].sum()
    values, vectors = np.linalg.eig(chain.T)
    pi = np.abs(np.real(vectors[:, np.argmin(np.abs(values - 1))]))
    return pi / pi.sum()


@pytest.mark.parametrize("alpha", [0.5, 5.0, 50.0])
def test_alpha_rank_matches_the_two_player_reference(alpha):
    matrix = [[0.5, 0.62, 0.3, 0.45], [0.38, 0.5, 0.7, 0.55], [0.7, 0.3, 0.5, 0.52],
              [0.55, 0.45, 0.48, 0.5]]
    ours = alpha_rank(two_player(matrix), alpha=alpha, size=20)
    assert ours == pytest.approx(openspiel_two_player_rank(matrix, alpha, 20), abs=1e-9)


def random_table(n, k, rng) -> Payoffs:
    """A random constant-sum meta-game: in each lineup the seats' win shares sum to 1, and
    an agent's seats share equally."""
    table = {}
    for lineup in lineups(n, k):
        seats = rng.dirichlet(np.ones(k))
        row = np.full(n, np.nan)
        for a in set(lineup):
            row[a] = np.mean([seats[i] for i, b in enumerate(lineup) if b == a])
        if len(set(lineup)) == 1:
            row[lineup[0]] = 1 / k
        table[lineup] = row
    return Payoffs(n, k, table)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 4), k=st.integers(2, 4))
def test_the_equilibrium_leaves_no_gain_to_a_pure_response(seed, n, k):
    payoffs = random_table(n, k, np.random.default_rng(seed))
    x = equilibrium(payoffs)
    assert x.min() >= 0 and x.sum() == pytest.approx(1)
    assert payoffs.gain(x) < 1e-5
    ranks = alpha_rank(payoffs)
    assert ranks.min() >= 0 and ranks.sum() == pytest.approx(1)


def players_table(rng, lineup, games) -> pd.DataFrame:
    """A lineup's players table: each game won by one seat, seat 0 twice as often."""
    k = len(lineup)
    weights = np.array([2.0] + [1.0] * (k - 1))
    winners = rng.choice(k, size=games, p=weights / weights.sum())
    rows = [{"game_id": g, "seat": p, "agent": lineup[(p + g) % k],
             "win_share": float(winners[g] == p)} for g in range(games) for p in range(k)]
    return pd.DataFrame(rows)


def test_seat_effects_sum_to_zero_and_show_a_first_seat_edge():
    rng = np.random.default_rng(4)
    agents = ["a", "b", "c"]
    tables = {lineup: players_table(rng, [agents[i] for i in lineup], 600)
              for lineup in lineups(3, 3)}
    games = Games.from_players(agents, 3, tables)
    result = solve(games, resamples=30)
    assert result.mix["weight"].sum() == pytest.approx(1)
    for population, group in result.seats.groupby("population"):
        assert group["edge"].sum() == pytest.approx(0, abs=1e-9), population
        assert (group["edge_low"] <= group["edge"]).all()
        assert (group["edge"] <= group["edge_high"]).all()
    uniform = result.seats[result.seats["population"] == "uniform"].set_index("seat")
    assert uniform.loc[0, "edge_low"] > 0          # seat 0 wins half the games
    assert (result.payoff_table["low"] <= result.payoff_table["win_share"] + 1e-12).all()


def test_a_population_weighs_each_lineup_by_its_chance():
    seats = {lineup: np.array([1.0, 0.0]) if lineup == (0, 0) else np.array([0.5, 0.5])
             for lineup in lineups(2, 2)}
    assert seat_shares(seats, 2, np.array([1.0, 0.0])) == pytest.approx([1, 0])
    # (0, 0) has chance 0.25 at a uniform table
    assert seat_shares(seats, 2, np.array([0.5, 0.5])) == pytest.approx([0.625, 0.375])


def test_a_missing_lineup_is_named():
    tables = {(0, 0): players_table(np.random.default_rng(0), ["a", "a"], 10)}
    with pytest.raises(ValueError, match=r"\(0, 1\)"):
        Games.from_players(["a", "b"], 2, tables)


# --------------------------------------------------------------------------------------
# python -m sim.metagame
# --------------------------------------------------------------------------------------
AGENTS = ("random", "greedy")
GAMES = 60


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    out = tmp_path_factory.mktemp("metagame") / "m"
    code, stdout, stderr = metagame_main(
        "paris-damis", "--agents", ",".join(AGENTS), "--players", 3, "--games", GAMES,
        "--seed", 3, "--jobs", 1, "--bootstrap", 20, "--no-progress", "--out", out)
    assert code == 0, stderr
    return out, stdout


def test_every_lineup_with_mirrors_is_an_ordinary_run(played):
    out, _ = played
    names = sorted(p.name for p in out.iterdir() if p.is_dir() and p.name != "report")
    expected = sorted("+".join(lineup) for lineup in combinations_with_replacement(AGENTS, 3))
    assert names == expected
    for name in names:
        run = Run.open(out / name)
        assert run.seed == 3 and len(run.games) == GAMES


def test_the_answers_are_written_as_json_and_text(played):
    out, stdout = played
    data = json.loads((out / "metagame.json").read_text())
    assert set(data["equilibrium"]) == set(AGENTS)
    assert sum(data["equilibrium"].values()) == pytest.approx(1)
    assert data["equilibrium"]["greedy"] > 0.99       # greedy beats random at every table
    assert data["alpha_rank"]["greedy"] > 0.99
    assert {"agent": "greedy", "dominates": "random"} in [
        {k: d[k] for k in ("agent", "dominates")} for d in data["dominance"]]
    populations = {row["population"] for row in data["seat_effects"]}
    assert populations == {"equilibrium", "uniform", "mirror random", "mirror greedy"}
    assert data["luck"]["pool"]["agents"] == list(AGENTS)
    assert 0 <= data["luck"]["pool"]["luck"] <= 1
    assert "greedy is a dominant strategy" in stdout and "report: " in stdout
    assert "Dominant line: in a uniformly mixed population greedy wins " in stdout
    assert "Luck in the whole pool (random, greedy): " in stdout
    top = data["luck"]["top_two"]
    assert top["weaker"] == "random" and top["upsets_high"] < 0.5
    assert "Between those two, the weaker (random) finishes ahead of the other " in stdout
    for population in ("equilibrium", "uniform"):
        figures = data["population_figures"][population]
        assert figures["snowball_low"] <= figures["snowball"] <= figures["snowball_high"]
        assert 0 <= figures["lead_holds"] <= 1 and figures["lead_after_round"] == 4
        assert figures["lead_changes_low"] <= figures["lead_changes"] \
            <= figures["lead_changes_high"]
    assert "In the equilibrium population the sole leader after round 4 goes on to win " \
        in stdout
    assert (out / "report" / "report.html").is_file()
    assert (out / "report" / "seat_edges.png").is_file()
    assert "Seat edges by population" in (out / "report" / "report.md").read_text()


def test_json_format_prints_one_object(played):
    out, _ = played
    code, stdout, stderr = metagame_main("--resume", out, "--format", "json",
                                         "--bootstrap", 0)
    assert code == 0, stderr
    data = json.loads(stdout)
    assert data["bootstrap_resamples"] == 0 and data["mix"][0]["weight_low"] is None


def test_resume_plays_only_the_missing_lineups(played, tmp_path):
    import shutil
    out, _ = played
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    kept = copy / "random+random+greedy"
    before = (kept / "manifest.json").stat().st_mtime_ns
    shutil.rmtree(copy / "greedy+greedy+greedy")
    code, _, stderr = metagame_main("--resume", copy, "--bootstrap", 0, "--no-progress")
    assert code == 0, stderr
    assert (kept / "manifest.json").stat().st_mtime_ns == before
    replayed = Run.open(copy / "greedy+greedy+greedy")
    assert replayed.games.equals(Run.open(out / "greedy+greedy+greedy").games)


def test_a_meta_game_in_use_is_refused_and_left_untouched(played, tmp_path):
    import shutil
    out, _ = played
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    shutil.rmtree(copy / "greedy+greedy+greedy")
    before = {p: p.stat().st_mtime_ns for p in copy.rglob("*") if p.is_file()}
    with runlock.writing(copy):                 # another sim.metagame --resume at work
        code, _, stderr = metagame_main("--resume", copy, "--bootstrap", 0, "--no-progress")
    assert code == 2
    assert stderr.count("\n") == 1 and "in use by another process" in stderr
    assert not (copy / "greedy+greedy+greedy").exists()
    assert {p: p.stat().st_mtime_ns for p in copy.rglob("*") if p.is_file()
            and p.name != runlock.LOCK} == {p: t for p, t in before.items()
                                            if p.name != runlock.LOCK}


def test_decisions_are_judged_at_the_equilibriums_tables(played, tmp_path):
    import shutil
    out, _ = played
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    code, stdout, stderr = metagame_main("--resume", copy, "--bootstrap", 0, "--decisions", 2,
                                         "--tries", 4, "--jobs", 1, "--format", "json")
    assert code == 0, stderr
    judged = json.loads(stdout)["population_figures"]["equilibrium"]["decisions"]
    assert judged["lineups"] == 1 and judged["games_per_lineup"] == 2   # greedy alone
    assert judged["matters_low"] <= judged["matters"] <= judged["matters_high"]
    table = copy / "greedy+greedy+greedy" / "decisions.parquet"
    assert pd.read_parquet(table)["game_id"].max() == 1
    before = table.stat().st_mtime_ns
    code, stdout, stderr = metagame_main("--resume", copy, "--bootstrap", 0, "--decisions", 2,
                                         "--tries", 4, "--jobs", 1, "--no-progress")
    assert code == 0, stderr
    assert table.stat().st_mtime_ns == before                  # judged once
    assert "At tables of the equilibrium population " in stdout
    assert not (copy / "random+random+random" / "decisions.parquet").exists()


@pytest.mark.parametrize("args, message", [
    (["chess", "--agents", "random,greedy"], "unknown game 'chess'; available games: "),
    (["paris-damis"], "--agents is required"),
    (["paris-damis", "--agents", "random"], "two or more different agents"),
    (["paris-damis", "--agents", "random,random"], "two or more different agents"),
    (["paris-damis", "--agents", "random,nobody"], "available agents"),
    (["paris-damis", "--agents", "random,greedy", "--players", "7"], "players"),
    (["paris-damis", "--agents", "random,greedy", "--bootstrap", "-1"], "--bootstrap"),
    (["paris-damis", "--agents", "random,greedy", "--alpha", "0"], "--alpha"),
    (["paris-damis", "--agents", "random,greedy", "--decisions", "-1"], "--decisions"),
    (["paris-damis", "--agents", "random,greedy", "--tries", "3"], "--tries"),
    (["paris-damis", "--agents", "random,greedy", "--format", "xml"], "json"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "out"
    code, _, stderr = metagame_main(*args, "--out", out)
    assert code == 2 and stderr.count("\n") == 1 and message in stderr, stderr
    assert not out.exists()


def test_resume_of_a_directory_that_is_not_a_metagame_is_refused(tmp_path):
    code, _, stderr = metagame_main("--resume", tmp_path)
    assert code == 2 and "not a meta-game directory" in stderr


def test_resume_keeps_the_settings_it_was_given(played):
    out, _ = played
    code, _, stderr = metagame_main("--resume", out, "--games", 5, "--players", 4)
    assert code == 2 and stderr.count("\n") == 1
    assert "drop --players, --games" in stderr


def estimate(value: float, se: float, name: str = "x") -> dict[str, float]:
    z = NormalDist().inv_cdf(0.975)
    return {name: value, f"{name}_low": value - z * se, f"{name}_high": value + z * se}


def test_lineup_chances_are_the_multinomial_chances_of_a_drawn_table():
    chances = lineup_chances({"a": 0.5, "b": 0.5}, ["a+a", "a+b", "b+b"])
    assert chances == pytest.approx({"a+a": 0.25, "a+b": 0.5, "b+b": 0.25})
    three = lineup_chances({"a": 0.2, "b": 0.8}, ["a+a+b", "a+b+b", "b+b+b", "a+a+a"])
    assert three["a+b+b"] == pytest.approx(3 * 0.2 * 0.8 ** 2)
    assert sum(three.values()) == pytest.approx(1.0)


def test_lineup_chances_leave_out_the_unlikely_tables():
    chances = lineup_chances({"a": 1.0, "b": 0.0}, ["a+a", "a+b", "b+b"], least=1e-9)
    assert chances == {"a+a": 1.0}
    kept = lineup_chances({"a": 0.99, "b": 0.01}, ["a+a", "a+b", "b+b"], least=0.001)
    assert set(kept) == {"a+a", "a+b"}


def test_population_chances_are_those_of_the_stable_mix_and_of_a_uniform_mix():
    # weights as a meta-game writes them, not quite summing to 1
    chances = population_chances({"a": 0.5, "b": 0.0, "c": 0.5000001},
                                 ["a+a", "a+b", "a+c", "b+b", "b+c", "c+c"], least=1e-3)
    assert chances["equilibrium"] == pytest.approx({"a+a": 0.25, "a+c": 0.5, "c+c": 0.25})
    assert chances["uniform"]["a+a"] == pytest.approx(1 / 9)
    assert chances["uniform"]["b+c"] == pytest.approx(2 / 9)
    assert sum(chances["uniform"].values()) == pytest.approx(1.0)


def test_population_figure_weights_the_lineups_by_their_chances():
    per_lineup = {"a+a": estimate(0.2, 0.05), "a+b": estimate(0.6, 0.05)}
    pooled = population_figure(per_lineup, {"a+a": 0.75, "a+b": 0.25}, "x")
    assert pooled["x"] == pytest.approx(0.3)
    se = math.sqrt(0.75 ** 2 + 0.25 ** 2) * 0.05
    assert pooled["x_high"] - pooled["x_low"] == pytest.approx(2 * NormalDist().inv_cdf(0.975) * se)


def test_population_figures_gathers_each_figure_as_population_figure_gives_it():
    per_lineup = {"a+a": estimate(0.2, 0.05) | {"y": 4.0, "y_low": 3.0, "y_high": 5.0},
                  "a+b": estimate(0.6, 0.05) | {"y": 8.0, "y_low": 7.0, "y_high": 9.0}}
    chances = {"a+a": 0.5, "a+b": 0.5}
    both = population_figures(per_lineup, chances, ["x", "y"])
    assert both == population_figure(per_lineup, chances, "x") \
        | population_figure(per_lineup, chances, "y")
    assert both["y"] == pytest.approx(6.0)


def test_population_figure_of_one_agent_counts_its_seats():
    per_lineup = {"a+a": estimate(0.2, 0.05), "a+b": estimate(0.6, 0.05),
                  "b+b": estimate(0.9, 0.05)}
    chances = {"a+a": 0.25, "a+b": 0.5, "b+b": 0.25}
    # a's seats: two at a+a (0.25 x 2), one at a+b (0.5 x 1), none at b+b
    assert population_figure(per_lineup, chances, "x", "a")["x"] == pytest.approx(0.4)


def test_population_figure_skips_lineups_without_the_figure():
    per_lineup = {"a+a": estimate(float("nan"), float("nan")), "a+b": estimate(0.6, 0.05)}
    assert population_figure(per_lineup, {"a+a": 0.9, "a+b": 0.1}, "x")["x"] == \
        pytest.approx(0.6)
    nothing = population_figure({"a+a": {}}, {"a+a": 1.0}, "x")
    assert math.isnan(nothing["x"]) and math.isnan(nothing["x_low"])
