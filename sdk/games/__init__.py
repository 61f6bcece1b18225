"""Rules engines, one package per game. Pure Python, standard library only, no I/O."""
