"""The belote module shared by ``belote-a-trois`` and ``belote-comptoir``: the 32-card pack,
trump and plain orders and points, bidding on the turned card or in points, belote-rebelote,
dix de der, capot and the legality rules, compiled once in :mod:`.rules`."""
