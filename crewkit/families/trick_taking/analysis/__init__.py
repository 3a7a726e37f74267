"""The trick-taking family's analyses: its rules and games by name, and the solver over random deals."""
