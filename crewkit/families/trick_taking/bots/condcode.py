"""Mission conditions as a small tree program for the fast bot's C play-outs (``_fastsim.c``: ``ev``).

The fast bot judges ``fail_if``/``done_if`` in its play-outs
(:mod:`crewkit.families.trick_taking.bots.conditions`). In Python that costs about a second per game; this
module translates the parsed conditions (:mod:`crewkit.dsl.ast`, the same trees the engine compiled) into
fixed-width nodes ``(op, a, b, c)`` that the C look-ahead evaluates on its own worlds, so those missions are
played out at C speed too.

The translation covers the whole vocabulary of the condition language except what a play-out cannot answer
the same way (strings other than task tokens, ``name`` fields, list ``+`` and list equality, equality of
tricks or tasks, mixed-type comparisons, ``hand``-independent constructs whose value the C worlds do not
hold). Anything else makes :func:`compile_program` return None with the reason, and the bot decides that
mission in Python exactly as before. Values are 64-bit integers with :data:`NONE` for ``none``: seats, card
ids, suit indexes, trick indexes (0-based), task indexes, interned strings, 0/1 for booleans.

Run-time errors the DSL would raise (``none`` where a number is needed, a seat past the table, division by
zero, ``max`` of an empty list) set an error flag in C; the whole decision is then made again in Python, so
the game is the one the Python twin plays (``tests/bots/test_fast_conditions.py`` proves they agree).
Roles, the commander and the number of tricks are fixed during a decision: they are constants here.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass

from crewkit.cards import Card, CardError, Deck
from crewkit.dsl import ast as A
from crewkit.families.trick_taking.bots.conditions import CondSetup
from crewkit.families.trick_taking.engine.rules import Condition

NONE = -(1 << 63)  # INT64_MIN: "none" (no real value reaches it: ints beyond 62 bits are refused in C)

# opcodes: the same numbers as in _fastsim.c
OP = {name: i for i, name in enumerate((
    "CONST", "VAR", "PLAYERS", "TRICKS", "TASKS", "CURCARDS", "LATEST", "FIRST", "LASTTRICK", "PLAYED_N",
    "LEFT_N", "NOT", "NEG", "AND", "OR", "ADD", "SUB", "MUL", "FDIV", "MOD", "IF", "EQ", "NE", "LT", "LE", "GT",
    "GE", "IN", "NOTIN", "LISTLIT", "CONSTLIST", "TRICKS_WON", "CARDS_WON", "HAND", "WON_BY", "PLAYED",
    "LEFT_UNPLAYED", "TRICK_OF", "TRICK_AT", "LEFT_OF", "RIGHT_OF", "IS_TRUMP", "IS_COLOUR", "COUNTLIST", "ABS",
    "MAX2", "MIN2", "TASK_OF", "DONE", "TASKS_OF", "C_SUIT", "C_RANK", "C_TRUMP", "C_SPECIAL", "T_NUMBER",
    "T_LEADER", "T_WINNER", "T_WINCARD", "T_CARDS", "T_LED", "T_FIRST", "T_LAST", "K_CARD", "K_OWNER", "K_TOKEN",
    "K_DONE", "K_TRICK", "S_TRUMP", "ALL", "ANY", "COUNT", "SUM", "MAX", "MIN", "MEMO",
    "STABLE", "LOST_FOR", "LONGEST_RUN", "OTHERS", "T_LASTCARD", "UNPLAYED_BY",
))}
# the nodes whose value is a list (evaluated by ``ev_list`` in C)
LIST_OPS = frozenset(OP[n] for n in ("PLAYERS", "TRICKS", "TASKS", "CURCARDS", "LISTLIT", "CONSTLIST",
                                     "CARDS_WON", "HAND", "TASKS_OF", "T_CARDS", "OTHERS"))
MAX_LIST = 64  # the C list buffer (a deck has at most 63 cards; a play-out at most 32 tricks and 64 tasks)
MAX_VARS = 16  # nested quantifiers
MAX_NODES = 4096
MAX_MEMO = 16  # memoized bodies of quantifiers over the tricks (the C TrickRec's memo slots)

# Nodes whose value depends only on their operands (and on the fields of a completed trick, which never
# change): a quantifier's body over ``tricks`` built of these and of its own variable has the same value for a
# trick every time it is asked, so C keeps it in the trick's record (``MEMO``) instead of evaluating it after
# every card of every play-out. Anything that reads the position (hands, tricks played, tasks done, where an
# unplayed card is) is not here.
_PURE_OPS = frozenset(OP[n] for n in (
    "CONST", "VAR", "NOT", "NEG", "AND", "OR", "ADD", "SUB", "MUL", "FDIV", "MOD", "IF", "EQ", "NE", "LT", "LE",
    "GT", "GE", "IN", "NOTIN", "LISTLIT", "CONSTLIST", "IS_TRUMP", "IS_COLOUR", "COUNTLIST", "ABS", "MAX2", "MIN2",
    "C_SUIT", "C_RANK", "C_TRUMP", "C_SPECIAL", "T_NUMBER", "T_LEADER", "T_WINNER", "T_WINCARD", "T_CARDS",
    "T_LED", "T_FIRST", "T_LAST", "S_TRUMP", "ALL", "ANY", "COUNT", "SUM", "MAX", "MIN", "OTHERS", "T_LASTCARD"))
# what changes during a trick (the hands, the cards on the table); everything else a condition reads (the
# completed tricks, tricks won, tasks done) changes only when a trick ends, so a closed subexpression free of
# these has one value from one trick's end to the next and C keeps it with the last trick (``STABLE``)
_IN_TRICK_OPS = frozenset(OP[n] for n in ("HAND", "CURCARDS", "PLAYED", "LEFT_UNPLAYED", "LOST_FOR"))
_QUANT_OPS = frozenset(OP[n] for n in ("ALL", "ANY", "COUNT", "SUM", "MAX", "MIN"))
_LEAF_OPS = frozenset(OP[n] for n in ("CONST", "VAR", "PLAYERS", "TRICKS", "TASKS", "CURCARDS", "LATEST", "FIRST",
                                      "LASTTRICK", "PLAYED_N", "LEFT_N", "CONSTLIST"))
_BINARY_OPS = frozenset(OP[n] for n in ("AND", "OR", "ADD", "SUB", "MUL", "FDIV", "MOD", "EQ", "NE", "LT", "LE", "GT",
                                        "GE", "IN", "NOTIN", "MAX2", "MIN2", "LOST_FOR", "UNPLAYED_BY"))

# check times, as in the rule set
AFTER_TRICK = 0
AFTER_PLAY = 1

_SCALARS = ("int", "player", "bool", "card", "suit", "str", "trick", "task", "none")
_NUMBERS = ("int", "player")
_TRUTHY = ("bool", "int", "none")  # operands whose truth value C computes as Python does


class Untranslatable(Exception):
    """A construct the C play-outs do not evaluate as the DSL does."""


@dataclass(frozen=True, slots=True)
class Ty:
    kind: str  # one of _SCALARS or "list"
    elem: str = ""  # element kind of a list
    maybe: bool = False


@dataclass(frozen=True, slots=True)
class Program:
    """The conditions of one mission at one table, translated (the layout ``fs_cond_new`` reads)."""

    code: tuple[int, ...]  # 4 ints per node
    pool: tuple[int, ...]  # list literals: node indexes; constant lists: values
    conditions: tuple[tuple[int, int, int], ...]  # (fail_if node or -1, done_if node or -1, check time)
    tokens: tuple[int, ...]  # interned token per task (NONE without)
    total_tricks: int

    def encode(self, deck: Deck) -> list[int]:
        out = [len(deck.cards), len(deck.suits), self.total_tricks]
        for c in deck.cards:
            out += [c.suit.index if c.suit is not None else NONE, c.rank, int(c.is_trump), int(c.is_special)]
        out += [int(s.trump) for s in deck.suits]
        out.append(len(self.tokens))
        out += self.tokens
        out.append(len(self.conditions))
        for f, d, when in self.conditions:
            out += [f, d, when]
        out += [len(self.code) // 4, *self.code, len(self.pool), *self.pool]
        return out


class _Compiler:
    def __init__(self, deck: Deck, roles: Mapping[str, int | None], commander: int | None,
                 total_tricks: int, tokens: Sequence[str | None], dealer: int | None = None,
                 mode: str | None = None) -> None:
        self.deck = deck
        self.dealer = dealer
        self.mode = mode
        self.roles = roles
        self.commander = commander
        self.total_tricks = total_tricks
        self.code: list[int] = []
        self.pool: list[int] = []
        self.strings: dict[str, int] = {}
        self.tokens = tuple(NONE if t is None else self.intern(t) for t in tokens)
        self.memos = 0  # MEMO nodes so far
        self.stables = 0  # STABLE nodes so far
        self.quants: dict[tuple[object, ...], tuple[int, Ty]] = {}  # quantifiers compiled, by shape and scope

    def intern(self, s: str) -> int:
        return self.strings.setdefault(s, len(self.strings))

    def node(self, op: str, a: int = 0, b: int = 0, c: int = 0) -> int:
        if len(self.code) // 4 >= MAX_NODES:
            raise Untranslatable("the conditions are too large")
        self.code += [OP[op], a, b, c]
        return len(self.code) // 4 - 1

    def const(self, value: int, ty: Ty) -> tuple[int, Ty]:
        return self.node("CONST", value), ty

    def const_list(self, values: Sequence[int], elem: str) -> tuple[int, Ty]:
        if len(values) > MAX_LIST:
            raise Untranslatable(f"a list of more than {MAX_LIST} items")
        start = len(self.pool)
        self.pool += values
        return self.node("CONSTLIST", start, len(values)), Ty("list", elem)

    # ---------------------------------------------------------------- expressions
    def expr(self, e: A.Expr, scope: Mapping[str, tuple[int, Ty]]) -> tuple[int, Ty]:
        if isinstance(e, A.Bool):
            return self.const(int(e.value), Ty("bool"))
        if isinstance(e, A.Int):
            if not -(1 << 62) < e.value < (1 << 62):
                raise Untranslatable("a number beyond 62 bits")
            return self.const(e.value, Ty("int"))
        if isinstance(e, A.NoneLit):
            return self.const(NONE, Ty("none"))
        if isinstance(e, A.Str):
            return self.const(self.intern(e.value), Ty("str"))
        if isinstance(e, A.CardLit):
            try:
                card = self.deck.card(f"{e.suit} {e.rank}")
            except CardError:
                raise Untranslatable(f"{e.suit} {e.rank} is not in this deck") from None
            return self.const(card.id, Ty("card"))
        if isinstance(e, A.Name):
            return self.name(e.name, scope)
        if isinstance(e, A.ListLit):
            return self.list_lit(e, scope)
        if isinstance(e, A.Unary):
            x, tx = self.expr(e.operand, scope)
            if e.op == "not":
                self.truthy(tx)
                return self.node("NOT", x), Ty("bool")
            self.number(tx)
            return self.node("NEG", x), Ty("int")
        if isinstance(e, A.Binary):
            unplayed = _unplayed_by(e)
            if unplayed is not None:
                return self.unplayed_by(*unplayed, scope)
            x, tx = self.expr(e.left, scope)
            y, ty = self.expr(e.right, scope)
            if e.op in ("and", "or"):
                self.truthy(tx)
                self.truthy(ty)
                return self.node(e.op.upper(), x, y), Ty("bool")
            self.number(tx)
            self.number(ty)
            ops = {"+": "ADD", "-": "SUB", "*": "MUL", "//": "FDIV", "%": "MOD"}
            return self.node(ops[e.op], x, y), Ty("int")
        if isinstance(e, A.Compare):
            return self.compare(e, scope)
        if isinstance(e, A.Conditional):
            then, tt = self.expr(e.then, scope)
            cond, tc = self.expr(e.cond, scope)
            other, to = self.expr(e.other, scope)
            self.truthy(tc)
            if tt.kind == "list" or to.kind == "list":
                raise Untranslatable("a conditional list")
            kind = tt.kind if tt.kind != "none" else to.kind
            if to.kind not in (kind, "none") and not (kind in _NUMBERS and to.kind in _NUMBERS):
                raise Untranslatable("a conditional of two kinds of value")
            return self.node("IF", then, cond, other), Ty(kind, maybe=True)
        if isinstance(e, A.Call):
            return self.call(e, scope)
        if isinstance(e, A.Field):
            return self.field(e, scope)
        if isinstance(e, A.Quant):
            return self.quant(e, scope)
        raise Untranslatable(type(e).__name__)

    @staticmethod
    def truthy(t: Ty) -> None:
        if t.kind not in _TRUTHY:
            raise Untranslatable(f"the truth value of a {t.kind}")

    @staticmethod
    def number(t: Ty) -> None:
        if t.kind not in _NUMBERS:
            raise Untranslatable(f"arithmetic on a {t.kind}")

    def name(self, n: str, scope: Mapping[str, tuple[int, Ty]]) -> tuple[int, Ty]:
        if n in scope:
            slot, ty = scope[n]
            return self.node("VAR", slot), ty
        simple = {"players": ("PLAYERS", Ty("list", "player")), "tricks": ("TRICKS", Ty("list", "trick")),
                  "tasks": ("TASKS", Ty("list", "task")), "current_cards": ("CURCARDS", Ty("list", "card")),
                  "trick": ("LATEST", Ty("trick", maybe=True)), "first_trick": ("FIRST", Ty("trick", maybe=True)),
                  "last_trick": ("LASTTRICK", Ty("trick", maybe=True)),
                  "tricks_played": ("PLAYED_N", Ty("int")), "tricks_left": ("LEFT_N", Ty("int"))}
        if n in simple:
            op, ty = simple[n]
            return self.node(op), ty
        if n == "commander":
            return self.const(NONE if self.commander is None else self.commander, Ty("player", maybe=True))
        if n == "dealer":  # none in the play-outs' view (conditions.SimView); the solver's is the game's
            return self.const(NONE if self.dealer is None else self.dealer, Ty("player", maybe=True))
        if n == "mode":
            return self.const(NONE if self.mode is None else self.intern(self.mode), Ty("str", maybe=True))
        if n == "total_tricks":
            return self.const(self.total_tricks, Ty("int"))
        if n == "deck":
            return self.const_list([c.id for c in self.deck.cards], "card")
        if n == "suits":
            return self.const_list([s.index for s in self.deck.suits], "suit")
        if n in self.roles:
            seat = self.roles[n]
            return self.const(NONE if seat is None else seat, Ty("player", maybe=True))
        if self.deck.has_suit(n):
            return self.const(self.deck.suit(n).index, Ty("suit"))
        from crewkit.dsl.checker import special_card

        card = special_card(self.deck, n)
        if card is None:
            raise Untranslatable(f"unknown name {n!r}")
        return self.const(card.id, Ty("card"))

    def list_lit(self, e: A.ListLit, scope: Mapping[str, tuple[int, Ty]]) -> tuple[int, Ty]:
        items = [self.expr(x, scope) for x in e.items]
        kinds = {t.kind for _, t in items} - {"none"}
        if any(t.kind == "list" for _, t in items) or len(kinds) > 1:
            raise Untranslatable("a list of lists or of several kinds of value")
        if len(items) > MAX_LIST:
            raise Untranslatable(f"a list of more than {MAX_LIST} items")
        elem = kinds.pop() if kinds else "none"
        start = len(self.pool)
        self.pool += [i for i, _ in items]
        return self.node("LISTLIT", start, len(items)), Ty("list", elem)

    @staticmethod
    def comparable(a: str, b: str) -> bool:
        if "none" in (a, b):
            return a != "list" and b != "list"
        if a in _NUMBERS and b in _NUMBERS:
            return True
        return a == b and a in ("bool", "card", "suit", "str")

    def compare(self, e: A.Compare, scope: Mapping[str, tuple[int, Ty]]) -> tuple[int, Ty]:
        x, tx = self.expr(e.left, scope)
        y, ty = self.expr(e.right, scope)
        if e.op in ("in", "not in"):
            if ty.kind != "list" or not self.comparable(tx.kind, ty.elem or "none"):
                raise Untranslatable("membership in something other than a list of plain values")
            if tx.kind in ("trick", "task"):
                raise Untranslatable("membership of a trick or a task")
            return self.node("IN" if e.op == "in" else "NOTIN", x, y), Ty("bool")
        if e.op in ("==", "!="):
            if not self.comparable(tx.kind, ty.kind):
                raise Untranslatable(f"comparing a {tx.kind} with a {ty.kind}")
            return self.node("EQ" if e.op == "==" else "NE", x, y), Ty("bool")
        self.number(tx)
        self.number(ty)
        ops = {"<": "LT", "<=": "LE", ">": "GT", ">=": "GE"}
        return self.node(ops[e.op], x, y), Ty("bool")

    def call(self, e: A.Call, scope: Mapping[str, tuple[int, Ty]]) -> tuple[int, Ty]:
        f = e.func
        if f in ("cards_of", "cards_of_rank"):
            if len(e.args) != 1:
                raise Untranslatable(f"{f} with {len(e.args)} arguments")
            arg = e.args[0]
            if f == "cards_of":
                if not (isinstance(arg, A.Name) and arg.name not in scope and arg.name not in self.roles
                        and self.deck.has_suit(arg.name)):
                    raise Untranslatable("cards_of of a suit not written out")
                cards: Sequence[Card] = self.deck.cards_of_suit(self.deck.suit(arg.name))
            else:
                if not isinstance(arg, A.Int):
                    raise Untranslatable("cards_of_rank of a rank not written out")
                cards = self.deck.cards_of_rank(arg.value)
            return self.const_list([c.id for c in cards], "card")
        # (param kinds, result type) per function; "player" params are range-checked in C
        sig: dict[str, tuple[tuple[str, ...], Ty]] = {
            "tricks_won": (("player",), Ty("int")), "cards_won": (("player",), Ty("list", "card")),
            "hand": (("player",), Ty("list", "card")), "won_by": (("card",), Ty("player", maybe=True)),
            "played": (("card",), Ty("bool")), "left_unplayed": (("card",), Ty("bool")),
            "trick_of": (("card",), Ty("trick", maybe=True)), "trick_at": (("int",), Ty("trick", maybe=True)),
            "left_of": (("player",), Ty("player")), "right_of": (("player",), Ty("player")),
            "is_trump": (("card",), Ty("bool")), "is_colour": (("card",), Ty("bool")),
            "count": (("list",), Ty("int")), "abs": (("int",), Ty("int")), "max": (("int", "int"), Ty("int")),
            "min": (("int", "int"), Ty("int")), "task_of": (("card",), Ty("task", maybe=True)),
            "done": (("task",), Ty("bool")), "tasks_of": (("player",), Ty("list", "task")),
            "lost_for": (("card", "player"), Ty("bool")), "longest_run": (("player",), Ty("int")),
            "others": (("player",), Ty("list", "player")),
        }
        if f not in sig:
            raise Untranslatable(f"the function {f}")
        params, result = sig[f]
        if len(e.args) != len(params):
            raise Untranslatable(f"{f} with {len(e.args)} arguments")
        args = []
        for want, arg in zip(params, e.args, strict=True):
            i, t = self.expr(arg, scope)
            ok = (t.kind == "list") if want == "list" else (
                t.kind in _NUMBERS + ("none",) if want in _NUMBERS else t.kind in (want, "none"))
            if not ok:
                raise Untranslatable(f"{f} of a {t.kind}")
            args.append(i)
        op = {"max": "MAX2", "min": "MIN2", "count": "COUNTLIST"}.get(f, f.upper())
        return self.node(op, *args), result

    def field(self, e: A.Field, scope: Mapping[str, tuple[int, Ty]]) -> tuple[int, Ty]:
        x, tx = self.expr(e.obj, scope)
        table: dict[tuple[str, str], tuple[str, Ty]] = {
            ("card", "suit"): ("C_SUIT", Ty("suit", maybe=True)), ("card", "rank"): ("C_RANK", Ty("int")),
            ("card", "is_trump"): ("C_TRUMP", Ty("bool")), ("card", "is_special"): ("C_SPECIAL", Ty("bool")),
            ("trick", "number"): ("T_NUMBER", Ty("int")), ("trick", "leader"): ("T_LEADER", Ty("player")),
            ("trick", "winner"): ("T_WINNER", Ty("player")), ("trick", "winning_card"): ("T_WINCARD", Ty("card")),
            ("trick", "cards"): ("T_CARDS", Ty("list", "card")),
            ("trick", "last_card"): ("T_LASTCARD", Ty("card")),
            ("trick", "led_suit"): ("T_LED", Ty("suit", maybe=True)),
            ("trick", "is_first"): ("T_FIRST", Ty("bool")), ("trick", "is_last"): ("T_LAST", Ty("bool")),
            ("task", "card"): ("K_CARD", Ty("card")), ("task", "owner"): ("K_OWNER", Ty("player", maybe=True)),
            ("task", "token"): ("K_TOKEN", Ty("str", maybe=True)), ("task", "done"): ("K_DONE", Ty("bool")),
            ("task", "trick"): ("K_TRICK", Ty("int", maybe=True)), ("suit", "is_trump"): ("S_TRUMP", Ty("bool")),
        }
        hit = table.get((tx.kind, e.name))
        if hit is None:
            raise Untranslatable(f"the field {e.name} of a {tx.kind}")
        op, ty = hit
        if ty.kind != "list" and tx.maybe:
            ty = Ty(ty.kind, ty.elem, True)  # a field of none is none
        return self.node(op, x), ty

    def quant(self, e: A.Quant, scope: Mapping[str, tuple[int, Ty]]) -> tuple[int, Ty]:
        # the same quantifier written twice (a mission's fail_if and done_if often share a count over the
        # tricks) is one node: C then keeps one running value per trick for both
        key = (_shape(e), tuple(sorted(scope.items())))
        seen = self.quants.get(key)
        if seen is not None:
            return seen
        self.quants[key] = out = self._quant(e, scope)
        return out

    def _quant(self, e: A.Quant, scope: Mapping[str, tuple[int, Ty]]) -> tuple[int, Ty]:
        src, ts = self.expr(e.source, scope)
        if ts.kind != "list":
            raise Untranslatable(f"{e.kind} over a {ts.kind}")
        slot = len(scope)
        if slot >= MAX_VARS:
            raise Untranslatable("quantifiers nested too deeply")
        inner = dict(scope)
        inner[e.var] = (slot, Ty(ts.elem or "none"))
        body, tb = self.expr(e.body, inner)
        if e.kind in ("all", "any", "count"):
            self.truthy(tb)
        else:
            self.number(tb)
        result = Ty("bool") if e.kind in ("all", "any") else Ty("int")
        if self.code[4 * src] == OP["TRICKS"]:
            body = self.memoize(body, slot)
        return self.node(e.kind.upper(), slot, src, body), result

    def unplayed_by(self, card: A.Expr, trick: A.Expr, scope: Mapping[str, tuple[int, Ty]]) -> tuple[int, Ty]:
        """``trick_of(card) == none or trick_of(card).number > trick.number``: the card is in no trick up to
        ``trick``. Its value depends only on the tricks up to ``trick``, so a body over the tricks that holds it
        can be kept in that trick's record (``MEMO``) where the written form, which reads where the card fell
        later, could not."""
        c, tc = self.expr(card, scope)
        t, tt = self.expr(trick, scope)
        if tc.kind != "card" or tt.kind != "trick":
            raise Untranslatable("trick_of of something other than a card")
        return self.node("UNPLAYED_BY", c, t), Ty("bool")

    def memoize(self, i: int, slot: int) -> int:
        """Node ``i`` of a quantifier's body over the tricks (variable ``slot``), with its largest parts that
        read only that trick (at least 3 nodes) kept per trick in C (``MEMO``); returns the node to use."""
        if self.memos >= MAX_MEMO:
            return i
        if self.pure(i, {slot}):
            if self.size(i) < 3 or not self.reads(i, slot):
                return i
            self.memos += 1
            return self.node("MEMO", i, self.memos - 1, slot)
        self.rewrite_children(i, lambda child: self.memoize(child, slot))
        return i

    def children(self, i: int) -> list[tuple[int, int]]:
        """(field 1..3, child) per operand of node ``i``; a list literal's items as (-1 - pool index, child)."""
        op, a, b, c = self.code[4 * i: 4 * i + 4]
        if op in _LEAF_OPS:
            return []
        if op == OP["LISTLIT"]:
            return [(-1 - (a + j), self.pool[a + j]) for j in range(b)]
        if op in _QUANT_OPS:
            return [(2, b), (3, c)]
        if op == OP["IF"]:
            return [(1, a), (2, b), (3, c)]
        if op in _BINARY_OPS:
            return [(1, a), (2, b)]
        return [(1, a)]

    def stabilize(self, i: int) -> int:
        """Node ``i`` of a condition judged after every card, with its largest closed parts that do not change
        during a trick (at least 3 nodes) kept from one trick's end to the next in C (``STABLE``)."""
        if self.stables >= MAX_MEMO:
            return i
        if not self.free_vars(i) and self.trick_stable(i):
            if self.size(i) < 3:
                return i
            self.stables += 1
            return self.node("STABLE", i, self.stables - 1)
        self.rewrite_children(i, self.stabilize)
        return i

    def rewrite_children(self, i: int, rewrite: Callable[[int], int]) -> None:
        """Replace each operand of node ``i`` by what ``rewrite`` makes of it."""
        for field, child in self.children(i):
            new = rewrite(child)
            if new != child:
                if field >= 0:
                    self.code[4 * i + field] = new
                else:
                    self.pool[-field - 1] = new

    def free_vars(self, i: int) -> set[int]:
        op, a, b, c = self.code[4 * i: 4 * i + 4]
        if op == OP["VAR"]:
            return {a}
        if op in _QUANT_OPS:
            return self.free_vars(b) | (self.free_vars(c) - {a})
        out: set[int] = set()
        for _, child in self.children(i):
            out |= self.free_vars(child)
        return out

    def trick_stable(self, i: int) -> bool:
        return self.code[4 * i] not in _IN_TRICK_OPS and all(self.trick_stable(c) for _, c in self.children(i))

    def size(self, i: int) -> int:
        return 1 + sum(self.size(child) for _, child in self.children(i))

    def reads(self, i: int, slot: int) -> bool:
        """Whether node ``i`` reads the variable ``slot``."""
        if self.code[4 * i] == OP["VAR"]:
            return self.code[4 * i + 1] == slot
        return any(self.reads(child, slot) for _, child in self.children(i))

    def pure(self, i: int, bound: set[int]) -> bool:
        """Whether node ``i`` depends on nothing but the variables ``bound`` and completed tricks' fields."""
        op, a, b, c = self.code[4 * i: 4 * i + 4]
        if op == OP["UNPLAYED_BY"]:  # the tricks up to a bound trick: those never change while it is kept
            return self.pure(a, bound) and self.code[4 * b] == OP["VAR"] and self.code[4 * b + 1] in bound
        if op not in _PURE_OPS:
            return False
        if op == OP["VAR"]:
            return a in bound
        if op in _QUANT_OPS:
            return self.pure(b, bound) and self.pure(c, bound | {a})
        return all(self.pure(child, bound) for _, child in self.children(i))

    def top(self, e: A.Expr) -> int:
        i, t = self.expr(e, {})
        self.truthy(t)
        return i


