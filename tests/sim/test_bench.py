"""``python -m sim.bench`` on the new kernels: a row per compiled bot, columns aligned for
long game names, no target where the issue sets none (tiny game counts: a smoke test of the
table, not a measure)."""

from __future__ import annotations

import contextlib
import io

import pytest

import engines
from sim import bench
from sim.kernels import kernel_for


@pytest.mark.parametrize("slug", ["betzanbloo", "ascenseur-atouts"])
def test_every_compiled_bot_gets_a_kernel_row(slug):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert bench.main([slug, "--kernel-games", "8", "--python-games", "1",
                           "--batch-games", "0", "--search-games", "0",
                           "--search-decisions", "0", "--repeat", "1"]) == 0
    lines = out.getvalue().splitlines()
    rows = [line for line in lines if line.startswith(slug)]
    paths = {line[len(slug):].strip().split("  ")[0] for line in rows}
    expected = {"kernel", "python", "kernel/python"} \
        | {f"kernel {name}" for name in kernel_for(slug).bots(slug)}
    assert paths == expected
    header = lines[0]
    assert all(line.index("kernel" if "kernel" in line else "python") == header.index("path")
               for line in rows)
    assert all(line.rstrip().endswith("-  -") for line in rows if "kernel/python" not in line)
    speedup = next(line for line in rows if "kernel/python" in line)
    assert speedup.rstrip().endswith(("x  yes", "x  NO"))


def bench_json(argv, search=("--search-games", "0", "--search-decisions", "0")):
    import json
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert bench.main([*argv, "--kernel-games", "8", "--python-games", "1",
                           "--batch-games", "0", "--repeat", "1", *search, "--json"]) == 0
    return {(m["game"], m["variant"], m["path"]): m for m in json.loads(out.getvalue())["measures"]}


def test_a_variant_is_timed_against_its_own_target():
    measures = bench_json(["rikiki", "--variant", "hands=5"])
    kernel = measures["rikiki", "hands=5", "kernel"]
    assert kernel["target"] == 60_000 and kernel["players"] == 4
    assert measures["rikiki", "hands=5", "python"]["target"] is None
    one_deal = bench_json(["chasse-coeur", "petasse", "--variant", "num_hands=1"])
    assert {k: m["target"] for k, m in one_deal.items() if m["path"] != "kernel/python"} == {
        ("chasse-coeur", "num_hands=1", "kernel"): None,
        ("chasse-coeur", "num_hands=1", "python"): 3_000,
        ("petasse", "num_hands=1", "kernel"): None,
        ("petasse", "num_hands=1", "python"): 3_000}
    assert one_deal["petasse", "num_hands=1", "kernel/python"]["target"] == bench.KERNEL_SPEEDUP
    defaults = bench_json(["chasse-coeur"])
    assert defaults["chasse-coeur", "", "python"]["target"] is None


def test_variant_key_names_the_changed_parameters_but_players():
    import engines
    assert bench.variant_key(engines.load("rikiki").params) == ""
    assert bench.variant_key(engines.load("rikiki", hands=(5,), players=5).params) == "hands=5"
    assert bench.variant_key(engines.load("chasse-coeur", num_hands=1, pass_cards=3).params) \
        == "pass_cards=3 num_hands=1"


@pytest.mark.parametrize("argv, message", [
    (["rikiki", "--variant", "colour=blue"], "hands"),
    (["chess"], "unknown game 'chess'; available games: "),
    (["rikiki", "--jobs", "0"], "--jobs must be from 1 to "),
    (["rikiki", "--seed", "-1"], "argument --seed: a seed is a whole number"),
    (["rikiki", "--repeat", "0"], "--repeat take a positive number"),
    (["rikiki", "--colour"], "unrecognized arguments: --colour"),
    (["paris-damis", "--search-games", "-1"], "--search-games"),
    (["paris-damis", "--search-python-games", "-1"], "--search-python-games"),
])
def test_bad_input_is_one_line_and_status_2(argv, message):
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert bench.main(argv) == 2
    assert err.getvalue().count("\n") == 1 and message in err.getvalue(), err.getvalue()


def test_the_search_rows_time_ismcts_against_the_issue_s_targets():
    measures = bench_json(["paris-damis", "--players", "3"],
                          search=("--search-games", "1", "--search-decisions", "2",
                                  "--search-python-games", "1"))
    table = measures["paris-damis", "", "kernel ismcts+rnd"]
    assert table["target"] == bench.SEARCH_TARGETS["paris-damis", ""] and table["games"] == 1
    python_table = measures["paris-damis", "", "python ismcts+rnd"]
    table_ratio = measures["paris-damis", "", "ismcts+rnd k/p"]
    assert python_table["games"] == table_ratio["games"] == 1
    assert table_ratio["target"] == bench.SEARCH_SPEEDUP
    assert table_ratio["games_per_second"] == pytest.approx(
        python_table["seconds"] / table_ratio["seconds"])       # the kernel's seconds
    compiled = measures["paris-damis", "", "ismcts compiled"]
    python = measures["paris-damis", "", "ismcts python"]
    ratio = measures["paris-damis", "", "ismcts c/py"]
    assert compiled["games"] == python["games"] == 2                 # decisions here
    assert ratio["target"] == bench.SEARCH_SPEEDUP
    assert ratio["games_per_second"] == pytest.approx(
        compiled["games_per_second"] / python["games_per_second"])



def test_the_python_search_table_is_timed_only_where_ismcts_rolls_out_with_a_bot():
    """Chasse-coeur's ismcts rolls out at random by default: its Python path is the compiled
    search, so there is no Python search table to time."""
    assert bench.rolls_out_with_a_bot(engines.load("paris-damis"))
    assert not bench.rolls_out_with_a_bot(engines.load("chasse-coeur"))
    assert not bench.rolls_out_with_a_bot(engines.load("bataille"))     # no default profile


def test_the_searched_table_runs_by_default_only_where_it_has_a_target():
    """Its tables can take minutes a game elsewhere (random l'empereur seats seldom end a
    hand); asked for, it runs in every game named."""
    paris = engines.load("paris-damis")
    assert bench.search_games(paris, None) == bench.SEARCH_GAMES
    assert bench.search_games(engines.load("paris-damis", rounds=4), None) == 0
    assert bench.search_games(engines.load("empereur"), None) == 0
    assert bench.search_games(engines.load("empereur"), 2) == 2
    assert bench.search_games(paris, 0) == 0
