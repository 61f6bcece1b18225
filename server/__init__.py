"""smtourney server side: the referee, tournaments, storage, ratings and the command line."""