def _shape(e: object) -> object:
    """An expression without its positions in the text: two writings of the same expression compare equal."""
    if isinstance(e, tuple):
        return tuple(_shape(x) for x in e)
    if not isinstance(e, A.Expr) or not is_dataclass(e):
        return e
    return (type(e).__name__, *(_shape(getattr(e, f.name)) for f in fields(e) if not f.name.endswith("pos")))


def _trick_of_arg(e: A.Expr) -> A.Expr | None:
    return e.args[0] if isinstance(e, A.Call) and e.func == "trick_of" and len(e.args) == 1 else None


def _unplayed_by(e: A.Binary) -> tuple[A.Expr, A.Expr] | None:
    """(card, trick) when ``e`` is ``trick_of(card) == none or trick_of(card).number > trick.number`` (either
    side of ``==`` and of the comparison), else None."""
    if e.op != "or" or not isinstance(e.left, A.Compare) or not isinstance(e.right, A.Compare):
        return None
    eq, later = e.left, e.right
    if eq.op != "==":
        return None
    sides = (eq.left, eq.right) if isinstance(eq.right, A.NoneLit) else (eq.right, eq.left)
    card = _trick_of_arg(sides[0])
    if card is None or not isinstance(sides[1], A.NoneLit):
        return None
    if later.op == ">":
        big, small = later.left, later.right
    elif later.op == "<":
        big, small = later.right, later.left
    else:
        return None
    if not (isinstance(big, A.Field) and big.name == "number" and isinstance(small, A.Field)
            and small.name == "number"):
        return None
    again = _trick_of_arg(big.obj)
    if again is None or _shape(again) != _shape(card):
        return None
    return card, small.obj


