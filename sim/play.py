"""``python -m sim.play GAME``: a seat at the table against the bots, in the terminal.

    python -m sim.play GAME [--players K] [--seat S] [--agents A,B,...]
                       [--variant KEY=VALUE ...] [--seed S] [--save DIR] [--pace SECONDS]
                       [--ascii]

The person plays seat S (default 0); bots play the other seats.  On each of the person's
turns the table shows exactly what that seat may know (its ``observation``: a designed table
for Paris d'amis, Betzanbloo and Ascenseur aux atouts, every observed field for the other
games), the hand sorted and numbered, and the legal moves numbered.  A move is chosen by its
number or typed (see :func:`parse_choice`); anything else is refused with the reason and asked
again.  A move that is the only legal one is played at once.  Bots' moves are shown as the
table sees them (a card laid face down is not named), ``--pace`` seconds apart.

The game is game 0 of a run with seed S (chance from ``game.new_state(S, 0)``, the bots'
decisions from ``decision_rng(S, 0)``), so with ``--save DIR`` it is saved as a run
directory of one game: the manifest (seat ``S`` played by ``human``, whose moves it lists),
and the ``games``/``players``/``rounds`` tables of :mod:`sim.results`.  ``python -m
sim.replay DIR --game 0`` replays it and ``sim.load(DIR)`` reads it like any batch run.
"""

from __future__ import annotations

import argparse
import re
import secrets
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

import numpy as np

import agents
from engines.core.api import Action, IllegalActionError
from engines.core.seeding import decision_rng
from sim import results
from sim.batch.cli import OWN_BOT, check_agents, spec_from_args
from sim.batch.run import new_run, now
from sim.batch.spec import RunSpec
from sim.batch.tables import build_tables
from sim.cli import Parser, UsageError, finite, seed_arg, usage_error
from sim.runner import HUMAN
from sim.views import (
    ASCII_FORMS,
    TABLE_EVENTS,
    public_text,
    supports_symbols,
    table_events,
    to_ascii,
    view_for,
)

DEFAULT_PACE = 0.3
MAX_SEED = 1_000_000            # a drawn seed short enough to note down
QUIT = ("quit", "exit")
HELP = ("help", "?")
TABLE = ("table", "t")

HELP_TEXT = """\
Choose a move by its number, or type it: its whole text ('bet 2'), its text without the
verb ('10♥ hearts'), or enough words of it to tell it apart ('10h hearts', 'K♠').  Suits may
be typed as symbols, letters (h d s c) or words (hearts); case does not matter.
Commands: 'help' or '?' this text, 'table' (or 't') the table again, 'quit' leave the game
(nothing is saved).  Ctrl-D and Ctrl-C also leave the game."""

# Suit words and symbols, as parse_card's letters: what typed text and actions compare on.
SUIT_WORDS = {"hearts": "h", "heart": "h", "diamonds": "d", "diamond": "d", "spades": "s",
              "spade": "s", "clubs": "c", "club": "c"}
SUIT_LETTERS = {symbol: ASCII_FORMS[symbol] for symbol in "♥♦♠♣"}


class Abandoned(Exception):
    """The person left the game before its end (``quit``, end of input)."""


# --------------------------------------------------------------------------------------
# Reading a move
# --------------------------------------------------------------------------------------
def words(text: str) -> list[str]:
    """The words a typed move and an action's text are compared on: lower case, suit
    symbols and suit names as letters (``10♥`` -> ``10h``, ``hearts`` -> ``h``), arrows
    dropped."""
    t = text.lower().replace("->", " ").replace("→", " ")
    for symbol, letter in SUIT_LETTERS.items():
        t = t.replace(symbol, letter)
    return [SUIT_WORDS.get(w, w) for w in t.split()]


def parse_choice(text: str, legal: Sequence[Action], state: Any) -> Action:
    """The legal action a person typed: its number in ``legal`` (1-based), its text, its text
    without the first word (the verb), or, failing those, the only legal action whose text
    holds every typed word.  Raises ``ValueError`` with the reason otherwise (an action of the
    game that is not legal now: the rules' own reason)."""
    typed = words(text)
    if not typed:
        raise ValueError(f"type a move: a number 1..{len(legal)} or its text (? for help)")
    if len(typed) == 1 and typed[0].isdigit():
        number = int(typed[0])
        if 1 <= number <= len(legal):
            return legal[number - 1]
        raise ValueError(f"no move {number}: choose 1..{len(legal)}")
    found = matching(typed, legal)
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        shown = ", ".join(a.text for a in found[:6]) + (", ..." if len(found) > 6 else "")
        raise ValueError(f"{text.strip()!r} fits {len(found)} moves ({shown}); say which")
    other = matching(typed, getattr(state.game, "actions", ()))
    if len(other) == 1:
        try:
            state.clone().apply(other[0])
        except IllegalActionError as error:      # the rules' reason; the moves are listed
            raise ValueError(str(error).split("; legal:")[0]) from None
    raise ValueError(f"{text.strip()!r} is not a move here; choose 1..{len(legal)} or type "
                     f"one as listed (? for help)")


