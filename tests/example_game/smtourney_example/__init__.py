"""Blind auction: a tiny game that exercises the whole game contract (secrets, any-seat decisions)."""