def compile_program(conditions: Sequence[Condition], deck: Deck, roles: Mapping[str, int | None],
                    commander: int | None, total_tricks: int, tokens: Sequence[str | None],
                    dealer: int | None = None, mode: str | None = None) -> tuple[Program | None, str]:
    """The conditions as a :class:`Program`, or (None, why not). ``dealer`` and ``mode`` are constants (none in
    the bots' play-outs, the game's in the solver's C search)."""
    if len(conditions) > 64:
        return None, "more than 64 conditions"
    comp = _Compiler(deck, roles, commander, total_tricks, tokens, dealer, mode)
    out = []
    try:
        for c in conditions:
            if (c.fail_if is not None and c.fail_expr is None) or (c.done_if is not None and c.done_expr is None):
                return None, f"condition {c.id} has no syntax tree"
            f = comp.top(c.fail_expr) if c.fail_expr is not None else -1
            d = comp.top(c.done_expr) if c.done_expr is not None else -1
            if c.check == "after-play":  # judged after every card: keep what only a trick's end changes
                f, d = (comp.stabilize(f) if f >= 0 else f), (comp.stabilize(d) if d >= 0 else d)
            out.append((f, d, AFTER_PLAY if c.check == "after-play" else AFTER_TRICK))
    except Untranslatable as e:
        return None, str(e)
    return Program(tuple(comp.code), tuple(comp.pool), tuple(out), comp.tokens, total_tricks), ""


