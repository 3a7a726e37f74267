"""The trick-taking engine: the game, its rules kernel, its blocks, observations, records."""