def matching(typed: list[str], actions: Sequence[Action]) -> list[Action]:
    """The actions ``typed`` names: exactly (with or without the verb) if any, else every
    action whose words include all the typed words."""
    exact = [a for a in actions if typed in (words(a.text), words(a.text)[1:])]
    if exact:
        return exact
    return [a for a in actions if _contains(words(a.text), typed)]


def _contains(have: list[str], wanted: list[str]) -> bool:
    pool = list(have)
    for w in wanted:
        if w not in pool:
            return False
        pool.remove(w)
    return True


# --------------------------------------------------------------------------------------
# The terminal
# --------------------------------------------------------------------------------------
class Table:
    """The person's terminal: lines out (card symbols as letters when ``plain``), lines in."""

    def __init__(self, out: TextIO, inp: TextIO, plain: bool) -> None:
        self.out = out
        self.inp = inp
        self.plain = plain

    def say(self, text: str = "") -> None:
        self.out.write((to_ascii(text) if self.plain else text) + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str:
        """A line typed after ``prompt``; raises :class:`Abandoned` at the end of input."""
        self.out.write(to_ascii(prompt) if self.plain else prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            raise Abandoned("end of input")
        if not self.inp.isatty():           # shown as a terminal echoes what is typed
            self.say(line.rstrip("\n"))
        return line.strip()


RUN = 12           # this many moves or more, differing only by a number counting up: one entry
_NUMBERED = re.compile(r"^(.*\S) (\d+)$")


def menu(legal: Sequence[Action], width: int) -> list[str]:
    """The legal moves numbered, in as many columns as ``width`` allows; a run of moves that
    differ only by a number counting up (``stake 1`` .. ``stake 100``) as one entry."""
    digits = len(str(len(legal)))
    cells = []
    i = 0
    while i < len(legal):
        end = _run_end(legal, i)
        if end - i >= RUN:
            cells.append(f"{i + 1:>{digits}}-{end}) {legal[i].text} .. {legal[end - 1].text}")
            i = end
        else:
            cells.append(f"{i + 1:>{digits}}) {legal[i].text}")
            i += 1
    size = max(len(c) for c in cells) + 3
    per_row = max(1, min(4, width // size))
    return ["".join(c.ljust(size) for c in cells[i:i + per_row]).rstrip()
            for i in range(0, len(cells), per_row)]


def _run_end(legal: Sequence[Action], start: int) -> int:
    """The end (exclusive) of the run of ``<words> <n>``, ``<words> <n+1>``, ... at
    ``start``."""
    first = _NUMBERED.match(legal[start].text)
    if not first:
        return start + 1
    end = start + 1
    while end < len(legal):
        m = _NUMBERED.match(legal[end].text)
        if not m or m[1] != first[1] or int(m[2]) != int(first[2]) + end - start:
            break
        end += 1
    return end


# --------------------------------------------------------------------------------------
# A game
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Setup:
    """What the command line asked for: the one-game run, the person's seat, the bots' pace,
    where to save."""

    spec: RunSpec
    seat: int
    pace: float
    save: Path | None

    @property
    def names(self) -> list[str]:
        """``P0 you``, ``P1 greedy``, ...: each seat as the table names it."""
        return [f"P{p} {'you' if a == HUMAN else a}" for p, a in enumerate(self.spec.agents)]


def play(setup: Setup, table: Table) -> tuple[Any, list[int]]:
    """Play the game to its end; returns the final state and the person's moves (codes).
    Raises :class:`Abandoned` if the person leaves."""
    spec = setup.spec
    game = spec.load_game()
    bots = {p: agents.load(a, game=spec.game) for p, a in enumerate(spec.agents) if a != HUMAN}
    names = setup.names
    view = view_for(spec.game)
    table.say(f"{game.title}: you are {names[setup.seat]}; "
              + ", ".join(names[p] for p in sorted(bots))
              + f"; seed {spec.seed}.  Type ? for help.")
    decisions = decision_rng(spec.seed, 0)
    state = game.new_state(spec.seed, 0)
    moves: list[int] = []
    logged = 0
    while not state.is_terminal():
        logged = show_events(state, logged, table)
        player = state.current_player
        legal = state.legal_actions()
        if player == setup.seat:
            action = human_move(state, legal, table, view, game, names)
            moves.append(action.code)
        else:
            action = bots[player].act(state.observation(player), legal, decisions)
            table.say(f"{names[player]}: {public_text(spec.game, action.text)}")
            if setup.pace > 0:
                time.sleep(setup.pace)
        state.apply(action)
    show_events(state, logged, table)
    return state, moves


def show_events(state: Any, logged: int, table: Table) -> int:
    """Show the table events logged since the first ``logged`` lines; returns the new
    count."""
    if state.game.slug not in TABLE_EVENTS:
        return logged
    log = state.log
    for line in table_events(state.game.slug, log[logged:]):
        table.say(f"* {line}")
    return len(log)


def human_move(state: Any, legal: list[Action], table: Table, view: Any, game: Any,
               names: list[str]) -> Action:
    """The person's move: shown the table and the numbered moves, asked until they give a
    legal one (a move that is the only legal one is played at once)."""
    me = names[state.current_player]
    if len(legal) == 1:
        table.say(f"{me}: {legal[0].text} (your only move)")
        return legal[0]
    width = shutil.get_terminal_size((100, 24)).columns

    def show() -> None:
        table.say()
        for line in view(state.observation(state.current_player), game, names):
            table.say(line)
        table.say("your moves:")
        for line in menu(legal, width):
            table.say("  " + line)

    show()
    while True:
        text = table.ask(f"{me}, your move [1-{len(legal)}, ? for help]: ")
        command = text.lower()
        if command in QUIT:
            raise Abandoned("quit")
        if command in HELP:
            table.say(HELP_TEXT)
            continue
        if command in TABLE:
            show()
            continue
        try:
            action = parse_choice(text, legal, state)
        except ValueError as error:
            table.say(f"  refused: {error}")
            continue
        table.say(f"{me}: {action.text}")
        return action


def result_lines(state: Any, names: list[str], seat: int) -> list[str]:
    """The final ranking, each seat's score and the game's own per-seat figures."""
    result = state.result()
    winners = [names[p] for p in result.winners]
    lines = ["", f"game over: {', '.join(winners)} "
                 f"{'wins' if len(winners) == 1 else 'share the win'}"]
    rows = []
    for p in sorted(range(len(names)), key=lambda p: (result.ranks[p], p)):
        extra = "  ".join(f"{k.replace('_', ' ')} {_figure(v[p])}"
                          for k, v in result.details.items())
        rows.append(f"  rank {result.ranks[p]}  {names[p]:<14} score "
                    f"{result.scores[p]:g}  {extra}".rstrip())
    lines += rows
    lines.append("  " + ", ".join(f"{k} {v}" for k, v in result.stats.items()))
    lines.append(f"you ({names[seat]}) finished rank {result.ranks[seat]} of {len(names)}")
    return lines


def _figure(value: Any) -> str:
    if isinstance(value, tuple | list):
        return " ".join(map(str, value))
    return f"{value:g}" if isinstance(value, float) else str(value)


# --------------------------------------------------------------------------------------
# Saving
# --------------------------------------------------------------------------------------
def check_save(path: Path) -> None:
    """Refuse, before the game starts, a ``--save`` directory that cannot take the game."""
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise UsageError(f"--save {path} exists and is not an empty directory; choose a new "
                         f"one")
    parent = next((p for p in path.parents if p.exists()), Path("."))
    if not parent.is_dir() or not _writable(parent):
        raise UsageError(f"cannot write to --save {path}: {parent} is not a writable "
                         f"directory")


def _writable(folder: Path) -> bool:
    try:
        probe = folder / ".tapis-vert-write-test"
        probe.write_text("")
        probe.unlink()
    except OSError:
        return False
    return True


def save_game(setup: Setup, state: Any, moves: list[int], started: str) -> Path:
    """Write the finished game as a run directory of one game (manifest and tables)."""
    spec = setup.spec
    game = state.game
    row, rounds = state.records()
    seats = np.arange(game.num_players)[None, :]
    tables = build_tables(game, spec, 0, 1, seats, row[None, :], rounds,
                          np.array([len(rounds)]))
    with new_run(spec, setup.save) as (run_dir, _):
        record = results.write_chunk(run_dir, 0, tables)
        manifest = results.read_manifest(run_dir)
        manifest |= {"status": "complete", "started": started, "finished": now(),
                     "played_by": "sim.play", "human": {"seat": setup.seat, "moves": moves},
                     "chunks": {"0": record}}
        results.write_manifest(run_dir, manifest)
    return run_dir


# --------------------------------------------------------------------------------------
# The command
# --------------------------------------------------------------------------------------
def default_agent(game: str) -> str:
    """The first bot written for the game (its strategy bot), else ``random``."""
    return next(iter(agents.written_for(game)), "random")


def setup_from_args(args: argparse.Namespace) -> Setup:
    """Validate the arguments (raises UsageError naming the valid choices)."""
    seed = secrets.randbelow(MAX_SEED) if args.seed is None else args.seed
    spec = spec_from_args(argparse.Namespace(
        game=args.game, variant=args.variant, players=args.players, agents=None, games=1,
        seed=seed, jobs=1, chunk_size=1, seating="fixed"))
    k = len(spec.agents)
    if not 0 <= args.seat < k:
        raise UsageError(f"--seat {args.seat} is not a seat: seats are 0..{k - 1}")
    names = [n.strip() for n in (args.agents or default_agent(spec.game)).split(",")]
    if len(names) == 1:
        names = names * (k - 1)
    if len(names) != k - 1:
        raise UsageError(f"--agents takes one agent or {k - 1} (one per other seat, in seat "
                         f"order), got {len(names)}")
    check_agents(spec.game, names)
    if args.pace < 0:
        raise UsageError(f"--pace must be 0 or more seconds, got {args.pace:g}")
    save = Path(args.save) if args.save else None
    if save is not None:
        check_save(save)
    names.insert(args.seat, HUMAN)
    return Setup(replace(spec, agents=tuple(names)), args.seat, args.pace, save)


def build_parser(plain: bool = False) -> argparse.ArgumentParser:
    """The command's parser; ``plain``: its help without card symbols (an ASCII terminal)."""
    text = to_ascii if plain else str
    p = Parser(prog="python -m sim.play",
               formatter_class=argparse.RawDescriptionHelpFormatter,
               description="Play a game against the bots in the terminal: the table shows "
                           "what your seat may know, you choose among the numbered moves.",
               epilog=text(HELP_TEXT) + "\n\nSee docs/play.md.")
    p.add_argument("game", nargs="?", help="the game's slug (python -m sim.batch --list)")
    p.add_argument("--players", type=int, help="player count (default: the game's usual)")
    p.add_argument("--seat", type=int, default=0, help="your seat, 0-based (default 0)")
    p.add_argument("--agents", help="the bots: one for every other seat, or one per other "
                                    "seat in seat order (default: the game's own bot, else "
                                    f"random); {OWN_BOT}")
    p.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                   help="a rule parameter, repeatable (see python -m sim.batch --list)")
    p.add_argument("--seed", type=seed_arg, help="the game's seed (default: drawn and shown)")
    p.add_argument("--save", metavar="DIR",
                   help="save the finished game as a run directory of one game, for "
                        "python -m sim.replay DIR --game 0 and sim.load(DIR)")
    p.add_argument("--pace", type=finite, default=DEFAULT_PACE, metavar="SECONDS",
                   help=f"pause after each bot's move (default {DEFAULT_PACE:g})")
    p.add_argument("--ascii", action="store_true",
                   help=text("letters h d s c for the card suits ♥ ♦ ♠ ♣; the default "
                             "when the terminal's encoding lacks the symbols"))
    return p


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    out = stdout or sys.stdout
    plain = not supports_symbols(getattr(out, "encoding", None))
    try:
        args = build_parser(plain).parse_args(argv)
        setup = setup_from_args(args)
    except UsageError as error:
        return usage_error("sim.play", error)
    table = Table(out, stdin or sys.stdin,
                  plain=args.ascii or plain)
    started = now()
    try:
        state, moves = play(setup, table)
    except (Abandoned, KeyboardInterrupt) as stop:
        table.say()
        table.say("game abandoned; nothing saved")
        return 130 if isinstance(stop, KeyboardInterrupt) else 1
    for line in result_lines(state, setup.names, setup.seat):
        table.say(line)
    if setup.save is None:
        table.say(f"(seed {setup.spec.seed}; --save DIR keeps a game for python -m "
                  f"sim.replay)")
        return 0
    try:
        run_dir = save_game(setup, state, moves, started)
    except (OSError, UsageError) as error:
        print(f"sim.play: error: could not save the game to {setup.save}: {error}",
              file=sys.stderr)
        return 1
    table.say(f"saved to {run_dir}; replay it with: python -m sim.replay {run_dir} --game 0")
    return 0


if __name__ == "__main__":
    sys.exit(main())