def trick_records(tricks: Sequence[object]) -> list[int]:
    """The observed tricks as the C evaluator reads them: count, then (leader, winner, plays, (seat, card id)
    per play) per trick (the fast bot's and the solver's C search alike)."""
    out = [len(tricks)]
    for t in tricks:
        plays = t.plays  # type: ignore[attr-defined]
        out += [t.leader, t.winner, len(plays)]  # type: ignore[attr-defined]
        for seat, card in plays:
            out += [seat, card.id]
    return out


def trick_tail(tricks: Sequence[object], cond_done: Sequence[bool], goal: tuple[int, ...]) -> list[int]:
    """The observed tricks and the conditions they completed, as ``fs_decide_cond`` reads them after a
    position: :func:`trick_records`, then the done mask, then the play-outs' goal (cards, tricks still to win, 1 when only the last trick counts:
    :func:`crewkit.families.trick_taking.bots.conditions.goal_tail`)."""
    out = trick_records(tricks)
    out.append(sum(1 << i for i, d in enumerate(cond_done) if d))
    out += goal
    return out


class NativeProgram:
    """A :class:`Program` loaded into the C library (``fs_cond_new``); freed with the object."""

    def __init__(self, lib: ctypes.CDLL, program: Program, deck: Deck) -> None:
        data = program.encode(deck)
        arr = (ctypes.c_longlong * len(data))(*data)
        handle = lib.fs_cond_new(arr)
        if not handle:
            raise OSError("the C look-ahead refused the translated conditions")
        self._lib = lib
        self.handle: int | None = handle
        self.program = program

    def __del__(self) -> None:
        handle, self.handle = getattr(self, "handle", None), None
        if handle:
            self._lib.fs_cond_free(handle)


