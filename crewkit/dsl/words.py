"""Conditions and score formulas in English: ``words(parse("tricks_won(sick) > 0"))``.

The sentence is built from the syntax tree, the way a player would say the rule, never by spelling out the
operators: ``tricks_won(sick) > 0`` reads "the player chosen as sick has won a trick", ``any(t in tricks:
t.winning_card.rank == 9)`` reads "a trick is won by a 9", ``count(c in current_cards: is_trump(c)) >= 2``
reads "the trick in progress holds at least two trump cards". What makes that possible, all of it general:

- every word reads through its ``phrase`` in :mod:`crewkit.dsl.vocabulary` (a word added there reads at once;
  a boolean word whose phrase starts with its first argument, ``{0} is done``, becomes a clause with that
  argument as its subject, so it can be negated, shared by a conjunction and folded into a quantifier);
- a quantifier's variable is never named: the quantifier becomes a noun phrase ("every 9", "a trick", "no
  red card") whose subject the body's clause speaks about; a body that says what kind of item it wants
  (``is_colour(c)``, ``c.rank == 1``, ``p != opener``) becomes part of that noun ("a colour 1", "a player
  other than the player chosen as opener"); elsewhere the variable reads "that trick";
- counts compared with a number read as quantities ("has won no trick", "at least two trump cards"), a
  product with a count reads "40 per trick won by the player", ``x != none`` guards read as what they mean
  ("the last trick is won by someone other than the commander"), negations move inside ("is not", "no");
- ``names`` replaces a bare name (a role, a variable the engine binds such as ``p``) by the words given.

Where a rule still reads clumsily, the mission gives its own words (``text:`` of a condition or a step).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from . import ast as A
from .parser import parse
from .types import BOOL, CARD, INT, LIST, PLAYER, STR, Type
from .vocabulary import FIELDS, FUNCTIONS, NAMES

_SMALL = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_NOUNS = {"trick": "trick", "card": "card", "player": "player", "task": "task", "suit": "suit", "int": "number"}
# A field name shared by several types (``name``, ``is_trump``): the first owner's phrase reads for each.
_FIELD_PHRASES: dict[str, str] = {}
for _owner in FIELDS.values():
    for _name, _word in _owner.items():
        _FIELD_PHRASES.setdefault(_name, _word.phrase)
_NEGATE = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">", "in": "not in", "not in": "in"}
_FLIP = {"==": "==", "!=": "!=", "<": ">", ">": "<", "<=": ">=", ">=": "<="}
_MARK = "\x00"  # brackets a quantifier variable's index in text under construction


def role_phrase(role: str) -> str:
    """A role chosen during setup, not yet bound to a player: ``the player chosen as sick``."""
    return f"the player chosen as {role.replace('_', ' ')}"


def with_roles(roles: Mapping[str, str] | None = None, unbound: tuple[str, ...] = ()) -> dict[str, str]:
    """``names`` for :func:`words`: bound roles by the given words, unbound ones as "the player chosen as X"."""
    out = {r: role_phrase(r) for r in unbound}
    out.update(roles or {})
    return out


def words(expr: A.Expr | str, names: Mapping[str, str] | None = None) -> str:
    """``expr`` (a tree or its source text) as an English phrase: a clause for a condition, a noun phrase
    for a number."""
    if isinstance(expr, str):
        expr = parse(expr)
    speaker = _Speaker(dict(names or {}))
    if speaker.typeof(expr) == BOOL:
        return speaker.finish(speaker.clause(expr).text)
    return speaker.finish(speaker.value(expr))


# ----------------------------------------------------------------------------------------------- grammar


def number_word(n: int) -> str:
    """``two`` for 2; numbers past ten as digits."""
    return _SMALL[n] if 0 <= n < len(_SMALL) else str(n)


def article(phrase: str) -> str:
    """``a`` or ``an`` before ``phrase`` (by sound: ``an 8``, ``an 11``, ``a one``)."""
    first = phrase.split(" ", 1)[0].lower()
    if first[:1].isdigit():
        return "an" if first.startswith("8") or first in ("11", "18") or re.fullmatch(r"18\d\d", first) else "a"
    if first in ("one", "once", "unique", "user") or first.startswith(("uni", "use", "eu")):
        return "a"
    return "an" if first[:1] in "aeiou" or first in ("hour", "honest") else "a"


def with_article(phrase: str) -> str:
    return f"{article(phrase)} {phrase}"


def plural_noun(noun: str) -> str:
    """``card`` → ``cards``, ``colour 1`` → ``colour 1s``, ``card of rank 9`` → ``cards of rank 9``."""
    head, sep, tail = noun.partition(" of ")
    words_ = head.split(" ")
    last = words_[-1]
    if last[:1].isdigit():
        last += "s"
    elif last.endswith(("s", "x", "ch", "sh")):
        last += "es"
    elif last.endswith("y") and last[-2:-1] not in ("a", "e", "o", "u"):
        last = last[:-1] + "ies"
    else:
        last += "s"
    return " ".join([*words_[:-1], last]) + (sep + tail if sep else "")


_PLURAL_VERBS = {"is": "are", "has": "have", "was": "were", "does": "do"}
_AUXILIARIES = ("is", "are", "was", "were", "has", "have", "had", "can", "does", "do", "did", "will", "may", "must")


def plural_predicate(pred: str, nouns: bool = True) -> str:
    """The verb phrase for a plural subject: ``is a trump card`` → ``are trump cards``, ``holds`` → ``hold``
    (``nouns=False``: the verb only, for "you" and "they")."""
    m = re.fullmatch(r"is an? ([\w ]+)", pred)
    if nouns and m and not re.search(r"\b(and|or|by|of|in|with|than)\b", m.group(1)):
        return "are " + plural_noun(m.group(1))
    verb, sep, rest = pred.partition(" ")
    if verb in _PLURAL_VERBS:
        verb = _PLURAL_VERBS[verb]
    elif verb.endswith("ies") and len(verb) > 4:
        verb = verb[:-3] + "y"
    elif verb.endswith("s") and not verb.endswith("ss") and not verb.endswith("ed"):
        verb = verb[:-1]
    return verb + sep + rest


def negate_predicate(pred: str) -> str | None:
    """``is a trump card`` → ``is not a trump card``; ``stayed unplayed`` → ``did not stay unplayed``; None when
    the verb is not one these rules know (the caller says "it is not true that ...")."""
    verb, sep, rest = pred.partition(" ")
    if verb in _AUXILIARIES:
        return f"{verb} not{sep}{rest}"
    if verb.endswith("ed") and len(verb) > 3:
        base = verb[:-2] if not verb.endswith("ied") else verb[:-3] + "y"
        return f"did not {base}{sep}{rest}"
    if verb.endswith("s") and not verb.endswith("ss") and len(verb) > 2:
        base = verb[:-3] + "y" if verb.endswith("ies") else verb[:-1]
        return f"does not {base}{sep}{rest}"
    return None


def join(items: Sequence[str], conjunction: str) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]


def token_phrase(token: str) -> str:
    """A task token in words: ``the Ω token``, ``token 2``, ``the second arrow token``."""
    if token == "omega":
        return "the Ω token"
    if token.isdigit():
        return f"token {token}"
    if token and set(token) == {">"}:
        order = ("first", "second", "third", "fourth", "fifth")
        return f"the {order[len(token) - 1] if len(token) <= 5 else str(len(token)) + 'th'} arrow token"
    return f"the token \u201c{token}\u201d"


# ----------------------------------------------------------------------------------------------- pieces


@dataclass(frozen=True)
class Clause:
    """A sentence: ``subject`` + ``pred`` (a verb phrase), or ``pred`` alone when it has no single subject.

    ``op`` is ``and``/``or`` when the sentence joins whole sentences (for "either ... or ..." inside another
    conjunction)."""

    subject: str | None
    pred: str
    op: str | None = None
    vp_op: str | None = None  # the verb phrase joins several with and/or ("is done or has been won")
    tag: str = ""  # what the verb phrase says: "winner" (is won by a player), "card" (is won by such a card)
    parts: tuple[str, ...] = ()  # the verb phrases ``pred`` joins (with ``vp_op``), for agreement

    @property
    def text(self) -> str:
        if not self.subject:
            return self.pred
        subject = "they" if self.subject == "them" else self.subject  # "them" is the pronoun as an object
        if subject.split(" ", 1)[0].lower() in ("you", "they", "we"):
            if self.parts and self.vp_op:
                return f"{subject} " + join([plural_predicate(p, nouns=False) for p in self.parts], self.vp_op)
            return f"{subject} {plural_predicate(self.pred, nouns=False)}"
        return f"{subject} {self.pred}"


@dataclass
class Noun:
    """A noun phrase under construction: ``pre`` adjectives, the ``noun``, ``post`` modifiers."""

    noun: str
    pre: list[str] = field(default_factory=list)
    post: list[str] = field(default_factory=list)
    others: list[str] = field(default_factory=list)  # "other than X" (joined into one modifier)

    def text(self, plural: bool = False, with_post: bool = True) -> str:
        noun = plural_noun(self.noun) if plural else self.noun
        post = list(self.post) if with_post else []
        if self.others:
            post.insert(0, "other than " + join(self.others, "and"))
        return " ".join([*self.pre, noun, *post])

    def copy(self) -> Noun:
        return Noun(self.noun, list(self.pre), list(self.post), list(self.others))


@dataclass(frozen=True)
class _Var:
    name: str
    type: Type | None
    noun: str
    ref: str  # how the body names it: "that trick"


@dataclass(frozen=True)
class _Source:
    """A list a quantifier walks: what its items are, and who holds them (for "T holds two trump cards")."""

    noun: Noun
    holder: str | None = None  # "the trick in progress", a trick, a player
    verb: str = "holds"  # how the holder has the items: holds | has won
    suffix: str = ""  # after the items: " in hand"


def _compound(c: Clause, op: str) -> str:
    if c.op is not None and c.op != op:
        return ("either " if c.op == "or" else "both ") + c.text
    return c.text


class _Speaker:
    def __init__(self, names: dict[str, str]) -> None:
        self.names = names
        self.vars: list[_Var] = []

    # ------------------------------------------------------------------------------------------ types

    def var(self, name: str) -> _Var | None:
        for v in reversed(self.vars):
            if v.name == name:
                return v
        return None

    def typeof(self, node: A.Expr) -> Type | None:
        if isinstance(node, A.Int):
            return INT
        if isinstance(node, A.Bool):
            return BOOL
        if isinstance(node, A.Str):
            return STR
        if isinstance(node, A.CardLit):
            return CARD
        if isinstance(node, A.Name):
            v = self.var(node.name)
            if v is not None:
                return v.type
            if node.name in self.names:
                return PLAYER
            word = NAMES.get(node.name)
            return word.returns if word is not None else None
        if isinstance(node, A.Call):
            word = FUNCTIONS.get(node.func)
            return word.returns if word is not None else None
        if isinstance(node, A.Field):
            owner = self.typeof(node.obj)
            table = FIELDS.get(owner.kind, {}) if owner is not None else {}
            word = table.get(node.name) or next((t[node.name] for t in FIELDS.values() if node.name in t), None)
            return word.returns if word is not None else None
        if isinstance(node, A.Quant):
            return BOOL if node.kind in ("all", "any") else INT
        if isinstance(node, A.Compare):
            return BOOL
        if isinstance(node, A.Unary):
            return BOOL if node.op == "not" else INT
        if isinstance(node, A.Binary):
            if node.op in ("and", "or"):
                return BOOL
            left = self.typeof(node.left)
            return left if left is not None and left.is_list else INT
        if isinstance(node, A.Conditional):
            return self.typeof(node.then) or self.typeof(node.other)
        if isinstance(node, A.ListLit):
            inner = self.typeof(node.items[0]) if node.items else None
            return LIST(inner) if inner is not None else None
        return None

    def kind(self, node: A.Expr) -> str | None:
        t = self.typeof(node)
        return t.kind if t is not None else None

    # ------------------------------------------------------------------------------------------ finishing

    def finish(self, text: str) -> str:
        """Text with no variable marks left (a variable outside its quantifier cannot happen; be safe)."""
        return re.sub(f"{_MARK}(\\d+){_MARK}", "it", text)

    def ref_of(self, index: int) -> str:
        return f"{_MARK}{index}{_MARK}"

    def resolve(self, text: str, index: int, ref: str) -> str:
        return text.replace(self.ref_of(index), ref)

    # ------------------------------------------------------------------------------------------ values

    def value(self, node: A.Expr, *, player: bool = False) -> str:
        """A noun phrase for a value (a number, a card, a player, a trick, a list ...)."""
        if isinstance(node, A.Int):
            return f"seat {node.value}" if player else str(node.value)
        if isinstance(node, A.Bool):
            return "true" if node.value else "false"
        if isinstance(node, A.NoneLit):
            return "nobody" if player else "nothing"
        if isinstance(node, A.Str):
            return f"\u201c{node.value}\u201d"
        if isinstance(node, A.CardLit):
            return f"{node.suit} {node.rank}"
        if isinstance(node, A.Name):
            return self.name(node.name)
        if isinstance(node, A.ListLit):
            items = [self.value(i, player=player) for i in node.items]
            return join(items, "and") if items else "no items"
        if isinstance(node, A.Call):
            return self.call_value(node)
        if isinstance(node, A.Field):
            phrase = _FIELD_PHRASES.get(node.name)
            obj = self.value(node.obj)
            return phrase.format(obj) if phrase else f"the {node.name.replace('_', ' ')} of {obj}"
        if isinstance(node, A.Quant):
            return self.quant_value(node)
        if isinstance(node, A.Unary):
            if node.op == "not":
                return self.clause(node).text
            return "minus " + self.value(node.operand)
        if isinstance(node, A.Binary):
            if node.op in ("and", "or"):
                return self.clause(node).text
            return self.arithmetic(node)
        if isinstance(node, A.Compare):
            return self.clause(node).text
        if isinstance(node, A.Conditional):
            return (f"{self.value(node.then, player=player)} if {self.clause(node.cond).text}, "
                    f"otherwise {self.value(node.other, player=player)}")
        return type(node).__name__  # pragma: no cover - every node kind is handled above

    def name(self, name: str) -> str:
        for i in range(len(self.vars) - 1, -1, -1):  # a quantifier's variable shadows every other name
            if self.vars[i].name == name:
                return self.ref_of(i)
        if name in self.names:
            return self.names[name]
        word = NAMES.get(name)
        if word is not None and word.phrase:
            return word.phrase
        return name.replace("_", " ")  # a suit or a special card by its name

    def call_value(self, node: A.Call) -> str:
        word = FUNCTIONS.get(node.func)
        if node.func == "count" and len(node.args) == 1:
            src = self.source(node.args[0])
            return f"the number of {src.noun.text(plural=True)}"
        if word is None or not word.phrase:
            return node.func.replace("_", " ") + " of " + join([self.value(a) for a in node.args], "and")
        player = [p.type.kind == "player" for p in word.params]
        args = [self.value(a, player=player[i] if i < len(player) else False) for i, a in enumerate(node.args)]
        return word.phrase.format(*args)

    def arithmetic(self, node: A.Binary) -> str:
        if node.op == "*":
            for count, factor in ((node.right, node.left), (node.left, node.right)):
                per = self.per(count)
                if per is not None and not isinstance(factor, A.Binary):
                    return f"{self.value(factor)} per {per}"
        left = self.value(node.left)
        if isinstance(node.left, A.Binary) and node.left.op in ("+", "-") and node.op in ("*", "//", "%"):
            left = f"({left})"
        right = self.value(node.right)
        if isinstance(node.right, A.Conditional) and isinstance(node.right.other, A.Int) \
                and node.right.other.value == 0 and node.op in ("+", "-"):
            # "40 per trick won, minus 180 if the player wins the first trick"
            right = f"{self.value(node.right.then)} if {self.clause(node.right.cond).text}"
            return f"{left}, {'plus' if node.op == '+' else 'minus'} {right}"
        if isinstance(node.right, A.Binary) and node.right.op in ("+", "-"):
            right = f"({right})"
        if node.op == "+":
            joined = "joined with" if self.typeof(node) is not None and self.typeof(node) != INT else "plus"
            return f"{left} {joined} {right}"
        if node.op == "-":
            return f"{left} minus {right}"
        if node.op == "*":
            return f"{left} times {right}"
        if node.op == "//":
            return f"{left} divided by {right} (rounded down)"
        return f"the remainder of {left} divided by {right}"

    def quant_value(self, node: A.Quant) -> str:
        if node.kind == "count":
            src, rest, ref = self.quantified(node, "count")
            noun = src.noun.text(plural=True)
            if rest is None:
                return f"the number of {noun}"
            index = len(self.vars)
            that = "that " + src.noun.noun
            if rest.subject == ref and rest.op is None:
                return f"the number of {noun} that {plural_predicate(self.resolve(rest.pred, index, 'it'))}"
            return f"the number of {noun} for which {self.resolve(rest.text, index, that)}"
        # sum / max / min: the body speaks of "a player" (any one of them)
        src = self.source(node.source)
        var = _Var(node.var, self.elem_type(node.source), src.noun.noun, "")
        self.vars.append(var)
        try:
            body = self.value(node.body)
        finally:
            self.vars.pop()
        index = len(self.vars)
        if node.kind == "sum":
            body = self.resolve(body, index, "each " + src.noun.text())
            return f"the total of {body}"
        body = self.resolve(body, index, with_article(src.noun.text()))
        best = "largest" if node.kind == "max" else "smallest"
        return f"the {best} {body[4:]}" if body.startswith("the ") else f"the {best} value of {body}"

    # ------------------------------------------------------------------------------------------ lists

    def elem_type(self, node: A.Expr) -> Type | None:
        t = self.typeof(node)
        return t.elem if t is not None and t.is_list else None

    def source(self, node: A.Expr) -> _Source:
        """What a list's items are called and who holds them."""
        elem = self.elem_type(node)
        noun = _NOUNS.get(elem.kind, "item") if elem is not None else "item"
        if isinstance(node, A.Name) and self.var(node.name) is None and node.name not in self.names:
            if node.name == "current_cards":
                return _Source(Noun("card", post=["in the trick in progress"]), "the trick in progress")
            if node.name in ("tricks", "players", "tasks", "suits", "deck"):
                return _Source(Noun(noun))
        if isinstance(node, A.Call) and len(node.args) == 1:
            arg = node.args[0]
            if node.func == "cards_of":
                return _Source(Noun("card", pre=[self.value(arg)]))
            if node.func == "cards_of_rank" and isinstance(arg, A.Int):
                return _Source(Noun(str(arg.value)))
            if node.func == "cards_of_rank":
                return _Source(Noun("card", post=[f"of rank {self.value(arg)}"]))
            if node.func == "cards_won":
                who = self.value(arg, player=True)
                return _Source(Noun("card", post=[f"won by {who}"]), who, "has won")
            if node.func == "hand":
                who = self.value(arg, player=True)
                return _Source(Noun("card", post=[f"in the hand of {who}"]), who, "holds", " in hand")
            if node.func == "tasks_of":
                who = self.value(arg, player=True)
                return _Source(Noun("task", post=[f"of {who}"]), who, "owns")
        if isinstance(node, A.Field) and node.name == "cards" and self.kind(node.obj) == "trick":
            holder = self.value(node.obj)
            return _Source(Noun("card", post=[f"in {holder}"]), holder)
        if isinstance(node, A.ListLit):
            return _Source(Noun(noun, post=["among " + join([self.value(i) for i in node.items], "and")]))
        return _Source(Noun(noun, post=["among " + self.value(node)]))

    def quantified(self, node: A.Quant, mode: str) -> tuple[_Source, Clause | None, str]:
        """A quantifier's list with what its body folds into the noun, the rest of the body as a clause
        (None when it all folded), and the mark standing for the variable in that clause.

        ``mode`` ``all`` folds ``not P(x) or ...`` (every P ... ), ``any``/``count`` fold ``P(x) and ...``."""
        src = self.source(node.source)
        noun = src.noun.copy()
        var = _Var(node.var, self.elem_type(node.source), noun.noun, "")
        self.vars.append(var)
        index = len(self.vars) - 1
        ref = self.ref_of(index)
        try:
            op = "or" if mode == "all" else "and"
            parts = _flatten(node.body, op)
            rest: list[A.Expr] = []
            for part in parts:
                target = part
                if mode == "all":
                    if not (isinstance(part, A.Unary) and part.op == "not"):
                        rest.append(part)
                        continue
                    target = part.operand
                if not self.fold(target, node.var, noun):
                    rest.append(part)
            clause = self.clause(_rebuild(rest, op)) if rest else None
        finally:
            self.vars.pop()
        src = replace(src, noun=noun)
        return src, clause, ref

    def fold(self, node: A.Expr, var: str, noun: Noun) -> bool:
        """Add what ``node`` (a condition on the variable alone) says about the item to ``noun``; False when it
        cannot be said as part of the noun."""

        def is_var(e: A.Expr) -> bool:
            return isinstance(e, A.Name) and e.name == var

        if isinstance(node, A.Binary) and node.op == "and":
            trial = noun.copy()
            if self.fold(node.left, var, trial) and self.fold(node.right, var, trial):
                noun.__dict__.update(trial.__dict__)
                return True
            return False
        if isinstance(node, A.Call) and len(node.args) == 1 and is_var(node.args[0]):
            if node.func == "is_trump":
                noun.pre.append("trump")
                return True
            if node.func == "is_colour":
                noun.pre.insert(0, "colour")
                return True
        if isinstance(node, A.Field) and is_var(node.obj):
            if node.name == "is_trump":
                noun.pre.append("trump")
                return True
            if node.name == "is_special" and self.kind(node.obj) == "card":
                noun.pre.append("special")
                return True
        if isinstance(node, A.Compare):
            left, right, op = node.left, node.right, node.op
            if not isinstance(left, A.Field) and isinstance(right, A.Field):
                left, right, op = right, left, _FLIP.get(op, op)
            if isinstance(left, A.Field) and is_var(left.obj) and op == "==":
                if left.name == "rank" and isinstance(right, A.Int) and noun.noun == "card":
                    noun.noun = str(right.value)
                    return True
                if left.name == "suit" and isinstance(right, A.Name) and self.var(right.name) is None:
                    noun.pre.append(self.value(right))
                    return True
                if left.name == "token" and isinstance(right, A.Str):
                    noun.post.append("with " + token_phrase(right.value))
                    return True
            if op == "!=" and is_var(left) and self.kind(left) == "player" and not _mentions(right, var):
                noun.others.append(self.value(right, player=True))
                return True
        return False

    # ------------------------------------------------------------------------------------------ clauses

    def clause(self, node: A.Expr, neg: bool = False) -> Clause:
        """A condition as a sentence (``neg``: its negation)."""
        if isinstance(node, A.Unary) and node.op == "not":
            return self.clause(node.operand, not neg)
        if isinstance(node, A.Binary) and node.op in ("and", "or"):
            return self.junction(node, neg)
        card = self.card_predicate(node)
        if card is not None:
            return self.card_clause(card[0], card[1], neg)
        if isinstance(node, A.Compare):
            return self.compare(node, neg)
        if isinstance(node, A.Quant) and node.kind in ("all", "any"):
            return self.quantifier(node, neg)
        if isinstance(node, A.Bool):
            return Clause(None, "true" if node.value != neg else "false")
        if isinstance(node, A.Conditional):
            text = (f"{self.clause(node.then).text} if {self.clause(node.cond).text}, "
                    f"otherwise {self.clause(node.other).text}")
            return self.negated(Clause(None, text)) if neg else Clause(None, text)
        c = self.predicate(node)
        return self.negated(c) if neg else c

    def negated(self, c: Clause) -> Clause:
        if c.subject is not None and c.op is None:
            pred = negate_predicate(c.pred)
            if pred is not None:
                return Clause(c.subject, pred)
        return Clause(None, f"it is not true that {c.text}")

    def predicate(self, node: A.Expr) -> Clause:
        """A boolean word (function, field or name) as a clause, its first argument the subject."""
        if isinstance(node, A.Field):
            obj_kind = self.kind(node.obj)
            if node.name == "is_last" and isinstance(node.obj, A.Name) and node.obj.name == "last_trick" \
                    and self.var("last_trick") is None:
                return Clause("the last trick", "has been played")
            if obj_kind == "trick" and node.name in ("is_first", "is_last"):
                return Clause(self.value(node.obj), "is " + ("the first trick" if node.name == "is_first"
                                                            else "the last trick"))
            table = FIELDS.get(obj_kind or "", {})
            word = table.get(node.name)
            phrase = word.phrase if word is not None else _FIELD_PHRASES.get(node.name, "")
            return _subject_clause(phrase, [self.value(node.obj)])
        if isinstance(node, A.Call):
            word = FUNCTIONS.get(node.func)
            if node.func == "played" and len(node.args) == 1:
                return Clause(self.value(node.args[0]), "has been played")
            if word is not None and word.phrase:
                player = [p.type.kind == "player" for p in word.params]
                args = [self.value(a, player=player[i] if i < len(player) else False)
                        for i, a in enumerate(node.args)]
                return _subject_clause(word.phrase, args)
        return Clause(None, self.value(node))

    def junction(self, node: A.Binary, neg: bool) -> Clause:
        op = node.op if not neg else ("or" if node.op == "and" else "and")
        parts: list[tuple[A.Expr, bool]] = [(p, neg) for p in _flatten(node, node.op)]
        # an "X != none" guard before a comparison of X says what the comparison says already
        guards = [i for i, (p, n) in enumerate(parts) if op == "and" and _none_test(p, n) is True]
        guards += [i for i, (p, n) in enumerate(parts) if op == "and" and not n and _is_last_played(p)]
        other_than: set[int] = set()
        dropped: set[int] = set()
        for g in guards:
            x = _none_subject(parts[g][0])
            if x is None and _is_last_played(parts[g][0]):
                x = A.Name("last_trick")
            for i, (p, n) in enumerate(parts):
                if i == g or not isinstance(p, A.Compare) or x is None:
                    continue
                eff = _NEGATE[p.op] if n else p.op
                if eff not in ("==", "!=") or _none_test(p, n) is not None:
                    continue
                if _contains(p.left, x) or _contains(p.right, x):
                    dropped.add(g)
                    if eff == "!=":
                        other_than.add(i)
        # card conditions on one card ("is_colour(t.winning_card) and t.winning_card.rank == 1") read as one
        merged: dict[int, list[int]] = {}
        if op == "and":
            seen: dict[A.Expr, int] = {}
            for i, (p, n) in enumerate(parts):
                found = self.card_predicate(p) if not n else None
                if found is None:
                    continue
                if found[0] in seen:
                    merged[seen[found[0]]].append(i)
                else:
                    seen[found[0]] = i
                    merged[i] = [i]
        clauses: list[Clause] = []
        for i, (p, n) in enumerate(parts):
            if i in dropped:
                continue
            if i in merged:
                noun = Noun("card")
                target: A.Expr | None = None
                for j in merged[i]:
                    found = self.card_predicate(parts[j][0])
                    assert found is not None
                    target = found[0]
                    _merge(noun, found[1])
                assert target is not None
                clauses.append(self.card_clause(target, noun, False))
            elif any(i in group for group in merged.values()):
                continue
            elif i in other_than and isinstance(p, A.Compare):
                clauses.append(self.compare(p, n, other_than=True))
            else:
                clauses.append(self.clause(p, n))
        clauses = _won_with(clauses) if op == "and" else clauses
        if len(clauses) == 1:
            return clauses[0]
        subjects = {c.subject for c in clauses}
        if len(subjects) == 1 and None not in subjects and all(c.op is None for c in clauses):
            preds = [(("either " if c.vp_op == "or" else "both ") + c.pred) if c.vp_op not in (None, op) else c.pred
                     for c in clauses]
            verb = preds[0].split(" ", 1)[0]
            if verb not in _AUXILIARIES and all(p.startswith(verb + " ") for p in preds):
                # "wins the first trick and the last trick"
                return Clause(clauses[0].subject, f"{verb} " + join([p[len(verb) + 1:] for p in preds], op))
            text = join(preds, op)
            if any(c.vp_op not in (None, op) for c in clauses):
                text = ", ".join(preds[:-1]) + f", {op} " + preds[-1]
            return Clause(clauses[0].subject, text, vp_op=op, parts=tuple(preds))
        if op == "and" and len({c.pred for c in clauses}) == 1 and None not in subjects \
                and all(c.op is None and c.vp_op is None for c in clauses) \
                and not any(s.startswith(("every ", "no ", "not ", "a ", "an ")) for s in subjects if s):
            # "the first trick and the last trick are won by the dealer" ("or" would read as "neither" once negated)
            pred = clauses[0].pred
            return Clause(join([c.text.removesuffix(" " + pred) for c in clauses], op),
                          plural_predicate(pred, nouns=False))
        return Clause(None, join([_compound(c, op) for c in clauses], op), op)

    def quantifier(self, node: A.Quant, neg: bool) -> Clause:
        kind = node.kind
        src, rest, ref = self.quantified(node, kind)
        noun_text = src.noun.text()
        if rest is None:
            # The whole body folded into the noun. any: such an item exists; all (every body part was a
            # "not P(x)"): no such item exists.
            exists = (kind == "any") != neg
            if src.holder is not None:
                items = src.noun.text(with_post=False)
                some = with_article(items) if exists else f"no {items}"
                return Clause(src.holder, f"{src.verb} {some}{src.suffix}")
            return Clause(None, f"there is {with_article(noun_text) if exists else 'no ' + noun_text}")
        index = len(self.vars)
        that = "that " + src.noun.noun
        if any(v.noun == src.noun.noun for v in self.vars):
            that = "that other " + src.noun.noun
        if rest.subject == ref and rest.op is None:
            pred = self.resolve(rest.pred, index, that)
            if kind == "any":
                subject = f"no {noun_text}" if neg else with_article(noun_text)
                return Clause(subject, pred)
            if neg:
                return Clause(f"not every {noun_text}", pred)
            return Clause(f"every {noun_text}", pred)
        body = self.resolve(rest.text, index, that)
        if kind == "any":
            if neg:
                return Clause(None, f"there is no {noun_text} for which {body}")
            return Clause(None, f"for some {noun_text}, {body}")
        if neg:
            return Clause(None, f"not for every {noun_text}, {body}")
        return Clause(None, f"for every {noun_text}, {body}")

    # ------------------------------------------------------------------------------------------ cards

    def card_predicate(self, node: A.Expr) -> tuple[A.Expr, Noun] | None:
        """``is_trump(E)``, ``E.rank == 9``, ``E.suit == pink``, ...: (E, what E is) for a card expression E
        that is not a bare quantifier variable (those fold into the quantifier's noun)."""
        target: A.Expr | None = None
        if isinstance(node, A.Call) and node.func in ("is_trump", "is_colour") and len(node.args) == 1:
            target = node.args[0]
        elif isinstance(node, A.Field) and node.name in ("is_trump", "is_special"):
            target = node.obj
        elif isinstance(node, A.Compare) and node.op == "==":
            for side in (node.left, node.right):
                if isinstance(side, A.Field) and side.name in ("rank", "suit"):
                    target = side.obj
        if target is None or self.kind(target) != "card":
            return None
        noun = Noun("card")
        probe = "\x01"
        self.vars.append(_Var(probe, CARD, "card", ""))
        try:
            ok = self.fold(_substitute(node, target, A.Name(probe)), probe, noun)
        finally:
            self.vars.pop()
        return (target, noun) if ok else None

    def card_clause(self, target: A.Expr, noun: Noun, neg: bool) -> Clause:
        what = with_article(noun.text())
        if isinstance(target, A.Field) and target.name == "winning_card":
            if neg:
                return Clause(self.value(target.obj), f"is not won by {what}")
            return Clause(self.value(target.obj), f"is won by {what}", tag="card")
        return Clause(self.value(target), f"is {'not ' if neg else ''}{what}")

    # ------------------------------------------------------------------------------------------ comparisons

    def compare(self, node: A.Compare, neg: bool, other_than: bool = False) -> Clause:
        op = _NEGATE[node.op] if neg else node.op
        left, right = node.left, node.right
        if isinstance(left, A.NoneLit) and not isinstance(right, A.NoneLit):
            left, right = right, left
        if isinstance(right, A.NoneLit) and op in ("==", "!="):
            return self.none_test(left, known=op == "!=")
        if op in ("in", "not in"):
            return self.membership(left, right, op == "not in")
        counted = self.quantity(left, op, right)
        if counted is not None:
            return counted
        flipped = self.quantity(right, _FLIP[op], left)
        if flipped is not None:
            return flipped
        for a, b, o in ((left, right, op), (right, left, _FLIP[op])):
            special = self.special_compare(a, o, b, other_than)
            if special is not None:
                return special
        player = self.kind(left) == "player" or self.kind(right) == "player"
        lhs = self.value(left, player=player)
        rhs = self.value(right, player=player)
        lhs = f"({lhs})" if isinstance(left, A.Conditional) else lhs
        rhs = f"({rhs})" if isinstance(right, A.Conditional) else rhs
        if op in ("==", "!=") and other_than:
            return Clause(lhs, f"is {'someone' if player else 'something'} other than {rhs}")
        if isinstance(left, A.Field) and left.name == "rank" and isinstance(right, A.Field) and right.name == "rank":
            lhs, rhs = self.value(left.obj), self.value(right.obj)
            rel = {"<": "is lower than", ">": "is higher than", "<=": "is not higher than",
                   ">=": "is not lower than", "==": "has the same rank as", "!=": "does not have the same rank as"}
            return Clause(lhs, f"{rel[op]} {rhs}")
        rel = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
               ">=": "is at least"}
        return Clause(lhs, f"{rel[op]} {rhs}")

    def special_compare(self, a: A.Expr, op: str, b: A.Expr, other_than: bool) -> Clause | None:
        """Comparisons with a usual meaning: who won a trick or a card, a trick's number, a task's token."""
        if op not in ("==", "!=", "<", "<=", ">", ">="):
            return None
        if isinstance(a, A.Field) and a.name == "winner" and self.kind(a.obj) == "trick" and op in ("==", "!="):
            return self.won_by(self.value(a.obj), b, op, other_than)
        if isinstance(a, A.Call) and a.func == "won_by" and len(a.args) == 1 and op in ("==", "!="):
            return self.won_by(self.value(a.args[0]), b, op, other_than)
        if isinstance(a, A.Field) and a.name == "leader" and self.kind(a.obj) == "trick" and op in ("==", "!="):
            who = self.value(b, player=True)
            pred = f"is led by {'someone other than ' if op == '!=' and other_than else ''}{who}"
            return Clause(self.value(a.obj), pred if op == "==" or other_than else f"is not led by {who}")
        if isinstance(a, A.Field) and a.name == "number" and self.kind(a.obj) == "trick":
            where = self.trick_position(op, b)
            return Clause(self.value(a.obj), where) if where is not None else None
        if isinstance(a, A.Field) and a.name == "trick" and self.kind(a.obj) == "task":
            where = self.trick_position(op, b)
            if where is None:
                return None
            where = re.sub(r"^is (not )?(one of )?", lambda m: "is " + (m.group(1) or "") + "completed in "
                           + ("one of " if m.group(2) else ""), where)
            where = re.sub(r"^comes ", "is completed ", where)
            return Clause(self.value(a.obj), where)
        if isinstance(a, A.Field) and a.name == "token" and self.kind(a.obj) == "task" and isinstance(b, A.Str) \
                and op in ("==", "!="):
            has = "has" if op == "==" else "does not have"
            return Clause(self.value(a.obj), f"{has} {token_phrase(b.value)}")
        if isinstance(a, A.Field) and a.name == "suit" and isinstance(b, A.Name) and op in ("==", "!=") \
                and self.kind(a.obj) == "card":
            what = with_article(f"{self.value(b)} card")
            return Clause(self.value(a.obj), f"is {'' if op == '==' else 'not '}{what}")
        return None

    def won_by(self, thing: str, who: A.Expr, op: str, other_than: bool) -> Clause:
        player = self.value(who, player=True)
        if (player in ("them", "you") or player.startswith("You")) and _MARK not in thing:
            # "they win the first trick" (a quantifier's item stays the subject: "every red card is won by them")
            return Clause(player, f"{'wins' if op == '==' else 'does not win'} {thing}")
        if op == "==":
            return Clause(thing, f"is won by {player}", tag="winner")
        if other_than:
            return Clause(thing, f"is won by someone other than {player}")
        return Clause(thing, f"is not won by {player}")

    def trick_position(self, op: str, b: A.Expr) -> str | None:
        """Where a trick stands, as a verb phrase: ``is trick 3``, ``is one of the first four tricks``."""
        if isinstance(b, A.Name) and b.name == "total_tricks" and self.var(b.name) is None:
            return {"==": "is the last trick", "!=": "is not the last trick", "<": "is not the last trick",
                    ">=": "is the last trick", "<=": "is any trick", ">": "comes after the last trick"}[op]
        if isinstance(b, A.Field) and b.name == "number" and self.kind(b.obj) == "trick":
            other = self.value(b.obj)
            return {"==": f"is {other}", "!=": f"is not {other}", "<": f"comes before {other}",
                    ">": f"comes after {other}", "<=": f"is {other} or an earlier trick",
                    ">=": f"is {other} or a later trick"}[op]
        if isinstance(b, A.Int):
            n = b.value
            if op == "<=" or (op == "<" and n > 1):
                first = n if op == "<=" else n - 1
                return "is the first trick" if first == 1 else f"is one of the first {number_word(first)} tricks"
            return {"==": f"is trick {n}", "!=": f"is not trick {n}", "<": f"comes before trick {n}",
                    ">": f"comes after trick {n}", ">=": f"is trick {n} or a later trick"}[op]
        return None

    def none_test(self, x: A.Expr, known: bool) -> Clause:
        """``X == none`` / ``X != none`` by what X is: a trick not played yet, a card nobody has won yet."""
        if isinstance(x, A.Call) and x.func in ("won_by", "trick_of") and len(x.args) == 1:
            card = self.value(x.args[0])
            return Clause(card, "has been won" if known else "has not been won yet")
        kind = self.kind(x)
        if kind == "trick":
            if isinstance(x, A.Name) and x.name == "trick" and self.var("trick") is None:
                return Clause(None, "a trick has been completed" if known else "no trick has been completed yet")
            return Clause(self.value(x), "has been played" if known else "has not been played yet")
        if isinstance(x, A.Field) and x.name == "owner" and self.kind(x.obj) == "task":
            return Clause(self.value(x.obj), "has been taken" if known else "has not been taken yet")
        if isinstance(x, A.Name) and x.name == "mode" and self.var(x.name) is None:
            return Clause("the round", "has a mode" if known else "has no mode")
        if isinstance(x, A.Name) and x.name in ("dealer", "commander") and self.var(x.name) is None:
            return Clause(None, f"there is {'a' if known else 'no'} {x.name}")
        return Clause(self.value(x), "is known" if known else "is not known yet")

    def membership(self, item: A.Expr, items: A.Expr, negative: bool) -> Clause:
        player = self.kind(item) == "player"
        thing = self.value(item, player=player)
        if isinstance(items, A.ListLit):
            options = join([self.value(i, player=player) for i in items.items], "or")
            return Clause(thing, f"is {'not ' if negative else ''}{options}")
        if isinstance(items, A.Call) and items.func == "hand" and len(items.args) == 1:
            who = self.value(items.args[0], player=True)
            return Clause(thing, f"is {'not ' if negative else ''}in the hand of {who}")
        if isinstance(items, A.Call) and items.func == "cards_won" and len(items.args) == 1:
            who = self.value(items.args[0], player=True)
            return Clause(thing, f"is {'not ' if negative else ''}won by {who}")
        return Clause(thing, f"is {'not ' if negative else ''}among {self.value(items)}")

    # ------------------------------------------------------------------------------------------ counts

    def counted(self, node: A.Expr) -> tuple[_Source, Clause | None, str] | None:
        """A count as (what is counted, the condition on each item, the variable's mark), or None."""
        if isinstance(node, A.Call) and node.func == "tricks_won" and len(node.args) == 1:
            who = self.value(node.args[0], player=True)
            return _Source(Noun("trick", post=[f"won by {who}"]), who, "has won"), None, ""
        if isinstance(node, A.Call) and node.func == "count" and len(node.args) == 1:
            return self.source(node.args[0]), None, ""
        if isinstance(node, A.Quant) and node.kind == "count":
            return self.quantified(node, "count")
        if isinstance(node, A.Name) and self.var(node.name) is None and node.name not in self.names:
            if node.name == "tricks_left":
                return _Source(Noun("trick")), Clause("\x02", "is left to play"), "\x02"
            if node.name == "tricks_played":
                return _Source(Noun("trick")), Clause("\x02", "has been played"), "\x02"
        return None

    def per(self, node: A.Expr) -> str | None:
        """``trick won by the player`` for ``tricks_won(p)``: what one unit of a count is, or None."""
        found = self.counted(node)
        if found is None:
            return None
        src, rest, ref = found
        noun = src.noun.copy()
        if noun.noun.isdigit():  # "90 per card of rank 5", not "90 per 5"
            noun.post.insert(0, f"of rank {noun.noun}")
            noun.noun = "card"
        one = noun.text()
        if rest is None:
            return one
        if rest.subject == ref:
            return f"{one} that {self.resolve_mark(rest.pred, ref, 'it')}"
        return None

    def resolve_mark(self, text: str, ref: str, words_: str) -> str:
        return text.replace(ref, words_)

    def quantity(self, node: A.Expr, op: str, bound: A.Expr) -> Clause | None:
        """A count compared with a number: ``has won no trick``, ``at least two trump cards``."""
        if op not in ("==", "!=", "<", "<=", ">", ">="):
            return None
        found = self.counted(node)
        if found is None:
            return None
        src, rest, ref = found
        every = isinstance(bound, A.Name) and bound.name == "total_tricks" and src.noun.noun == "trick" \
            and self.var(bound.name) is None and op in ("==", "!=")
        if not isinstance(bound, A.Int) and not every:
            return None
        if every:
            q, plural, negative = "every", False, op == "!="
        else:
            assert isinstance(bound, A.Int)
            negative = op == "!="
            q, plural = _quantifier_words(op if not negative else "==", bound.value)
        if isinstance(node, A.Name) and node.name == "tricks_left" and q == "no":
            return Clause("the hands", "have not run out" if negative else "have run out")
        if rest is None and src.holder is not None:
            items = src.noun.text(plural=plural, with_post=False)
            verb = src.verb
            pred = f"{verb} {q} {items}{src.suffix}" if q not in ("a", "an") \
                else f"{verb} {with_article(items)}{src.suffix}"
            clause = Clause(src.holder, pred)
            return self.negated(clause) if negative else clause
        items = src.noun.text(plural=plural)
        subject = with_article(items) if q in ("a", "an") else f"{q} {items}"
        if rest is None:
            clause = Clause(None, f"there {'are' if plural else 'is'} {subject}")
            return Clause(None, f"it is not true that {clause.text}") if negative else clause
        index = int(ref.strip(_MARK)) if ref.startswith(_MARK) else -1
        that = "that " + src.noun.noun
        if rest.subject == ref and rest.op is None:
            pred = self.resolve(rest.pred, index, that) if index >= 0 else rest.pred
            clause = Clause(subject, plural_predicate(pred) if plural else pred)
        else:
            body = self.resolve(rest.text, index, that) if index >= 0 else rest.text
            clause = Clause(None, f"for {subject}, {body}")
        if negative:
            return Clause(None, f"it is not true that {clause.text}")
        return clause


