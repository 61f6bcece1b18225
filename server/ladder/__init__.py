"""A ladder: a competition that bots join over time, played continuously between bots of similar rating."""
