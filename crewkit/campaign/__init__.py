"""The campaign logbook (SQLite), in-progress saves and the plain-text status report."""

from crewkit.campaign.home import crewkit_home
from crewkit.campaign.report import format_status
from crewkit.campaign.saves import (
    SaveError,
    clear_in_progress,
    list_in_progress,
    load_in_progress,
    save_in_progress,
)
from crewkit.campaign.store import Attempt, Logbook, LogbookError, MissionProgress

__all__ = [
    "Attempt",
    "Logbook",
    "LogbookError",
    "MissionProgress",
    "SaveError",
    "clear_in_progress",
    "crewkit_home",
    "format_status",
    "list_in_progress",
    "load_in_progress",
    "save_in_progress",
]
