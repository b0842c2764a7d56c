"""Rules shared by a family of games: trick-taking (``tricks``, with the hearts-like
``avoidance`` games on top), shedding, rummy and war.  A game of a family supplies its own
rules and parameters; the family supplies the rest."""
