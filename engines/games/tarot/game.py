"""The tarot games through the common game API: the shared trick-game wrapper
(:mod:`engines.families.tricks.game`) over the compiled rules of
:mod:`engines.games.tarot.rules`, which each game configures (``encode``).

Readings of the French sources, as ``docs/rules/tarot-lorrain.md`` and
``docs/rules/tarot-tare.md`` write them out:

* Le tarot lorrain: "à la fin de chaque pli, chaque joueur passe son jeu à son voisin de
  gauche" is every hand moving to the next seat (``pass_offset=+1``) after each trick but
  the last, seats keeping their roles; "les bouts sont à celui qui les a posés" is each
  oudler going to the camp of the seat that played it, whoever wins the trick (so the Petit
  cannot be captured and the Excuse never changes camp, even in the last trick); no
  compensation card for a Petit kept; "comme le tarot normal" for everything else.
* Le tarot taré: "une version simplifiée du tarot ... qui perd gagne" is read as no bidding,
  every player for himself, the fewest card points wins (the dog aside, counted for
  nobody); "on est obligé de monter à l'atout" keeps the FFT obligations; "l'excuse est
  remportée avec le pli où elle a été jouée" gives the Excuse (4.5 points) to the trick's
  winner, with no exchange card.

Actions, in the order ``legal_actions()`` lists them: ``pass``, ``bid prise`` .. ``bid
garde contre`` (ascending, above the highest bid); ``call R♥`` .. (five players, suits ♥ ♦
♠ ♣); ``discard ...`` (card id order: suits ♥ ♦ ♠ ♣ 1..R, then trumps); ``no chelem``,
``declare chelem``; ``play ...`` (card id order: suits ♥ ♦ ♠ ♣ 1..R, trumps T1..T21, the
Excuse) then, before a player's first card, ``show poignée simple`` .. ``triple``;
``declare petit sec`` (forced).  Cards also read with letters for suits (``play Rs``).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from engines.core.api import Action
from engines.core.base import observed, observed_seats, or_none
from engines.core.cards import SUIT_SYMBOLS, TAROT_EXCUSE, TAROT_FIRST_TRUMP, tarot_card_name
from engines.families.tricks.game import TrickGame, TrickObservation, TrickState
from engines.games.tarot import rules as R
from engines.games.tarot import summary
from engines.games.tarot.params import LorrainParams, TareParams, TarotParams

PHASE_NAMES = {R.DEAL: "deal", R.PETIT_SEC: "petit sec", R.BIDDING: "bidding",
               R.CALLING: "calling", R.ECART: "écart", R.CHELEM_CHOICE: "chelem",
               R.PLAYING: "tricks", R.OVER: "over"}

CONTRACT_NAMES = ("pass", "prise", "garde", "garde sans", "garde contre")
POIGNEE_NAMES = ("", "simple", "double", "triple")
_SUIT_LETTERS = dict(zip("hdsc", range(4), strict=True)) | dict(
    zip(SUIT_SYMBOLS, range(4), strict=True))
_FACE_LETTERS = {"V": 11, "J": 11, "C": 12, "D": 13, "Q": 13, "R": 14, "K": 14}


def parse_tarot_card(text: str) -> int:
    """Inverse of :func:`engines.core.cards.tarot_card_name`; suits also by letter (``Rs``,
    ``10h``), ``T1`` .. ``T21``, ``Excuse``."""
    t = text.strip()
    if t.lower() == "excuse":
        return TAROT_EXCUSE
    if t[:1].upper() == "T" and t[1:].isdigit() and 1 <= int(t[1:]) <= 21:
        return TAROT_FIRST_TRUMP + int(t[1:]) - 1
    rank_text, suit = t[:-1].upper(), _SUIT_LETTERS.get(t[-1:].lower(), _SUIT_LETTERS.get(t[-1:]))
    rank = _FACE_LETTERS.get(rank_text) or (int(rank_text) if rank_text.isdigit() else 0)
    if suit is None or not 1 <= rank <= 14 or (rank_text.isdigit() and rank > 10):
        raise ValueError(f"not a tarot card: {text!r} (examples: 7♥, R♠, Cd, T21, Excuse)")
    return suit * R.TAROT_SUIT_CARDS + rank - 1


def action_text(code: int) -> str:
    """Readable form of an action code: ``play T21``, ``discard 3♦``, ``bid garde``."""
    if code < R.DISCARD:
        return f"play {tarot_card_name(code - R.PLAY)}"
    if code < R.PASS_BID:
        return f"discard {tarot_card_name(code - R.DISCARD)}"
    if code == R.PASS_BID:
        return "pass"
    if code < R.CALL:
        return f"bid {CONTRACT_NAMES[code - R.BID_ACTION]}"
    if code < R.DECLARE_CHELEM:
        return f"call {tarot_card_name(code - R.CALL)}"
    if code == R.DECLARE_CHELEM:
        return "declare chelem"
    if code == R.NO_CHELEM:
        return "no chelem"
    if code < R.DECLARE_PETIT_SEC:
        return f"show poignée {POIGNEE_NAMES[code - R.SHOW_POIGNEE + 1]}"
    return "declare petit sec"


_CARD_VERBS = {"play": R.PLAY, "discard": R.DISCARD, "call": R.CALL}


def encode(params: TarotParams | LorrainParams | TareParams) -> np.ndarray:
    """The rules' data for the parameters of any of the three games."""
    p = R.PARAMS.new()
    p[R.P_PLAYERS] = params.players
    p[R.P_FIRST_DEALER] = R.RANDOM_DEALER if params.first_dealer is None else \
        params.first_dealer
    p[R.P_NUM_DEALS] = params.deals()
    p[R.P_PASS_OFFSET] = 1
    p[R.P_EXCUSE_EXCHANGE] = 1
    if isinstance(params, TareParams):
        p[R.P_BIDDING] = 0
        p[R.P_EXCUSE_WITH_TRICK] = params.excuse_goes_with_trick
        p[R.P_PETIT_AU_BOUT_PENALTY] = params.petit_au_bout_penalty
        p[R.P_LOSS_THRESHOLD] = params.loss_threshold or 0
        p[R.P_DOG_TO] = ("none", "last_trick_winner", "first_trick_winner").index(
            params.dog_to)
        return p
    p[R.P_BIDDING] = 1
    p[R.P_USE_POIGNEE] = params.use_poignee
    p[R.P_USE_CHELEM] = params.use_chelem
    p[R.P_PETIT_SEC_ANNUL] = params.petit_sec_annul
    if isinstance(params, LorrainParams):
        p[R.P_PASS_HANDS] = params.pass_hands
        p[R.P_PASS_OFFSET] = params.pass_offset
        p[R.P_BOUTS_OWNER] = ("standard", "player_camp", "dealt_holder").index(
            params.bouts_owner)
        p[R.P_EXCUSE_EXCHANGE] = params.excuse_exchange
        p[R.P_PETIT_AU_BOUT_TO] = ("trick_winner_camp", "player_camp").index(
            params.petit_au_bout_to)
    return p