_PROGRAMS: dict[tuple[object, ...], tuple[object, NativeProgram | None, str]] = {}


def native_program(lib: ctypes.CDLL, setup: CondSetup) -> tuple[NativeProgram | None, str]:
    """The conditions of ``setup`` loaded into ``lib`` (cached per rules, roles, commander, tasks and conditions), or
    (None, why they stay in Python)."""
    tokens = tuple(token for _, token in setup.tasks)
    key = (id(setup.rules), tuple(sorted(setup.roles.items())), setup.commander, setup.total_tricks, tokens,
           tuple(c.id for c in setup.conditions))  # the task cards' conditions differ from game to game
    hit = _PROGRAMS.get(key)
    if hit is not None and hit[0] is setup.rules:
        return hit[1], hit[2]
    if lib.fs_cond_ops() != len(OP):
        out: tuple[NativeProgram | None, str] = (None, "the C library's opcodes differ from condcode.py's")
    else:
        program, why = compile_program(setup.conditions, setup.deck, setup.roles, setup.commander,
                                       setup.total_tricks, tokens)
        if program is None:
            out = (None, why)
        else:
            try:
                out = (NativeProgram(lib, program, setup.deck), "")
            except OSError as e:
                out = (None, str(e))
    if len(_PROGRAMS) > 64:
        _PROGRAMS.clear()
    _PROGRAMS[key] = (setup.rules, *out)
    return out
