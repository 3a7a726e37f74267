"""Spec errors: one ``SpecIssue`` per problem, rendered in strictyaml style.

```
rulesets/bad.yaml:12:5: error: at deal.hands.4: expected an integer or a list of integers, found string 'ten'
   12 |     "4": ten
      |          ^
```
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from crewkit.errors import CrewkitError

PathPart = str | int
_MAX_SHOWN = 100  # longest source excerpt shown under an issue
Path = tuple[PathPart, ...]


@dataclass(frozen=True)
class SpecIssue:
    """One problem in a spec file. ``line`` and ``column`` are 1-based; ``path`` is the path in the document."""

    file: str
    line: int
    column: int
    path: Path
    message: str
    expected: str | None = None
    found: str | None = None
    severity: str = "error"

    @property
    def dotted_path(self) -> str:
        return dotted(self.path)

    def __str__(self) -> str:
        return render_issue(self, None)


class SpecError(CrewkitError):
    """Raised when a spec file cannot be loaded or is invalid; carries every issue found."""

    def __init__(self, issues: Iterable[SpecIssue], source_lines: Sequence[str] | None = None) -> None:
        self.issues: list[SpecIssue] = sort_issues(issues)
        self.source_lines: Sequence[str] | None = source_lines
        first = self.issues[0] if self.issues else None
        summary = render_issue(first, None) if first else "invalid spec"
        if len(self.issues) > 1:
            summary += f" (and {len(self.issues) - 1} more)"
        super().__init__(summary)

    def render(self, source_lines: Sequence[str] | None = None) -> str:
        """All issues, each with its source line and a caret."""
        lines = source_lines if source_lines is not None else self.source_lines
        return "\n".join(render_issue(i, lines) for i in self.issues)


def dotted(path: Sequence[PathPart]) -> str:
    """``("deal", "hands", "4")`` -> ``deal.hands.4``; the empty path is ``(top level)``."""
    if not path:
        return "(top level)"
    return ".".join(str(p) for p in path)


def sort_key(issue: SpecIssue) -> tuple[str, int, int]:
    return (issue.file, issue.line, issue.column)


def sort_issues(issues: Iterable[SpecIssue]) -> list[SpecIssue]:
    """Sort by (file, line, column); stable for issues at the same place."""
    return sorted(issues, key=sort_key)


def render_issue(issue: SpecIssue, source_lines: Sequence[str] | None) -> str:
    """``file:line:col: severity: at path: message`` plus the source line and a caret when lines are given."""
    where = f"{issue.file}:{issue.line}:{issue.column}"
    at = f"at {dotted(issue.path)}: " if issue.path else ""
    head = f"{where}: {issue.severity}: {at}{issue.message}"
    if not source_lines or not (1 <= issue.line <= len(source_lines)):
        return head
    text = source_lines[issue.line - 1].rstrip("\r\n")
    number = str(issue.line)
    width = max(len(number), 2) + 3
    # Show tabs as single spaces so the caret lines up with the column count.
    shown = text.replace("\t", " ")
    caret_col = max(issue.column, 1)
    if len(shown) > _MAX_SHOWN:
        # Show a window of the long line around the caret.
        start = max(0, min(caret_col - 1 - _MAX_SHOWN // 2, len(shown) - _MAX_SHOWN))
        shown = (
            ("..." if start else "")
            + shown[start : start + _MAX_SHOWN]
            + ("..." if start + _MAX_SHOWN < len(shown) else "")
        )
        caret_col = caret_col - start + (3 if start else 0)
    return f"{head}\n{number.rjust(width)} | {shown}\n{' ' * width} | {' ' * (caret_col - 1)}^"


def issue_to_json(issue: SpecIssue) -> dict[str, Any]:
    """A JSON-ready dict: file, line, column, path (dotted), message, expected, found, severity."""
    return {
        "file": issue.file,
        "line": issue.line,
        "column": issue.column,
        "path": ".".join(str(p) for p in issue.path),
        "message": issue.message,
        "expected": issue.expected,
        "found": issue.found,
        "severity": issue.severity,
    }
