"""The pure helpers of the Betzanbloo report's build (reports/betzanbloo/build.py):
differences and their verdicts, the deviators that beat a pure population, the French
formatting and the meta-games that ``make betzanbloo-report`` plays, on inputs whose answers
are known (the populations' helpers are tested with sim.analysis.metagame)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from statistics import NormalDist

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("betzanbloo_build",
                                              ROOT / "reports" / "betzanbloo" / "build.py")
build = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(build)
Z = NormalDist().inv_cdf(0.975)


def estimate(value: float, se: float, name: str = "x") -> dict[str, float]:
    return {name: value, f"{name}_low": value - Z * se, f"{name}_high": value + Z * se}


def test_difference_of_independent_estimates():
    diff = build.difference(estimate(0.5, 0.03), estimate(0.4, 0.04), "x")
    assert diff["diff"] == pytest.approx(0.1)
    assert diff["diff_high"] - diff["diff"] == pytest.approx(Z * 0.05)
    assert diff["diff"] - diff["diff_low"] == pytest.approx(Z * 0.05)


@pytest.mark.parametrize(("diff", "verdict"), [
    ({"diff": 0.05, "diff_low": -0.01, "diff_high": 0.11}, "no different"),
    ({"diff": 0.01, "diff_low": 0.005, "diff_high": 0.015}, "negligible"),
    ({"diff": -0.015, "diff_low": -0.018, "diff_high": -0.012}, "negligible"),
    ({"diff": 0.05, "diff_low": 0.03, "diff_high": 0.07}, "higher"),
    ({"diff": -0.08, "diff_low": -0.10, "diff_high": -0.06}, "lower")])
def test_judged_says_whether_a_difference_is_real_and_large_enough(diff, verdict):
    assert build.judged(diff) == verdict


def test_stable_mix_keeps_the_played_agents_most_played_first():
    assert build.stable_mix({"a": 0.3, "b": 0.005, "c": 0.695}) == ["c", "a"]
    assert build.mix_words({"a": 0.3, "b": 0.005, "c": 0.695}) == "c 70%, a 30%"


def row(lineup: str, agent: str, share: float) -> dict:
    return {"lineup": lineup, "agent": agent, "win_share": share, "low": share - 0.05,
            "high": share + 0.05}


def test_invaders_find_the_best_lone_deviator_of_each_pure_population():
    payoff = [row("a+a+a", "a", 1 / 3),
              row("a+a+b", "a", 0.30), row("a+a+b", "b", 0.40),
              row("a+a+c", "a", 0.20), row("a+a+c", "c", 0.60),
              row("a+b+b", "a", 0.10), row("a+b+b", "b", 0.45),
              row("b+b+c", "b", 0.30), row("b+b+c", "c", 0.40)]
    found = {r["population"]: r for r in build.invaders(payoff, ["a", "b", "c"], 3)}
    assert found["a"]["invader"] == "c" and found["a"]["win_share"] == 0.60
    assert found["a"]["edge"] == pytest.approx(0.60 - 1 / 3)
    # among b: a alone wins 10%, c alone 40%; b's own seats (b+b+c's b) deviate from nothing
    assert found["b"]["invader"] == "c" and found["b"]["win_share"] == 0.40
    assert "c" not in found          # no table with one deviator among c's was played


def test_uneven_seats_are_significant_and_not_negligible():
    seats = [{"edge": -0.010, "edge_low": -0.015, "edge_high": -0.006},   # negligible
             {"edge": 0.030, "edge_low": 0.010, "edge_high": 0.050},      # uneven
             {"edge": 0.040, "edge_low": -0.010, "edge_high": 0.090}]     # not significant
    assert build.uneven_seats(seats) == [seats[1]]


def test_most_alone_reads_the_bots_of_the_stable_mix():
    figures = {"alone_a": 0.05, "alone_b": 0.08, "alone_c": 0.30}
    assert build.most_alone({"a": 0.6, "b": 0.4, "c": 0.0}, figures) == "b"
    assert build.most_alone({"a": 1.0}, {"alone_a": float("nan")}) is None


@pytest.mark.parametrize(("winners", "apart"), [
    (["safe"], False),                          # a sole winner shares nothing
    (["safe", "safe"], False),                  # copies of a fixed bot tie by construction
    (["safe", "contrarian"], True),
    (["ismcts", "ismcts"], True),               # searches draw on chance: a real tie
    (["contrarian", "contrarian", "safe"], True)])
def test_ties_apart_leave_out_copies_of_one_fixed_bot(winners, apart):
    assert build.ties_apart(winners) is apart


def test_french_numbers_use_a_comma_and_a_space_before_the_percent_sign():
    assert build.french_percent(0.262) == "26,2\u00a0%"
    assert build.french_interval({"x": 0.262, "x_low": 0.251, "x_high": 0.273}, "x") == \
        "26,2\u00a0% [25,1 ; 27,3]"
    assert build.french_range(build.pd.Series([0.5, 0.125])) == "12,5\u00a0% à 50,0\u00a0%"
    assert build.french_range(build.pd.Series([0.5, 0.5])) == "50,0\u00a0%"


@pytest.mark.parametrize(("items", "french", "text"), [
    ([], False, ""), ([3], False, "3"), ([3, 5], False, "3 and 5"),
    ([3, 4, 5], False, "3, 4 and 5"), ([3, 4, 5], True, "3, 4 et 5")])
def test_listing_reads_as_a_sentence(items, french, text):
    assert build.listing(items, french) == text


def test_advice_speaks_only_of_real_and_large_changes():
    changes = [("shared_win_apart", {}, "higher"), ("case_split", {}, "negligible"),
               ("case_lone", {}, "no different"), ("case_split", {}, "lower")]
    english = build.advice(changes)
    assert english.startswith("makes shared wins more frequent")
    assert "loses every card in fewer turns" in english and " and " in english
    assert "lone player" not in english
    assert build.advice(changes, french=True).startswith(
        "rend les victoires partagées plus fréquentes")
    assert build.advice([("shared_win_apart", {}, "no different")]) == ""


def test_variant_changes_compare_every_figure_with_the_defaults():
    base = {**estimate(0.30, 0.01, "case_lone"), **estimate(0.40, 0.01, "case_split"),
            **estimate(0.30, 0.01, "case_all-same"),
            **estimate(0.05, 0.01, "shared_win_apart")}
    variant = {**base, **estimate(0.20, 0.01, "case_split"),
               **estimate(0.50, 0.01, "case_all-same")}
    verdicts = {name: verdict for name, _, verdict in build.variant_changes(variant, base)}
    assert verdicts == {"case_lone": "no different", "case_split": "lower",
                        "case_all-same": "higher", "shared_win_apart": "no different"}


def test_the_make_target_plays_every_meta_game_the_report_reads():
    lines = [line.split("|") for line in build.metagame_lines(Path("runs/experiments"))]
    assert all(len(fields) == 3 for fields in lines)
    folders = [Path(out).name for out, _, _ in lines]
    assert len(set(folders)) == len(build.COUNTS) + len(build.VARIANTS)
    assert folders[0] == build.metagame_folder(build.USUAL)       # the usual table first
    for out, arguments, analysis in lines:
        assert f"--agents {','.join(build.POOL)}" in arguments
        assert analysis == build.ANALYSIS
        name = Path(out).name
        variant = next((v for v in build.VARIANTS if name.endswith(f"-{v}")), None)
        if variant:
            assert f"--variant {build.VARIANTS[variant][0]}" in arguments
        else:
            assert "--variant" not in arguments
        # the command the report prints is the one the target runs
        assert f"{arguments} {analysis} --out runs/experiments/{name}" in \
            build.metagame_command(int(name.split("-")[2][:-1]), variant)
