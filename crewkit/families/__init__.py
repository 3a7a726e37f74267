"""Game families: what is particular to each kind of game, behind the one interface of :mod:`crewkit.games`."""
