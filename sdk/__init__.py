"""smtourney SDK: game rules engines (pure standard-library Python) and the bot toolkit."""
