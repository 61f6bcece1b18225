"""OpenSpiel's own algorithms as smtourney bots, for the adapted ``openspiel:`` games (docs/openspiel.md).

Each plays from what its request tells its seat, never from the referee's state: ``mcts`` rebuilds a
perfect-information position from the public history; ``cfr`` looks its policy up by the seat's
information-state string.
"""
