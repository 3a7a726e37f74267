"""crewkit: card-game rule sets and missions as data, one generic engine, analysis and a terminal front end."""

__version__ = "0.1.0"