class TarotObservation(TrickObservation):
    """What one seat of a tarot game may know."""

    @cached_property
    def won(self) -> dict[int, tuple[int, ...]]:
        """The cards in each seat's won pile this deal (public)."""
        return {p: self._located(R.LOC_WON + p) for p in range(self.params.players)}

    @cached_property
    def played(self) -> tuple[int, ...]:
        """Cards played to the earlier tricks of this deal."""
        return tuple(c for pile in self.won.values() for c in pile)

    taker = observed(R.TAKER, kind=or_none)
    partner = observed(R.PARTNER, "The called partner: None when playing alone or not yet "
                       "known to this seat.", kind=or_none)
    contract = observed(R.CONTRACT, "0 (none yet) .. 4 (garde contre).")
    bids = observed_seats(R.BID, "Each seat's bid this deal (-1: not yet; 0: pass).")

    @property
    def ecart(self) -> tuple[int, ...]:
        """The écart as this seat knows it (the taker: all of it; others: shown trumps)."""
        return self._located(R.LOC_ECART)

    @property
    def hand_passing(self) -> bool:
        return bool(self._state.game.encoded_params[R.P_PASS_HANDS])

    @property
    def bidding(self) -> bool:
        """False in the taré (no taker: every seat for himself)."""
        return bool(self._state.game.encoded_params[R.P_BIDDING])


