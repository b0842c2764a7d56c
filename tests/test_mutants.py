"""``python -m tests.mutants``: the curated mutations still apply to the sources (each
snippet found exactly once, each test file there), and bad input is one line, status 2."""

from __future__ import annotations

import pytest

from sim.cli import UsageError
from tests import mutants


def test_every_mutant_applies_to_the_sources_and_names_its_tests():
    listed = mutants.load()
    assert len(listed) >= 12
    for m in listed:
        assert m.original != m.mutated and m.rule and m.tests, m.name


def test_a_mutant_changes_its_file_in_a_copy_only(tmp_path):
    m = mutants.load()[0]
    (tmp_path / m.file).parent.mkdir(parents=True)
    source = (mutants.ROOT / m.file).read_text(encoding="utf-8")
    (tmp_path / m.file).write_text(source, encoding="utf-8")
    m.apply(tmp_path)
    mutated = (tmp_path / m.file).read_text(encoding="utf-8")
    assert m.mutated in mutated and m.original not in mutated
    assert (mutants.ROOT / m.file).read_text(encoding="utf-8") == source


def test_a_stale_snippet_is_refused(tmp_path):
    listing = tmp_path / "mutants.toml"
    listing.write_text('[[mutant]]\nname = "x"\nfile = "engines/core/compiled.py"\n'
                       'original = "no such code"\nmutated = "y"\nrule = "r"\n'
                       'tests = ["tests/engines/test_core_compiled.py"]\n', encoding="utf-8")
    with pytest.raises(UsageError, match="occurs 0 times in engines/core/compiled.py"):
        mutants.load(listing)


@pytest.mark.parametrize("status, outcome", [(0, "missed"), (1, "caught"), (2, "error"),
                                             (5, "error")])
def test_pytest_status_says_caught_or_missed(status, outcome):
    assert mutants.outcome(status) == outcome


def test_the_score_counts_caught_among_judged():
    assert mutants.score_line(["caught", "missed", "caught", "timeout"]) == \
        "score: 2/3 caught (67%), 1 timeout"


@pytest.mark.parametrize("argv, message", [
    (["no-such-mutant"], "unknown mutant 'no-such-mutant'; mutants: paris-tie-last-placements"),
    (["--jobs", "0"], "--jobs must be at least 1, got 0"),
    (["--timeout", "soon"], "invalid float value: 'soon'"),
])
def test_bad_input_is_one_line_and_status_2(argv, message, capsys):
    assert mutants.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("tests.mutants: error: ") and message in err
