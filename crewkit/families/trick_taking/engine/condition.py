"""A mission condition compiled for one game: the mission's ``conditions:`` and the objectives of task cards
bound to their owners (Mission Deep Sea). Its own module, below the rules and the task-card deck that both make
them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Condition"]


@dataclass(frozen=True, slots=True)
class Condition:
    """One condition: its compiled checks, their words and syntax trees, and what it belongs to."""

    id: str
    fail_if: Callable[..., Any] | None
    done_if: Callable[..., Any] | None
    reason: tuple[Any, ...]  # template parts for crewkit.dsl.render_template
    check: str  # after-trick | after-play
    fail_text: str
    done_text: str
    render_reason: Callable[..., str] | None = None  # the reason compiled: f(view) -> str
    fail_expr: Any = None  # the syntax trees of fail_if and done_if (crewkit.dsl Expr), for the solver
    done_expr: Any = None
    card: str | None = None  # the task card whose objective this is, bound to its owner (Mission Deep Sea)
    text: str = ""  # the mission's words for players (``text:``); empty: the table words the expressions
