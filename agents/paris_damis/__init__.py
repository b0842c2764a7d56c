"""Strategy bots for Paris d'amis, each written once as a compiled decision that the batch
kernel calls on the state and the Python agent calls on the seat's observation.

* ``greedy`` (:mod:`.greedy`): wins columns cheaply, stops when its columns are secure;
* ``cautious`` (:mod:`.cautious`): bets early to keep cards, ends on an odd hand;
* ``aggressive`` (:mod:`.aggressive`): waits to play last and steals columns whose holder
  has bet.

``STRATEGIES`` maps each name to its agent class; what every strategy reads is listed in
:mod:`.features`.
"""

from __future__ import annotations

from agents.paris_damis.aggressive import AggressiveAgent, AggressiveParams
from agents.paris_damis.base import StrategyAgent
from agents.paris_damis.cautious import CautiousAgent, CautiousParams
from agents.paris_damis.greedy import GreedyAgent, GreedyParams

STRATEGIES: dict[str, type[StrategyAgent]] = {
    agent.name: agent for agent in (GreedyAgent, CautiousAgent, AggressiveAgent)}

__all__ = ["STRATEGIES", "AggressiveAgent", "AggressiveParams", "CautiousAgent",
           "CautiousParams", "GreedyAgent", "GreedyParams", "StrategyAgent"]
