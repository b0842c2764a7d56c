"""What a person at the table sees: views of one seat's observation, as lines of text.

A view shows exactly what ``state.observation(seat)`` holds, nothing from the state itself.
Every game gets the generic view (:func:`generic_view`: each public field of its observation,
cards named); Paris d'amis, Betzanbloo and Ascenseur aux atouts have designed tables
(:data:`VIEWS`).  :func:`public_text` says what the other seats see of a move (a card laid face
down is not named), :func:`table_events` which lines of the game's log everybody sees (designed
games), and :func:`to_ascii` rewrites the card symbols for a terminal without them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from engines.core.cards import SUIT_NAMES, SUIT_SYMBOLS, card_name

# Symbols as a terminal without them shows them (suits as parse_card's letters: 10♥ -> 10h).
ASCII_FORMS = {"♥": "h", "♦": "d", "♠": "s", "♣": "c", "→": "->", "✓": "ok", "✗": "x",
               "–": "-", "·": "|", "…": "..."}
SYMBOLS_USED = "".join(ASCII_FORMS)

View = Callable[[Any, Any, Sequence[str]], list[str]]


def to_ascii(text: str) -> str:
    """``text`` with suit symbols as letters (``10♥`` -> ``10h``), arrows as ``->`` and
    accented letters without their accents."""
    for symbol, plain in ASCII_FORMS.items():
        text = text.replace(symbol, plain)
    text = unicodedata.normalize("NFKD", text)
    return text.encode("ascii", "ignore").decode("ascii")


def supports_symbols(encoding: str | None) -> bool:
    """Whether an output ``encoding`` can show the card symbols (no encoding: a text stream
    that holds any text)."""
    if encoding is None:
        return True
    try:
        SYMBOLS_USED.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


# --------------------------------------------------------------------------------------
# What the other seats see of a move
# --------------------------------------------------------------------------------------
# slug -> (pattern over the action text, what the others see): moves made face down.
SECRET_MOVES: dict[str, tuple[tuple[str, str], ...]] = {
    "paris-damis": ((r"^discard \S+$", "discards a card"),),
    "betzanbloo": ((r"^play \d+$", "chooses a card face down"),),
    "menteur": ((r"^lay \S+ as (\S+)$", r"lays a card face down, announcing \1"),
                (r"^lay \S+$", "lays a card face down")),
    "chasse-coeur": ((r"^pass \S+$", "passes a card"),),
    "petasse": ((r"^pass \S+$", "passes a card"),),
    "pouilleux": ((r"^place \d+$", "rearranges their hand"),),
    # the écart is laid face down, but a trump laid there is shown to everyone
    **{slug: ((r"^discard (?!T\d)\S+$", "lays a card in the écart"),)
       for slug in ("tarot", "tarot-lorrain", "tarot-tare")},
    # an exchange is seen by the giver and the receiver only
    "empereur": ((r"^give \S+$", "gives a card"),),
}


def public_text(slug: str, text: str) -> str:
    """A move as the other seats see it: its text, or what shows of it when it is made face
    down (``play 7`` in Betzanbloo -> ``chooses a card face down``)."""
    for pattern, shown in SECRET_MOVES.get(slug, ()):
        if re.match(pattern, text):
            return re.sub(pattern, shown, text)
    return text


# slug -> the game log's lines that are table events everybody sees (designed games only: a
# log may also tell what only one seat knows).
TABLE_EVENTS: dict[str, str] = {
    "paris-damis": r"^(round \d+|new cards: |P\d+ exchanges )",
    "betzanbloo": r"^turn \d+( resolved)?: ",
    "ascenseur-atouts": r"^(hand \d+|trick \d+): ",
}


def table_events(slug: str, lines: Sequence[str]) -> list[str]:
    """The lines of a game's log that are public table events (round ends, new cards, tricks
    won, ...); none for games without a designed view."""
    pattern = TABLE_EVENTS.get(slug)
    return [line for line in lines if pattern and re.match(pattern, line)]


# --------------------------------------------------------------------------------------
# Shared pieces
# --------------------------------------------------------------------------------------
def cards_text(cards: Sequence[int], name: Callable[[int], str] = card_name) -> str:
    """Cards by name, space-separated (``–`` for none; ``?`` for a hidden card, -1)."""
    return " ".join(name(c) if c >= 0 else "?" for c in cards) or "–"


def numbered_hand(cards: Sequence[Any], name: Callable[[Any], str] = card_name) -> str:
    """``your hand (3): 1·2♥ 2·10♥ 3·K♠``; cards given sorted."""
    shown = "  ".join(f"{i}·{name(c)}" for i, c in enumerate(cards, 1))
    return f"your hand ({len(cards)}): {shown or '–'}"


def grid(rows: Sequence[Sequence[str]], gap: int = 2) -> list[str]:
    """Rows of cells as aligned text columns."""
    widths = [max(len(row[i]) for row in rows if i < len(row))
              for i in range(max(len(row) for row in rows))]
    return [(" " * gap).join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip()
            for row in rows]


def header(title: str, *parts: str) -> str:
    return " · ".join([title, *[p for p in parts if p]])


# --------------------------------------------------------------------------------------
# Paris d'amis
# --------------------------------------------------------------------------------------
def paris_damis_view(obs: Any, game: Any, names: Sequence[str]) -> list[str]:
    """The four columns with each seat's cards and total, the points card each contests, then
    per seat: bet, hand size, markers left, treasure and its points per suit."""
    from engines.games.paris_damis import rules as R

    n = obs.params.players
    lines = [header(game.title, f"round {obs.round}/{obs.params.rounds}",
                    f"phase {obs.phase}", f"trump {SUIT_SYMBOLS[obs.trump]}",
                    f"{names[obs.starter]} started", f"deck {obs.deck_size}")]
    rows = [["", *[f"{SUIT_SYMBOLS[c]} {SUIT_NAMES[c]}" + (" (trump)" if c == obs.trump else "")
                   for c in range(R.COLUMNS)]],
            ["points card", *[card_name(c) if c >= 0 else "–" for c in obs.face_up]]]
    for p in range(n):
        row = [names[p]]
        for column in obs.columns:
            placed = [card_name(card) for owner, card in column.placements if owner == p]
            row.append(f"{' '.join(placed)} ={column.totals[p]}" if placed else "·")
        rows.append(row)
    lines += grid(rows)
    lines.append("")
    seat_rows = [["seat", "bet", "hand", "markers", "treasure", "points ♥ ♦ ♠ ♣"]]
    for p in range(n):
        bet = str(obs.bets[p]) if obs.bets[p] else "–"
        seat_rows.append([names[p], bet, str(obs.hand_sizes[p]), str(obs.markers_left[p]),
                          cards_text(obs.treasures[p]),
                          " ".join(str(v) for v in obs.suit_scores[p])])
    lines += grid(seat_rows)
    lines.append("")
    if obs.phase == "discard" and obs.to_discard:
        lines.append(f"you must discard {obs.to_discard} more card(s)")
    lines.append(numbered_hand(sorted(obs.hand)))
    return lines


# --------------------------------------------------------------------------------------
# Betzanbloo
# --------------------------------------------------------------------------------------
def betzanbloo_view(obs: Any, game: Any, names: Sequence[str]) -> list[str]:
    """The threshold and those to come, every seat's (public) hand, this turn's choices (face
    down until all have chosen), each score so far and the turns already played."""
    from engines.games.betzanbloo import rules as R

    n = obs.params.players
    left = " ".join(map(str, obs.thresholds_left)) or "–"
    lines = [header(game.title, f"turn {obs.turn}/{R.TURNS}", f"threshold {obs.threshold}",
                    f"to come {left}", f"phase {obs.phase}")]
    if obs.params.scoring != "points":
        lines.append("card worth: " + " ".join(f"{v}={obs.worth[v]}"
                                                for v in range(1, obs.params.perso_max + 1)))
    rows = [["seat", "hand", "this turn", "score"]]
    for p in range(n):
        if obs.played[p]:
            choice = str(obs.played[p])
        elif obs.phase == "play" and p < obs.current_player:
            choice = "chosen"
        elif p == obs.current_player:
            choice = "to choose" if obs.phase == "play" else "to capture"
        else:
            choice = "–"
        rows.append([names[p], " ".join(map(str, obs.hands[p])) or "–", choice,
                     str(obs.score_so_far(p))])
    lines += grid(rows)
    for turn, (threshold, cards) in list(enumerate(obs.history, 1))[-3:]:
        played = ", ".join(f"{names[p].split()[0]} {c}" for p, c in enumerate(cards))
        lines.append(f"turn {turn} (threshold {threshold}): {played}")
    lines.append("")
    lines.append(numbered_hand(obs.hand, str))
    return lines


# --------------------------------------------------------------------------------------
# Ascenseur aux atouts
# --------------------------------------------------------------------------------------
def ascenseur_view(obs: Any, game: Any, names: Sequence[str]) -> list[str]:
    """Bids, tricks won and error points per seat, the trick in progress, the trumps already
    played this hand, the others' cards in the blind hand, and this seat's cards."""
    from engines.games.ascenseur_atouts.game import card_text

    lines = [header(game.title, f"{obs.cards} card(s) each", f"dealer {names[obs.dealer]}",
                    f"phase {obs.phase}", "blind hand: your card is on your forehead"
                    if obs.blind else "", f"tricks left {obs.tricks_left}")]
    rows = [["seat", "bid", "tricks", "errors", "cards"]]
    for p in range(obs.params.players):
        bid = str(obs.bids[p]) if obs.bids[p] >= 0 else "–"
        rows.append([names[p], bid, str(obs.tricks[p]), str(obs.errors[p]),
                     str(obs.hand_sizes[p])])
    lines += grid(rows)
    trick = ", ".join(f"{names[seat].split()[0]} {card_text(card)}"
                      for seat, card, _ in obs.trick)
    lines.append(f"trick in progress: {trick or '–'}")
    lines.append(f"played this hand: {cards_text(obs.played, card_text)}")
    for p, cards in obs.visible_hands.items():
        lines.append(f"{names[p]} shows {cards_text(cards, card_text)}")
    lines.append("")
    lines.append(numbered_hand(sorted(obs.hand), card_text))
    return lines


# --------------------------------------------------------------------------------------
# Every game: the generic view
# --------------------------------------------------------------------------------------
# Observation fields holding cards (French card ids, -1 hidden), named in the generic view.
CARD_FIELDS = frozenset({"hand", "played", "passed", "won", "last_trick", "trick",
                         "visible_hands", "face_up"})
CARD_SCALARS = frozenset({"trump_card", "pouilleux"})
# Fields that are not part of what the table shows (the current player is the person).
HIDDEN_FIELDS = frozenset({"array", "params", "encoded_params", "encoder", "determinize",
                           "player", "current_player", "DECISIONS", "progress"})
LONG = 16       # arrays longer than this are shown by their size


def generic_view(obs: Any, game: Any, names: Sequence[str]) -> list[str]:
    """Each public field of the observation, one per line; per-seat tuples by seat, cards by
    name, the hand sorted and numbered."""
    n = game.num_players
    lines = [header(game.title, f"phase {obs.phase}" if hasattr(obs, "phase") else "")]
    hand = None
    for key in sorted(dir(obs)):
        if key.startswith("_") or key in HIDDEN_FIELDS or key == "phase":
            continue
        value = getattr(obs, key)
        if key == "hand":
            hand = value
            continue
        if callable(value):
            continue
        lines.append(f"{key.replace('_', ' ')}: {field_text(key, value, n, names)}")
    if callable(hand):          # a hand per role (baccara: 0 the ponte, 1 the banker)
        lines += [f"hand of role {role}: {cards_text(hand(role))}" for role in (0, 1)]
    elif hand is not None:
        cards = list(hand)
        if all(isinstance(c, int | np.integer) for c in cards):
            lines.append(numbered_hand(sorted(cards)))
        else:
            lines.append(numbered_hand(cards, str))
    return lines


def field_text(key: str, value: Any, players: int, names: Sequence[str]) -> str:
    """One observation field as text (cards named when ``key`` is a card field)."""
    cards = key in CARD_FIELDS
    if isinstance(value, np.ndarray):
        if value.size > LONG:
            return f"{value.size} values"
        value = tuple(value.tolist())
    if isinstance(value, dict):
        return "; ".join(f"{_seat(k, names)}: {field_text(key, v, players, names)}"
                         for k, v in value.items()) or "–"
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        if key in CARD_SCALARS:
            return card_name(int(value)) if value >= 0 else "?"
        return str(value)
    if isinstance(value, tuple | list):
        if key == "trick" and all(isinstance(v, tuple) and len(v) >= 2 for v in value):
            return ", ".join(f"{_seat(v[0], names)} {card_name(v[1])}" for v in value) or "–"
        if cards and all(isinstance(v, int | np.integer) for v in value):
            return cards_text(value)
        if len(value) == players and players > 1 and all(
                not isinstance(v, tuple | list) for v in value):
            return ", ".join(f"{_seat(p, names)} {_scalar(v)}" for p, v in enumerate(value))
        if len(value) == players and players > 1:
            return "; ".join(f"{_seat(p, names)} {field_text(key, v, players, names)}"
                             for p, v in enumerate(value))
        return " ".join(_scalar(v) for v in value) or "–"
    return _scalar(value)


def _seat(p: int, names: Sequence[str]) -> str:
    return names[p].split()[0] if 0 <= p < len(names) else str(p)


def _scalar(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, tuple):
        return "(" + " ".join(_scalar(v) for v in value) + ")"
    return str(value)


VIEWS: dict[str, View] = {
    "paris-damis": paris_damis_view,
    "betzanbloo": betzanbloo_view,
    "ascenseur-atouts": ascenseur_view,
}


def view_for(slug: str) -> View:
    """The designed view of a game, else the generic one."""
    return VIEWS.get(slug, generic_view)
