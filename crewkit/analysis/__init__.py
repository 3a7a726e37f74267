"""Analysis tools: simulation, statistics, variant comparison, rule diffs, mission checks.

Submodules are imported where used (``crewkit.analysis.simulate`` ...), so that importing this package,
as ``crewkit --help`` does for the analysis sub-commands, stays cheap.
"""
