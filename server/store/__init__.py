"""SQLite storage (SQLModel): tournaments, entrants, matches, seats, replays, ratings."""
