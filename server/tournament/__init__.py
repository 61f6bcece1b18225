"""Tournaments: bracket files, schedules, parallel execution, storage and ratings."""
