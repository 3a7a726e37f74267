"""crewkit's condition language: parse, check, compile and print mission conditions and score formulas.

>>> from crewkit.dsl import parse, to_text
>>> to_text(parse("tricks_won( sick )>0"))
'tricks_won(sick) > 0'
"""

from __future__ import annotations

from .ast import Expr, Pos
from .checker import CheckEnv, check, check_all
from .errors import (
    ConditionError,
    DslError,
    DslInterrupted,
    DslNameError,
    DslRuntimeError,
    DslSyntaxError,
    DslTypeError,
)
from .evaluator import compile_expr, compile_located, evaluate, located
from .limits import interruptible
from .parser import MAX_DEPTH, MAX_LENGTH, parse
from .template import check_template, compile_template, parse_template, render_template
from .text import to_text
from .types import ANY, BOOL, CARD, INT, LIST, NONE, PLAYER, STR, SUIT, TASK, TRICK, Type, maybe
from .view import SimpleTask, SimpleTrick, SimpleView, TaskView, TrickView, View

__all__ = [
    "ANY",
    "BOOL",
    "CARD",
    "INT",
    "LIST",
    "MAX_DEPTH",
    "MAX_LENGTH",
    "NONE",
    "PLAYER",
    "STR",
    "SUIT",
    "TASK",
    "TRICK",
    "CheckEnv",
    "ConditionError",
    "DslError",
    "DslInterrupted",
    "DslNameError",
    "DslRuntimeError",
    "DslSyntaxError",
    "DslTypeError",
    "Expr",
    "Pos",
    "SimpleTask",
    "SimpleTrick",
    "SimpleView",
    "TaskView",
    "TrickView",
    "Type",
    "View",
    "check",
    "check_all",
    "check_template",
    "compile_expr",
    "compile_located",
    "compile_template",
    "evaluate",
    "interruptible",
    "located",
    "maybe",
    "parse",
    "parse_template",
    "render_template",
    "to_text",
]
