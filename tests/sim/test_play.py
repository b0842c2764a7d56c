"""``python -m sim.play``: reading a person's move, the table views (what a seat may know and
nothing else), the command line's errors, saved games that ``sim.replay`` and ``sim.load``
read, and every registered game played to its end through the generic view.

The pseudo-terminal game is in ``test_play_terminal.py``."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import engines
import sim
import sim.play as play
import sim.replay as replay
from engines.core.api import Action
from sim.runner import RecordedAgent, RecordingMismatch
from sim.views import (
    generic_view,
    public_text,
    supports_symbols,
    table_events,
    to_ascii,
    view_for,
)
from tests.engines.paris_damis.paris_helpers import build
from tests.engines.paris_damis.paris_helpers import play as play_steps

ROOT = Path(__file__).resolve().parents[2]
NAMES4 = ["P0 you", "P1 greedy", "P2 greedy", "P3 greedy"]


def run(argv: list[str], typed: str = "", out: io.TextIOBase | None = None
        ) -> tuple[int, str, str]:
    """``python -m sim.play ARGV`` in process with ``typed`` as the keyboard: (status,
    screen, stderr)."""
    out = out if out is not None else io.StringIO()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = play.main(argv, stdin=io.StringIO(typed), stdout=out)
    screen = out.getvalue() if isinstance(out, io.StringIO) else ""
    return code, screen, err.getvalue()


def decisions_on_screen(screen: str) -> list[str]:
    """Every move the screen reports, as ``P1 bet 2`` (the person's and the bots')."""
    found = re.findall(r"^(P\d+) \S+: (.+?)(?: \(your only move\))?$", screen, re.M)
    return [f"{seat} {text}" for seat, text in found]


def as_seen_by_p0(log: list[str]) -> list[str]:
    """The decisions of a Paris d'amis log as P0 saw them: the others' discards unnamed."""
    seen = []
    for line in log:
        if m := re.match(r"^P(\d+) (?!exchanges )(.+)$", line):
            seat, text = int(m[1]), m[2]
            seen.append(f"P{seat} {text if seat == 0 else public_text('paris-damis', text)}")
    return seen


# --------------------------------------------------------------------------------------
# Reading a move
# --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def paris_turn():
    """Paris d'amis, P0 to play with 10♥ K♠ 3♣ (trump ♥), P1 holding A♦ 5♥."""
    return build(players=2, hands={0: "10♥ K♠ 3♣", 1: "A♦ 5♥"}, deck_top="2♦ 2♣")


def test_a_number_picks_the_listed_move(paris_turn):
    legal = paris_turn.legal_actions()
    assert play.parse_choice("1", legal, paris_turn) == legal[0]
    assert play.parse_choice(f" {len(legal)} ", legal, paris_turn) == legal[-1]


@pytest.mark.parametrize("typed, expected", [
    ("place 10♥ → hearts", "place 10♥ → hearts"),      # the whole text
    ("10♥ hearts", "place 10♥ → hearts"),              # without the verb (the form)
    ("10h Hearts", "place 10♥ → hearts"),              # suit letters, any case
    ("PLACE 10H -> CLUBS", "place 10♥ → clubs"),       # ASCII arrow
    ("10♥ ♦", "place 10♥ → diamonds"),                 # the column by its symbol
    ("K♠", "place K♠ → spades"),                       # the only column a K♠ may go to
    ("bet 2", "bet 2"),
])
def test_typed_moves_are_read(paris_turn, typed, expected):
    legal = paris_turn.legal_actions()
    assert play.parse_choice(typed, legal, paris_turn).text == expected


@pytest.mark.parametrize("typed, reason", [
    ("", r"type a move: a number 1\.\.\d+"),
    ("0", r"no move 0: choose 1\.\.\d+"),
    ("99", r"no move 99: choose 1\.\.\d+"),
    ("10♥", r"'10♥' fits 4 moves \(place 10♥ → hearts, place 10♥ → diamonds, .*\); say "
            r"which"),
    ("fold", r"'fold' is not a move here; choose 1\.\.\d+"),
    ("place A♦ → diamonds", r"place A♦ → diamonds is not legal for P0 in phase turn$"),
])
def test_bad_input_is_refused_with_its_reason(paris_turn, typed, reason):
    with pytest.raises(ValueError, match=reason):
        play.parse_choice(typed, paris_turn.legal_actions(), paris_turn)


