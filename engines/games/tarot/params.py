"""Parameters of the tarot games: plain FFT tarot, le tarot lorrain and le tarot taré.

References such as "A3" point to the "Open points and the readings we chose" section of
``docs/rules/tarot.md`` (plain tarot), ``docs/rules/tarot-lorrain.md`` or
``docs/rules/tarot-tare.md``; "FFT A5" to the poignée in ``docs/rules/tarot.md``, which
writes out the FFT rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

MIN_PLAYERS, MAX_PLAYERS = 3, 5
MAX_DEALS = 1000


@dataclass(frozen=True)
class TarotParams(Params):
    """Plain FFT tarot (slug ``tarot``): the official rules on their own."""

    game: ClassVar[str] = "tarot"

    players: int = param(4, "number of players (5: the taker calls a King)",
                         min=MIN_PLAYERS, max=MAX_PLAYERS)
    use_poignee: bool = param(True, "poignée bonuses (20/30/40, shown before the first card)",
                              ref="FFT A5")
    use_chelem: bool = param(True, "chelem announcement and bonuses", ref="A11")
    petit_sec_annul: bool = param(True, "a Petit sec is declared and the deal annulled",
                                  ref="A12")
    num_deals: int | None = param(None, "deals per game; none: 4 per player (an annulled "
                                        "deal counts)", ref="A13", min=1, max=MAX_DEALS)
    first_dealer: int | None = param(None, "dealer of the first deal; none: drawn at random",
                                     min=0, max=MAX_PLAYERS - 1)

    def deals(self) -> int:
        return self.num_deals if self.num_deals is not None else 4 * self.players

    def validate(self) -> None:
        self.check_seat("first_dealer")


@dataclass(frozen=True)
class LorrainParams(TarotParams):
    """Le tarot lorrain (slug ``tarot-lorrain``): FFT tarot (the parameters of plain tarot),
    hands passed after each trick, the oudlers kept by whoever played them."""

    game: ClassVar[str] = "tarot-lorrain"

    players: int = param(4, "number of players (5 needs five_player_partner=dealt_holder)",
                         min=MIN_PLAYERS, max=MAX_PLAYERS)
    use_poignee: bool = param(True, "poignée bonuses (judged on the dealt hand)", ref="A7")
    pass_hands: bool = param(True, "after each trick but the last every player passes his "
                                   "hand (false: plain tarot)", ref="A2")
    pass_offset: int = param(1, "seat receiving each hand: +1 the next seat ('voisin de "
                                "gauche' as the next seat in play), -1 the previous one "
                                "(the FFT's direction)", ref="A1", choices=(1, -1))
    bouts_owner: str = param(
        "player_camp", "'les bouts sont à celui qui les a posés': 'player_camp' (to the camp "
        "of the seat that played the oudler), 'dealt_holder' (of the seat dealt it) or "
        "'standard' (FFT ownership)", ref="A3",
        choices=("player_camp", "dealt_holder", "standard"))
    excuse_exchange: bool = param(True, "the Excuse's camp gives a 0.5 card to the trick "
                                        "winner's camp", ref="A4")
    petit_au_bout_to: str = param(
        "trick_winner_camp", "petit au bout counts for the camp winning the last trick or "
        "for the camp of the seat that played the Petit", ref="A6",
        choices=("trick_winner_camp", "player_camp"))
    five_player_partner: str = param(
        "unsupported", "five players: 'unsupported' (the called King travels between hands) "
        "or 'dealt_holder' (the partner is the seat dealt the called card)", ref="A9",
        choices=("unsupported", "dealt_holder"))

    def validate(self) -> None:
        super().validate()
        if self.players == 5 and self.pass_hands and self.five_player_partner == "unsupported":
            raise ValueError("tarot-lorrain: 5 players need five_player_partner=dealt_holder "
                             "(valid values: unsupported, dealt_holder), or pass_hands=false")


@dataclass(frozen=True)
class TareParams(Params):
    """Le tarot taré (slug ``tarot-tare``): misère tarot, every player for himself."""

    game: ClassVar[str] = "tarot-tare"

    players: int = param(4, "number of players (no King is called at five)", ref="A7",
                         min=MIN_PLAYERS, max=MAX_PLAYERS)
    dog_to: str = param("none", "the dog's points: to nobody, or to the winner of the last "
                                "or of the first trick", ref="A2",
                        choices=("none", "last_trick_winner", "first_trick_winner"))
    excuse_goes_with_trick: bool = param(True, "the taré rule: the Excuse goes to the trick "
                                               "winner (false: FFT ownership and exchange)",
                                         ref="A3")
    petit_au_bout_penalty: bool = param(False, "10 more points to the player who takes the "
                                               "Petit in the last trick", ref="A4")
    num_deals: int | None = param(None, "deals per game; none: one per player", ref="A6",
                                  min=1, max=MAX_DEALS)
    loss_threshold: int | None = param(None, "end the game after the deal in which a total "
                                             "reaches this (none: num_deals only)", ref="A6",
                                       min=1, max=100_000)
    first_dealer: int | None = param(None, "dealer of the first deal; none: drawn at random",
                                     min=0, max=MAX_PLAYERS - 1)

    def deals(self) -> int:
        if self.num_deals is not None:
            return self.num_deals
        return MAX_DEALS if self.loss_threshold is not None else self.players

    def validate(self) -> None:
        self.check_seat("first_dealer")
