"""The trick-taking family: The Crew, its variants and Hammer (see :mod:`crewkit.games`)."""