def test_words_compare_symbols_letters_and_suit_names():
    assert play.words("Place 10♥ → Hearts") == ["place", "10h", "h"]
    assert play.words("lay 3♣ as ♠") == play.words("LAY 3c AS spades")


# --------------------------------------------------------------------------------------
# The menu and what the others see
# --------------------------------------------------------------------------------------
def test_menu_numbers_every_move_and_folds_long_counting_runs():
    legal = [Action(i, f"stake {i + 1}") for i in range(100)] + [Action(100, "banco")]
    lines = play.menu(legal, 80)
    assert lines[0].split()[:4] == ["1-100)", "stake", "1", ".."]
    assert "101) banco" in lines[0]
    short = [Action(i, f"play {i + 1}") for i in range(5)]
    assert " ".join(play.menu(short, 80)).split() == [
        "1)", "play", "1", "2)", "play", "2", "3)", "play", "3", "4)", "play", "4", "5)",
        "play", "5"]


@pytest.mark.parametrize("slug, text, shown", [
    ("betzanbloo", "play 7", "chooses a card face down"),
    ("betzanbloo", "capture 9", "capture 9"),
    ("menteur", "lay 5♥ as ♠", "lays a card face down, announcing ♠"),
    ("menteur", "lay 9♠", "lays a card face down"),
    ("menteur", "call", "call"),
    ("chasse-coeur", "pass 3♦", "passes a card"),
    ("petasse", "play Q♠", "play Q♠"),
    ("pouilleux", "place 3", "rearranges their hand"),
    ("paris-damis", "place 10♥ → hearts", "place 10♥ → hearts"),
    ("paris-damis", "discard 3♣", "discards a card"),
    ("paris-damis", "exchange", "exchange"),
    ("tarot", "discard 5♠", "lays a card in the écart"),
    ("tarot-lorrain", "discard R♣", "lays a card in the écart"),
    ("tarot", "play 5♠", "play 5♠"),
    ("tarot-tare", "discard T4", "discard T4"),
    ("empereur", "give 7", "gives a card"),
    ("empereur", "play Joker as 3", "play Joker as 3"),
])
def test_moves_made_face_down_are_not_named_to_the_others(slug, text, shown):
    assert public_text(slug, text) == shown


def test_table_events_are_the_public_lines_of_designed_games_logs():
    log = ["P0 place 10♥ → hearts", "round 1 ends; ♥: P0 wins 7♥ (11); k = 2: P0 ✗ bet 1",
           "new cards: P0 +8 (9 in hand)", "P0 exchanges 9 cards for 7", "P1 discard 3♣",
           "round 2: trump ♦, face up A♥ 9♦ 8♠ 7♣, P0 starts"]
    assert table_events("paris-damis", log) == log[1:4] + log[5:]
    assert table_events("betzanbloo", ["turn 1: threshold 3", "P0 play 4",
                                       "turn 1 resolved: 4 1 1 — split"]) == [
        "turn 1: threshold 3", "turn 1 resolved: 4 1 1 — split"]
    assert table_events("menteur", ["P0 lay 3♥ as ♠", "round 1: ..."]) == []


def test_ascii_forms_and_encoding_detection():
    assert to_ascii("place 10♥ → ♣ · Pétasse ✓") == "place 10h -> c | Petasse ok"
    assert supports_symbols("utf-8") and supports_symbols(None)
    assert not supports_symbols("ascii") and not supports_symbols("latin-1")


