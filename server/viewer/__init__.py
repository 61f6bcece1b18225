"""Looking back at stored matches: the terminal replay viewer and the verify check."""
