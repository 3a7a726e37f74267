"""Play together: a table hosted by ``crewkit host`` (:mod:`crewkit.net.server`, :mod:`crewkit.net.table`),
joined with ``crewkit join`` (:mod:`crewkit.net.client`), over the protocol of :mod:`crewkit.net.protocol`
(docs/online.md). The host runs the game through the one game interface (:mod:`crewkit.games`) only."""

DEFAULT_BOT_DELAY = 0.6
"""Seconds between two bot moves at a hosted table (``crewkit host --delay``): a pace people can follow."""
