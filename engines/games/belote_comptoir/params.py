"""Parameters of La belote de comptoir: every ambiguity (A1 to A8) and variant of the spec.

References such as "A3" point to the "Open points and the readings we chose" section of
``docs/rules/belote-comptoir.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

MIN_PLAYERS, MAX_PLAYERS = 2, 32
PACK_CARDS = 32
MAX_K = 5
K_CHOICES = ("dealer_choice", "random", "1", "2", "3", "4", "5")
MAX_BID, CLASSIC_TA_MAX_BID = 182, 258      # 162 + belote; 248 + dix de der (classic TA)


@dataclass(frozen=True)
class BeloteComptoirParams(Params):
    """Belote de comptoir rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "belote-comptoir"

    players: int = param(4, "number of players (n * k <= 32)", min=MIN_PLAYERS,
                         max=MAX_PLAYERS)
    cards_per_player: str = param(
        "dealer_choice", "cards dealt to each player: 'dealer_choice' (the dealer decides "
        "each deal, text), 'random' (drawn each deal) or a fixed 1..5", ref="A7",
        choices=K_CHOICES)
    allow_sa: bool = param(False, "the declarer may choose sans-atout (text: optional)")
    allow_ta: bool = param(False, "the declarer may choose tout-atout (text: optional)")
    visibility: str = param(
        "normal", "'normal'; 'blind' (nobody sees the dealt cards before the bidding ends); "
        "'partial_blind' (visibility_j of each hand unseen by its owner until then); "
        "'partial_open' (visibility_j of each hand face up for everyone)", ref="A3",
        choices=("normal", "blind", "partial_blind", "partial_open"))
    visibility_j: int = param(1, "j, the cards per hand of the partial modes (the first j "
                                 "dealt to each player)", ref="A3", min=1, max=MAX_K)
    blind_play: bool = param(
        False, "blind cards stay hidden during the play: the engine plays a blind player's "
        "card (the forced one, else a random legal one)", ref="A3")
    auction: str = param("single_round", "'single_round' (each speaks once, strictly higher "
                                         "bids) or 'open' (until all others pass)", ref="A1",
                         choices=("single_round", "open"))
    min_bid: int = param(1, "lowest bid (step 1)", ref="A2", min=0, max=CLASSIC_TA_MAX_BID)
    max_bid: int | None = param(
        None, f"highest bid; none: {MAX_BID} ({CLASSIC_TA_MAX_BID} with classic_sa_ta and "
        "allow_ta)", ref="A2", min=1, max=CLASSIC_TA_MAX_BID)
    dix_de_der: bool = param(True, "+10 for the last trick", ref="A6")
    belote_rebelote: bool = param(True, "+20 to the declarer for the trump K and Q he plays "
                                        "(not in sans-atout or tout-atout)", ref="A6")
    defenders_partners: bool = param(
        False, "partner exemption among the non-declarers (no forced trump while another "
        "non-declarer holds the trick)", ref="A4")
    classic_sa_ta: bool = param(
        False, "older sans-atout / tout-atout values (plain points, total 120; trump points "
        "in every suit, total 248) instead of the coinche tables", ref="A5")
    target: int = param(5, "game points to win, as the unique leader (text: 5, 10, ...)",
                        ref="A8", min=1, max=10_000)
    max_deals: int = param(1000, "safety cap on deals, redeals included; the game is then "
                                 "recorded as aborted", min=1, max=100_000)
    first_dealer: int | None = param(None, "dealer of the first deal; none: drawn at random",
                                     min=0, max=MAX_PLAYERS - 1)

    def highest_bid(self) -> int:
        """``max_bid``, or its default for the contracts allowed (A2)."""
        if self.max_bid is not None:
            return self.max_bid
        return CLASSIC_TA_MAX_BID if self.classic_sa_ta and self.allow_ta else MAX_BID

    def fixed_k(self) -> int | None:
        """k when it is a fixed number."""
        return int(self.cards_per_player) if self.cards_per_player.isdigit() else None

    def validate(self) -> None:
        most = min(MAX_K, PACK_CARDS // self.players)
        k = self.fixed_k()
        if k is not None and k > most:
            raise ValueError(f"belote-comptoir: cards_per_player={k} needs {k * self.players} "
                             f"cards for {self.players} players (n * k <= {PACK_CARDS}); "
                             f"valid values: 1..{most}")
        self.check_seat("first_dealer")
        if self.min_bid > self.highest_bid():
            raise ValueError(f"belote-comptoir: min_bid={self.min_bid} is above the highest "
                             f"bid {self.highest_bid()}; valid values: 0..{self.highest_bid()}")
