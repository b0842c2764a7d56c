"""Bots of one's own for Paris d'amis, the examples of docs/write-a-bot.md.

Run them from this folder (or put it on PYTHONPATH):

    python -m sim.batch paris-damis --agents my_bots:BetTwo,random,greedy,cautious --games 2000
"""

from dataclasses import dataclass

from engines.core.params import Params, param


class BetTwo:
    """Bets 2 whenever it may; otherwise plays a random legal action."""

    name = "bettwo"

    def act(self, observation, legal_actions, rng):
        for action in legal_actions:
            if action.text == "bet 2":
                return action
        return legal_actions[int(rng.integers(len(legal_actions)))]


@dataclass(frozen=True)
class FixedBetParams(Params):
    game = "fixedbet"       # names the bot in error messages
    bet: int = param(2, "the bet it makes whenever it may", min=1, max=4)
    aim: str = param("any", "where it places a card: any column, or its own suit's",
                     choices=("any", "own-suit"))


class FixedBet:
    """Makes the same bet whenever it may (``bet``); places a random card, on its card's
    own suit's column with ``aim=own-suit``."""

    name = "fixedbet"
    Params = FixedBetParams

    def __init__(self, **options):
        self.params = self.Params.from_kwargs(**options)

    def act(self, observation, legal_actions, rng):
        wanted = f"bet {self.params.bet}"
        for action in legal_actions:
            if action.text == wanted:
                return action
        choices = legal_actions
        if self.params.aim == "own-suit":
            # "place 10♥ → hearts": the card's suit sign, then the column's name
            own = [a for a in legal_actions if a.text.startswith("place ")
                   and SUIT_SIGNS.get(a.text.split()[1][-1]) == a.text.split()[-1]]
            choices = own or legal_actions
        return choices[int(rng.integers(len(choices)))]


SUIT_SIGNS = {"♥": "hearts", "♦": "diamonds", "♠": "spades", "♣": "clubs"}
