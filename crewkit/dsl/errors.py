"""Errors of the condition language.

Every error carries a message without position and, when known, the 1-based ``line`` and ``column`` of
the offending text within the expression (or template), its 0-based ``offset`` and an optional
``end_column``. ``str(err)`` is ``"line:column: message"``.
"""

from __future__ import annotations

from crewkit.errors import CrewkitError


class DslError(CrewkitError):
    """Any error of the condition language: syntax, names, types or evaluation."""

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        offset: int | None = None,
        end_column: int | None = None,
        others: tuple[DslError, ...] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
        self.end_column = end_column
        # Further errors found in the same expression (the checker collects them all).
        self.others = others

    def __str__(self) -> str:
        if self.line is not None and self.column is not None:
            return f"{self.line}:{self.column}: {self.message}"
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    @property
    def all_errors(self) -> tuple[DslError, ...]:
        """This error followed by the others found in the same expression."""
        return (self, *self.others)

    def shifted(self, line: int, column: int) -> DslError:
        """A copy positioned in a surrounding file, the expression starting at ``line:column`` (1-based).

        Only the first line of the expression is offset by ``column``; later lines keep their column.
        """
        new_line = None if self.line is None else self.line + line - 1
        new_col = self.column
        new_end = self.end_column
        if self.line == 1 and self.column is not None:
            new_col = self.column + column - 1
            if self.end_column is not None:
                new_end = self.end_column + column - 1
        return type(self)(
            self.message,
            line=new_line,
            column=new_col,
            offset=self.offset,
            end_column=new_end,
            others=tuple(o.shifted(line, column) for o in self.others),
        )

    def caret(self, text: str) -> str:
        """The offending line of ``text`` with a caret (``^~~~``) under the error."""
        if self.line is None or self.column is None:
            return ""
        lines = text.splitlines() or [""]
        if not 1 <= self.line <= len(lines):
            return ""
        src = lines[self.line - 1]
        width = 1
        if self.end_column is not None and self.end_column > self.column:
            width = self.end_column - self.column
        return f"{src}\n{' ' * (self.column - 1)}^{'~' * (width - 1)}"


class DslSyntaxError(DslError):
    """The text is not a well-formed expression (or template)."""


class DslNameError(DslError):
    """An unknown name, function, field, suit or card."""


class DslTypeError(DslError):
    """A value of the wrong type (or a call with the wrong number of arguments)."""


class DslRuntimeError(DslError):
    """An error while evaluating a well-typed expression (division by zero, none where a value is needed)."""


class DslInterrupted(DslError):
    """An evaluation stopped from outside: the caller's deadline passed (``why == "time"``) or its cancel
    event was set (``why == "cancelled"``). Not a fault of the expression."""

    def __init__(self, message: str, *, why: str = "time", **kwargs: object) -> None:
        super().__init__(message, **kwargs)  # type: ignore[arg-type]
        self.why = why


class ConditionError(DslRuntimeError):
    """A run-time error of one expression of a spec file: names the file, the expression and the error.

    ``source`` is the file (or mission id), ``where`` what the expression is (``condition `one-trick`
    (fail_if)``), ``text`` the expression itself; line and column are within ``text``.
    """

    def __init__(self, message: str, *, source: str = "", where: str = "", text: str = "", **kwargs: object) -> None:
        super().__init__(message, **kwargs)  # type: ignore[arg-type]
        self.source = source
        self.where = where
        self.text = text

    @classmethod
    def wrap(cls, err: DslError, source: str, where: str, text: str) -> ConditionError:
        return cls(err.message, source=source, where=where, text=text, line=err.line, column=err.column,
                   offset=err.offset, end_column=err.end_column)

    def __str__(self) -> str:
        at = f", column {self.column}" if self.column is not None and self.line == 1 else ""
        if self.line is not None and self.line > 1 and self.column is not None:
            at = f", line {self.line} column {self.column}"
        head = f"{self.source}: {self.where}{at}: {self.message}"
        caret = self.caret(self.text)
        return f"{head}\n    {caret.replace(chr(10), chr(10) + '    ')}" if caret else head