# --------------------------------------------------------------------------------------
# Views: what the seat may know, and nothing else
# --------------------------------------------------------------------------------------
def test_paris_view_shows_columns_bets_markers_treasures_and_the_sorted_hand():
    state = build(players=2, hands={0: "K♠ 10♥ 3♣", 1: "A♦ 5♥ 4♦"}, deck_top="2♦ 2♣",
                  treasures={1: "9♥ Q♠"}, faces={0: "J♥", 1: "8♦", 2: "A♠", 3: "7♣"})
    play_steps(state, "P0 place 10♥ → hearts", "P1 place 5♥ → hearts", "P0 bet 2")
    obs = state.observation(1)
    text = "\n".join(view_for("paris-damis")(obs, state.game, ["P0 greedy", "P1 you"]))
    lines = text.splitlines()
    assert lines[0].startswith("Paris d'amis · round 1/8 · phase turn · trump ♥")
    assert re.search(r"^points card\s+J♥\s+8♦\s+A♠\s+7♣$", text, re.M)
    assert re.search(r"^P0 greedy\s+10♥ =10\s+·\s+·\s+·$", text, re.M)
    assert re.search(r"^P1 you\s+5♥ =5\s+·\s+·\s+·$", text, re.M)
    # seat, bet, hand size, markers left, treasure, points per suit
    assert re.search(r"^P0 greedy\s+2\s+2\s+11\s+–\s+0 0 0 0$", text, re.M)
    assert re.search(r"^P1 you\s+–\s+2\s+11\s+9♥ Q♠\s+1 0 2 0$", text, re.M)
    assert lines[-1] == "your hand (2): 1·4♦  2·A♦"
    assert "K♠" not in text and "3♣" not in text       # P0's hand stays hidden


def test_betzanbloo_view_keeps_this_turns_choices_face_down():
    game = engines.load("betzanbloo", players=3)
    state = game.new_state(4)
    state.apply("play 9")                               # P0 chooses, face down
    # (the thresholds are 3..8: every card played here is legal)
    names = ["P0 safe", "P1 you", "P2 safe"]
    text = "\n".join(view_for("betzanbloo")(state.observation(1), game, names))
    assert re.search(r"^P0 safe\s+1 2 3 4 5 6 7 8 9 10\s+chosen\s+0$", text, re.M)
    assert re.search(r"^P1 you\s+.*\s+to choose\s+0$", text, re.M)
    state.apply("play 10")
    state.apply("play 2")                               # the turn resolves: all revealed
    while state.observation(1).phase == "capture":
        state.apply(state.legal_actions()[0])
    obs = state.observation(1)
    text = "\n".join(view_for("betzanbloo")(obs, game, names))
    assert re.search(r"turn 1 \(threshold \d\): P0 9, P1 10, P2 2", text)
    assert text.splitlines()[-1].startswith(f"your hand ({len(obs.hand)}): 1·1  2·2")


def test_ascenseur_view_shows_bids_and_the_trick_not_the_others_cards():
    game = engines.load("ascenseur-atouts")
    state = game.new_state(2)
    while state.observation(0).phase == "bidding" or state.current_player != 0:
        state.apply(state.legal_actions()[0])
    obs = state.observation(0)
    text = "\n".join(view_for("ascenseur-atouts")(obs, game, NAMES4))
    assert text.startswith(f"Ascenseur aux atouts · {obs.cards} card(s) each")
    for p in range(4):
        assert re.search(rf"^{NAMES4[p]}\s+{obs.bids[p]}\s+{obs.tricks[p]}\s+"
                         rf"{obs.errors[p]}\s+{obs.hand_sizes[p]}$", text, re.M)
    hand = sorted(obs.hand)
    assert text.splitlines()[-1].startswith(f"your hand ({len(hand)}): 1·T{hand[0] + 1}")
    others = set(range(22)) - set(hand) - set(obs.played) - {c for _, c, _ in obs.trick}
    shown = {int(t) - 1 for t in re.findall(r"T(\d+)", text)}
    assert not shown & others                           # no card this seat cannot see


