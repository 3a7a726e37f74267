"""The board-of-places family (``family: not-alone``): Not Alone and its advanced rules (see :mod:`crewkit.games`)."""
