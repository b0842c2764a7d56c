"""``python -m sim.play`` driven as a person would drive it: a real pseudo-terminal (pexpect)
plays a whole seeded game of Paris d'amis, with invalid input along the way, then the saved
game is replayed by ``sim.replay``; Ctrl-C, Ctrl-D and a terminal without suit symbols."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import sys
from pathlib import Path

import pexpect
import pytest

import sim.replay as replay
from tests.sim.test_play import as_seen_by_p0

ROOT = Path(__file__).resolve().parents[2]
PROMPT = re.compile(r"P0 you, your move \[1-(\d+), \? for help\]: ")
CELL = re.compile(r"^(\d+)\) (.+)$")


def spawn(*args: str, **env: str) -> pexpect.spawn:
    """``python -m sim.play ARGS`` in a fresh pseudo-terminal of 100 columns."""
    environ = os.environ | {"PYTHONPATH": str(ROOT), "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
    environ.pop("PYTHONIOENCODING", None)
    return pexpect.spawn(sys.executable, ["-m", "sim.play", *args], cwd=str(ROOT),
                         env=environ | env, encoding="utf-8", timeout=120,
                         dimensions=(50, 100), preexec_fn=default_interrupt)


def default_interrupt() -> None:
    """In the child before it starts: Ctrl-C interrupts, as in a user's terminal.  An ignored
    SIGINT survives exec, and a test worker may have it ignored (a library it ran before set
    it so), which left the Ctrl-C test waiting in a full ``make test``."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def menu(screen: str) -> list[str]:
    """The numbered moves on the screen, in order."""
    lines = screen.replace("\r", "").split("\n")
    start = max(i for i, line in enumerate(lines) if line == "your moves:")
    moves = []
    for line in lines[start + 1:]:
        for cell in re.split(r"\s{3,}", line.strip()):
            if m := CELL.match(cell):
                assert int(m[1]) == len(moves) + 1, line
                moves.append(m[2])
    return moves


def typed_form(text: str) -> str:
    """How a person might type a move: ``place 10♥ → hearts`` as ``10♥ hearts``, the rest
    whole."""
    if text.startswith("place "):
        return text.removeprefix("place ").replace(" →", "")
    return text


@pytest.mark.slow
def test_a_person_plays_a_whole_game_of_paris_damis(tmp_path):
    save = tmp_path / "my-game"
    child = spawn("paris-damis", "--seed", "11", "--pace", "0", "--save", str(save))
    screen = []
    turns = 0
    while child.expect([PROMPT, "game over: "]) == 0:
        shown = child.before
        screen.append(shown + child.after)
        legal = menu(shown)
        assert len(legal) == int(child.match[1]) >= 2
        turns += 1
        if turns == 1:
            assert "points card" in shown and "trump ♥" in shown
            assert re.search(r"your hand \(8\): 1·\S+  2·", shown)
            for bad, reason in [("banana", "refused: 'banana' is not a move here"),
                                ("0", "refused: no move 0"),
                                (str(len(legal) + 1), f"refused: no move {len(legal) + 1}"),
                                ("", "refused: type a move")]:
                child.sendline(bad)
                child.expect(PROMPT)
                assert reason in child.before
        if turns == 2:
            child.sendline("help")
            child.expect(PROMPT)
            assert "Commands: 'help' or '?'" in child.before
        # alternately a number and the move typed out (the last listed: bets come last)
        choice = legal[0] if turns % 2 else legal[-1]
        child.sendline("1" if turns % 2 else typed_form(choice))
        child.expect(re.escape(f"P0 you: {choice}"))
        screen.append(child.before + child.after)
    screen.append(child.before + child.after)
    child.expect(pexpect.EOF)
    screen.append(child.before)
    child.close()
    assert child.exitstatus == 0
    text = "".join(screen).replace("\r", "")
    assert turns > 20
    assert re.search(r"you \(P0 you\) finished rank [1-4] of 4", text)
    assert re.search(r"^P[1-3] greedy: discards a card$", text, re.M)      # face down
    assert not re.search(r"^P[1-3] greedy: discard ", text, re.M)
    assert f"saved to {save}; replay it with: python -m sim.replay {save} --game 0" in text

    # the saved game: the person's moves, and the very game sim.replay plays again
    manifest = json.loads((save / "manifest.json").read_text())
    moves = [f"{seat} {move}" for seat, move in
             re.findall(r"^(P\d) \S+: (.+?)(?: \(your only move\))?$", text, re.M)]
    assert len(manifest["human"]["moves"]) == sum(m.startswith("P0 ") for m in moves)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert replay.main([str(save), "--game", "0"]) == 0
    log = out.getvalue().splitlines()
    assert log[0] == "paris-damis, seed 11, game 0: seat 0 human, seat 1 greedy, seat 2 " \
                     "greedy, seat 3 greedy"
    assert as_seen_by_p0(log) == moves


@pytest.mark.slow
@pytest.mark.parametrize("key, status", [("sendintr", 130), ("sendeof", 1)])
def test_ctrl_c_and_ctrl_d_leave_cleanly(key, status):
    child = spawn("betzanbloo", "--seed", "2", "--pace", "0")
    child.expect(PROMPT)
    getattr(child, key)()
    child.expect("game abandoned; nothing saved")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == status and "Traceback" not in child.before


@pytest.mark.slow
def test_a_terminal_without_suit_symbols_shows_letters():
    child = spawn("paris-damis", "--seed", "11", "--pace", "0", PYTHONIOENCODING="ascii")
    child.expect(PROMPT)
    shown = child.before
    assert "trump h" in shown and "-> hearts" in shown and not re.search("[♥♦♠♣→]", shown)
    first = menu(shown)[0]                          # e.g. place Kh -> hearts
    child.sendline(first.removeprefix("place ").replace(" ->", ""))
    child.expect(re.escape(f"P0 you: {first}"))
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