def test_generic_view_lists_the_observation_by_seat_with_cards_named():
    game = engines.load("rikiki")
    state = game.new_state(3)
    while state.current_player != 2 or not state.observation(2).trick:
        state.apply(state.legal_actions()[0])
    obs = state.observation(2)
    lines = generic_view(obs, game, NAMES4)
    assert lines[0] == f"Rikiki · phase {obs.phase}"
    assert f"bids: P0 {obs.bids[0]}, P1 {obs.bids[1]}, P2 {obs.bids[2]}, P3 {obs.bids[3]}" \
        in lines
    seat, card = obs.trick[0]
    assert any(line.startswith(f"trick: P{seat} ") for line in lines)
    assert lines[-1].startswith(f"your hand ({len(obs.hand)}): 1·")
    assert not any(line.startswith(("array", "params", "determinize")) for line in lines)


# --------------------------------------------------------------------------------------
# The command line
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv, message", [
    ([], "a game is required; available games: ascenseur-atouts, baccara, "),
    (["chess"], "unknown game 'chess'; available games: ascenseur-atouts, "),
    (["paris-damis", "--seat", "4"], "--seat 4 is not a seat: seats are 0..3"),
    (["paris-damis", "--agents", "greedy,safe"],
     "--agents takes one agent or 3 (one per other seat, in seat order), got 2"),
    (["paris-damis", "--agents", "safe"], "unknown agent 'safe' for paris-damis; available "
                                          "agents: aggressive, cautious, flatmc, greedy, "),
    (["paris-damis", "--variant", "colour=red"], "valid"),
    (["paris-damis", "--players", "9"], "players"),
    (["paris-damis", "--seed", "-1"], "argument --seed: a seed is a whole number from 0 to "
                                   "2**63 - 1, got '-1'"),
    (["paris-damis", "--pace", "inf"], "argument --pace: must be a finite number, got 'inf'"),
    (["paris-damis", "--pace", "nan"], "argument --pace: must be a finite number, got 'nan'"),
    (["paris-damis", "--agents", ""], "--agents is empty"),
    (["paris-damis", "--pace", "-2"], "--pace must be 0 or more seconds, got -2"),
    (["paris-damis", "--seed", "x"], "argument --seed: a seed is a whole number"),
])
def test_bad_command_lines_are_one_line_and_status_2(argv, message):
    code, screen, err = run(argv)
    assert code == 2 and screen == ""
    assert err.count("\n") == 1 and err.startswith("sim.play: error: ")
    assert message in err


def test_a_save_directory_in_use_is_refused_before_the_game(tmp_path):
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "x").write_text("")
    code, screen, err = run(["betzanbloo", "--save", str(tmp_path / "old")])
    assert (code, screen) == (2, "")
    assert "--save" in err and "is not an empty directory" in err


