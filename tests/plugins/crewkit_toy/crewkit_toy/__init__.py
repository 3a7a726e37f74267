"""A toy family of crewkit: hidden hands, the highest card wins each round (a plug-in test of the Family protocol)."""
