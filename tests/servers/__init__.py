"""Real servers for tests: a PostgreSQL server and a Ray cluster, each started in a private
temporary folder on this machine and always stopped."""