def test_help_documents_the_command(capsys):
    with pytest.raises(SystemExit) as stop:
        play.main(["--help"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    for option in ("--players", "--seat", "--agents", "--variant", "--seed", "--save",
                   "--pace", "--ascii", "quit", "10♥ hearts"):
        assert option in text


def test_help_on_a_terminal_without_suit_symbols():
    done = subprocess.run([sys.executable, "-m", "sim.play", "--help"], capture_output=True,
                          cwd=ROOT, env=os.environ | {"PYTHONIOENCODING": "ascii",
                                                      "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert b"letters h d s c for the card suits h d s c;" in done.stdout
    assert done.stdout.isascii()


# --------------------------------------------------------------------------------------
# Games played to the end, saved and replayed
# --------------------------------------------------------------------------------------
def test_a_saved_game_replays_and_loads_like_a_batch_run(tmp_path):
    save = tmp_path / "game"
    # the person: nonsense, an out-of-range number, help, the table again, then moves
    typed = "fold\n99\n?\ntable\n" + "bet 2\n" + "2\n" * 400
    code, screen, err = run(["paris-damis", "--seed", "5", "--pace", "0", "--variant",
                             "rounds=2", "--save", str(save)], typed)
    assert code == 0, err
    assert "refused: 'fold' is not a move here" in screen
    assert "refused: no move 99: choose 1.." in screen
    assert "Commands: 'help' or '?'" in screen
    assert re.search(r"^\* round 1 ends; ♥: ", screen, re.M)        # the table's events
    assert f"replay it with: python -m sim.replay {save} --game 0" in screen
    manifest = json.loads((save / "manifest.json").read_text())
    assert manifest["spec"]["agents"] == ["human", "greedy", "greedy", "greedy"]
    assert manifest["status"] == "complete" and manifest["human"]["seat"] == 0
    moves = decisions_on_screen(screen)
    assert len(manifest["human"]["moves"]) == sum(m.startswith("P0 ") for m in moves)
    # sim.replay plays the same game: the same moves, in the same order
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert replay.main([str(save), "--game", "0"]) == 0
    log = out.getvalue().splitlines()
    assert as_seen_by_p0(log) == moves
    rank = re.search(r"you \(P0 you\) finished rank (\d)", screen).group(1)
    assert re.search(rf"^\s+rank {rank}\s+seat 0 \(human\)", "\n".join(log), re.M)
    # and the tables read back like any run's
    players = sim.load(save, "players")
    assert list(players["agent"]) == ["human", "greedy", "greedy", "greedy"]
    assert players.loc[players["seat"] == 0, "rank"].item() == int(rank)


def test_the_person_may_take_any_seat_against_bots_of_their_choice(tmp_path):
    save = tmp_path / "seat2"
    code, screen, err = run(["ascenseur-atouts", "--players", "3", "--seat", "2", "--agents",
                             "random,estimator", "--seed", "4", "--pace", "0", "--save",
                             str(save)], "1\n" * 500)
    assert code == 0, err
    assert screen.startswith("Ascenseur aux atouts: you are P2 you; P0 random, P1 estimator")
    assert "P2 you, your move [1-" in screen and "P0 you" not in screen
    assert re.search(r"^\* trick 1: ", screen, re.M)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert replay.main([str(save), "--game", "0"]) == 0
    assert out.getvalue().startswith("ascenseur-atouts, seed 4, game 0: seat 0 random, seat 1 "
                                     "estimator, seat 2 human")


def test_replay_refuses_moves_that_no_longer_fit(tmp_path):
    agent = RecordedAgent([999])
    with pytest.raises(RecordingMismatch, match="recorded move 1 \\(action code 999\\)"):
        agent.act(None, [Action(0, "bet 1")], np.random.default_rng(0))
    with pytest.raises(RecordingMismatch, match="the recording ends after 1 moves"):
        agent.act(None, [Action(999, "x")], np.random.default_rng(0))


def test_the_same_seed_and_moves_give_the_same_game():
    argv = ["betzanbloo", "--seed", "8", "--pace", "0", "--agents", "safe,contrarian,random,"
            "responder"]
    first, second = run(argv, "1\n" * 50)[1], run(argv, "1\n" * 50)[1]
    assert first == second and "game over" in first


def test_leaving_the_game_is_clean():
    code, screen, _ = run(["paris-damis", "--seed", "1", "--pace", "0"], "quit\n")
    assert code == 1 and screen.rstrip().endswith("game abandoned; nothing saved")
    code, screen, _ = run(["paris-damis", "--seed", "1", "--pace", "0"], "")     # Ctrl-D
    assert code == 1 and screen.rstrip().endswith("game abandoned; nothing saved")


def test_a_terminal_without_suit_symbols_gets_letters():
    out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    code, _, err = run(["paris-damis", "--seed", "2", "--pace", "0", "--variant", "rounds=1"],
                       "1\n" * 200, out)
    assert code == 0, err
    out.seek(0)
    screen = out.read()
    assert "game over" in screen and "->" in screen and re.search(r"\b\d{1,2}[hdsc]\b", screen)
    forced = run(["paris-damis", "--seed", "2", "--pace", "0", "--variant", "rounds=1",
                  "--ascii"], "1\n" * 200)[1]
    assert forced == screen and not re.search("[♥♦♠♣→]", forced)


@pytest.mark.slow
@pytest.mark.parametrize("slug", engines.available())
def test_every_game_can_be_played_to_the_end(slug):
    """The person always takes the first listed move; random bots; the generic or designed
    view on every turn."""
    code, screen, err = run([slug, "--seed", "3", "--pace", "0", "--agents", "random"],
                            "1\n" * 5000)
    assert code == 0, err + screen[-2000:]
    assert "\ngame over: " in screen and "you (P0 you) finished rank " in screen