def _won_with(clauses: list[Clause]) -> list[Clause]:
    """"X is won by P" and "X is won by a trump card" read "X is won by P with a trump card"."""
    out = list(clauses)
    for i, c in enumerate(out):
        if c.tag != "winner":
            continue
        for j, d in enumerate(out):
            if d.tag == "card" and d.subject == c.subject:
                out[i] = Clause(c.subject, f"{c.pred} with {d.pred.removeprefix('is won by ')}")
                del out[j]
                return _won_with(out)
    return out


def _is_last_played(node: A.Expr) -> bool:
    """``last_trick.is_last``: the last trick has been played (a guard, as ``last_trick != none``)."""
    return isinstance(node, A.Field) and node.name == "is_last" and isinstance(node.obj, A.Name) \
        and node.obj.name == "last_trick"


def _quantifier_words(op: str, n: int) -> tuple[str, bool]:
    """How many, in words, for ``count OP n``: (words, whether the noun is plural)."""
    w = number_word(n)
    if op == ">":
        if n <= 0:
            return ("a", False)
        return (f"more than {w}", n != 1)
    if op == ">=":
        if n <= 0:
            return ("any number of", True)
        if n == 1:
            return ("a", False)
        return (f"at least {w}", True)
    if op == "==":
        if n == 0:
            return ("no", False)
        return (f"exactly {w}", n != 1)
    if op == "<":
        if n <= 1:
            return ("no", False)
        return (f"fewer than {w}", True)
    # <=
    if n <= 0:
        return ("no", False)
    return (f"at most {w}", n != 1)


