"""Analysis tools: simulations and statistics."""

from crewkit.analysis.simulate import SimulationResult, normalise_reason, simulate
from crewkit.analysis.stats import wilson_interval

__all__ = ["SimulationResult", "normalise_reason", "simulate", "wilson_interval"]