class TarotState(TrickState):
    """One tarot game in progress."""


class TarotGame(TrickGame):
    """A tarot game with fixed parameters; each game subclasses it with its ``title`` and
    ``Params`` (three games share this module's parameters, so each names its own)."""

    rules = R
    summary = summary
    verbs = _CARD_VERBS
    examples = "'bid garde', 'pass', 'play T21', 'play R♠', 'play Rs', 'discard 3h'"

    def action(self, value: Action | int | str) -> Action:
        """The Action for a code or readable text (suits also by letter: ``play Rs``)."""
        if isinstance(value, str):
            verb, _, card = value.strip().partition(" ")
            if verb in self.verbs and value.strip() not in self._by_text:
                try:
                    action = self.actions[self.verbs[verb] + parse_tarot_card(card)]
                except (ValueError, IndexError):
                    action = None
                if action is not None and action.text.partition(" ")[0] == verb:
                    return action
        return super().action(value)

    def describe_deal(self, s: np.ndarray) -> str:
        """``deal 1: 18 cards each, 6 in the dog, P0 deals`` (+ ``; P1 leads`` in the taré)."""
        text = (f"deal {int(s[R.DEAL_INDEX]) + 1}: {int(s[R.CARDS])} cards each, "
                f"{int(R.DOG_CARDS[self.params.players])} in the dog, "
                f"P{int(s[R.DEALER])} deals")
        if s[R.PHASE] == R.PLAYING:
            text += f"; P{int(s[R.FIRST_LEADER])} leads"
        return text

    def describe_trick(self, s: np.ndarray) -> str:
        """``trick 1: P1 7♥, P2 T3, ... → P2``."""
        plays = ", ".join(f"P{int(s[R.TRICK_SEAT + i])} "
                          f"{tarot_card_name(int(s[R.TRICK_CARD + i]))}"
                          for i in range(self.params.players))
        return f"trick {int(s[R.TRICK])}: {plays} → P{int(s[R.TRICK_WINNER])}"

    def describe_round_end(self, s: np.ndarray) -> str:
        """``deal 1 ends: P2 garde, 2 oudlers, 48 points: made, stake 64; P0 -64 (total
        -64), ...`` (card points taken per seat in the taré; ``all passed``, ``petit sec``)."""
        n = self.params.players
        head = f"deal {int(s[R.DEALS_PLAYED])} ends: "
        if s[R.ANNULLED] == R.ALL_PASSED:
            head += "all passed; "
        elif s[R.ANNULLED] == R.PETIT_SEC_ANNULLED:
            head += "petit sec, annulled; "
        elif self.encoded_params[R.P_BIDDING]:
            partner = int(s[R.PARTNER])
            head += (f"P{int(s[R.TAKER])} {CONTRACT_NAMES[int(s[R.CONTRACT])]}"
                     + (f" with P{partner}" if partner >= 0 else "")
                     + f", {int(s[R.TAKER_OUDLERS])} oudlers, "
                     f"{half(int(s[R.TAKER_POINTS]))} points: "
                     f"{'made' if s[R.MADE] else 'failed'}, stake {int(s[R.STAKE])}; ")
        parts = [f"P{p} {half(int(s[R.POINTS + p])):+} (total {half(int(s[R.SCORE + p]))})"
                 for p in range(n)]
        return head + ", ".join(parts)


def half(value: int) -> int | float:
    """Half points as points: 9 -> 4.5, 8 -> 4."""
    return value // 2 if value % 2 == 0 else value / 2


class Tarot(TarotGame):
    title = "Tarot"
    Params = TarotParams


class TarotLorrain(TarotGame):
    title = "Tarot lorrain"
    Params = LorrainParams


class TarotTare(TarotGame):
    title = "Tarot taré"
    Params = TareParams