def _subject_clause(phrase: str, args: Sequence[str]) -> Clause:
    """A boolean word's phrase with its arguments: the first argument as the subject when it leads."""
    if phrase.startswith("{0} ") and args:
        return Clause(args[0], phrase[4:].format(*args))
    return Clause(None, phrase.format(*args) if phrase else ", ".join(args))


def _merge(into: Noun, other: Noun) -> None:
    into.pre += [p for p in other.pre if p not in into.pre]
    if other.noun != "card":
        into.noun = other.noun
    into.post += other.post
    into.others += other.others
    if "colour" in into.pre:  # "colour pink card" reads "pink card"; "colour" first otherwise
        into.pre.remove("colour")
        into.pre.insert(0, "colour")


def _flatten(node: A.Expr, op: str) -> list[A.Expr]:
    if isinstance(node, A.Binary) and node.op == op:
        return _flatten(node.left, op) + _flatten(node.right, op)
    return [node]


def _rebuild(parts: Sequence[A.Expr], op: str) -> A.Expr:
    out = parts[0]
    for p in parts[1:]:
        out = A.Binary(op, out, p)
    return out


def _none_test(node: A.Expr, neg: bool) -> bool | None:
    """True for a test "X is not none", False for "X is none", None for anything else."""
    if not isinstance(node, A.Compare) or node.op not in ("==", "!="):
        return None
    if not (isinstance(node.right, A.NoneLit) or isinstance(node.left, A.NoneLit)):
        return None
    return (node.op == "!=") != neg


def _none_subject(node: A.Expr) -> A.Expr | None:
    if isinstance(node, A.Compare):
        return node.left if isinstance(node.right, A.NoneLit) else node.right
    return None


def _contains(tree: A.Expr, part: A.Expr) -> bool:
    return any(n == part for n in A.walk(tree))


def _mentions(tree: A.Expr, name: str) -> bool:
    return any(isinstance(n, A.Name) and n.name == name for n in A.walk(tree))


def _substitute(tree: A.Expr, old: A.Expr, new: A.Expr) -> A.Expr:
    """``tree`` with every sub-tree equal to ``old`` replaced by ``new``."""
    if tree == old:
        return new
    if isinstance(tree, A.Binary | A.Compare):
        return replace(tree, left=_substitute(tree.left, old, new), right=_substitute(tree.right, old, new))
    if isinstance(tree, A.Unary):
        return replace(tree, operand=_substitute(tree.operand, old, new))
    if isinstance(tree, A.Call):
        return replace(tree, args=tuple(_substitute(a, old, new) for a in tree.args))
    if isinstance(tree, A.Field):
        return replace(tree, obj=_substitute(tree.obj, old, new))
    return tree
