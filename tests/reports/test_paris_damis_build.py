"""The Paris d'amis report's build (reports/paris-damis/build.py): its wording of compared
numbers, its reading order, the meta-games make paris-report plays from it, and what each
section says before its experiment has run."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pandas as pd
import pytest

from sim.metagame import build_parser as metagame_parser
from sim.metagame import lineup_specs, settings_from_args

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "reports" / "paris-damis"


@pytest.fixture(scope="module")
def build():
    spec = importlib.util.spec_from_file_location("paris_damis_build", HERE / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compared_row(diff, low, high, significant, negligible=False):
    return pd.Series({"diff": diff, "low_adj": low, "high_adj": high,
                      "significant": significant, "negligible": negligible})


def test_the_actions_of_a_population_weight_each_table_by_its_chance(build):
    kinds = list(build.questions.PACE)
    per_table = {"a+a": dict.fromkeys(kinds, 10.0), "a+b": dict.fromkeys(kinds, 30.0)}
    counts = build.mix_actions(per_table, {"a+a": 0.3, "a+b": 0.1})
    assert list(counts.index) == kinds and counts.to_numpy() == pytest.approx([15.0] * 6)
    minutes = build.questions.paced_minutes(counts, 2)
    assert minutes["table_minutes_low"] == pytest.approx(
        15 * sum(low for low, _ in build.questions.PACE.values()) / 60)
    assert minutes["minutes_per_player"] == pytest.approx(minutes["table_minutes"] / 2)


def test_a_stable_mix_is_written_without_the_agents_it_leaves_out(build):
    assert build.stable_text({"ismcts": 0.812, "greedy@tuned": 0.186, "cautious": 0.002}) \
        == "ismcts 81%, greedy@tuned 19%"


def test_a_difference_is_worded_by_its_significance_and_size(build):
    assert build.difference(None) == "-"
    assert build.difference(compared_row(0.052, 0.031, 0.074, True)) \
        == "+5.2 pp [+3.1, +7.4], significant"
    assert build.difference(compared_row(0.004, 0.001, 0.007, True, negligible=True)) \
        == "+0.4 pp [+0.1, +0.7], negligible"
    assert build.difference(compared_row(-0.01, -0.03, 0.01, False)) \
        == "-1.0 pp [-3.0, +1.0], not significant"
    assert build.difference(compared_row(1.5, 0.5, 2.5, True), scale=1.0, unit=" cards") \
        == "+1.5 cards [+0.5, +2.5], significant"


def test_jokers_are_judged_against_the_baseline_only_when_intervals_part(build):
    base = {"luck_low": 0.30, "luck_high": 0.40}
    assert build.verdict_against({"luck_low": 0.41, "luck_high": 0.5}, base, "luck") \
        == "more than without jokers"
    assert build.verdict_against({"luck_low": 0.1, "luck_high": 0.29}, base, "luck") \
        == "less than without jokers"
    assert build.verdict_against({"luck_low": 0.35, "luck_high": 0.45}, base, "luck") \
        == "no different from without jokers"


def test_reward_tables_read_flat_ones_first_by_their_reward(build):
    tables = ["rules", "flat-12", "flat-8", "escalating", "flat-10"]
    assert sorted(tables, key=build.reading_order) \
        == ["flat-8", "flat-10", "flat-12", "escalating", "rules"]


def test_the_snowball_is_called_so_only_when_its_interval_is_above_zero(build):
    figures = {"snowball": 0.06, "snowball_low": 0.02, "snowball_high": 0.10,
               "lead_holds": 0.7, "lead_holds_low": 0.65, "lead_holds_high": 0.75,
               "lead_after_round": 4.0, "lead_changes": 1.25, "lead_changes_low": 1.1,
               "lead_changes_high": 1.4}
    assert "the extra cards snowball" in build.drama(figures)
    assert "+6.0 pp [+2.0, +10.0]" in build.drama(figures)
    assert "after round 4 " in build.drama(figures)
    assert "no measurable snowball" in build.drama(figures | {"snowball_low": -0.01})
    assert build.drama({"snowball": 0.06}) == ""


def test_rule_values_are_written_as_variant_takes_them(build):
    assert build.rule_value([8, 10, 12]) == "8,10,12"
    assert build.rule_value("wild") == "wild"
    assert build.rule_value(2) == "2"


def test_the_rule_sets_are_the_defaults_and_the_joker_variants_of_the_experiment(build):
    sets = build.rule_sets()
    assert sets["defaults"] == {}
    variants = build.BOOK.experiment(build.SEARCH_RULES)["variants"]
    jokers = {v["name"] for v in variants if v.get("params", {}).get("jokers")}
    assert jokers and set(sets) == {"defaults"} | jokers


def test_every_meta_game_make_plays_is_a_valid_command(build, tmp_path):
    lines = build.metagame_lines(tmp_path)
    assert len(lines) == len(build.COUNTS) + len(build.rule_sets()) * len(build.RULES_COUNTS)
    folders = set()
    for line in lines:
        out, arguments, analysis = line.split("|")
        assert Path(out).parent == tmp_path
        folders.add(Path(out).name)
        assert analysis == ("" if Path(out).name in {f"metagame-{k}p" for k in build.COUNTS}
                            else build.RULES_ANALYSIS)
        args = metagame_parser().parse_args(arguments.split() + analysis.split()
                                            + ["--out", str(tmp_path / "o")])
        settings, _ = settings_from_args(args)
        assert lineup_specs(settings)               # every lineup validated, none played
    assert len(folders) == len(lines)


def test_every_section_says_what_to_run_before_its_experiment_has(build, tmp_path):
    figures_before = sorted(HERE.glob("*.png"))
    for number, section_of in enumerate(build.SECTIONS, start=1):
        text = build.BOOK.section_or_gap(section_of, number, tmp_path, "paris-report")
        assert text.startswith(f"## {number}. ")
        assert "**Not answered yet:**" in text, section_of.__name__
        [command] = re.findall(r"Run `python -m (sim\.[a-z]+) [^`]+`", text)
        assert command in {"sim.experiment", "sim.metagame", "sim.design", "sim.decisions"}
    assert sorted(HERE.glob("*.png")) == figures_before


def test_the_summary_is_in_english_and_in_french():
    summary = (HERE / "summary.md").read_text(encoding="utf-8")
    assert re.search(r"^## Summary", summary, re.M)
    assert re.search(r"^## Résumé", summary, re.M)
    assert re.search(r"^## Recommendations", summary, re.M)
    assert re.search(r"^## Recommandations", summary, re.M)
