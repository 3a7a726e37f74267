"""A depth-bounded copy of the real grammar for ``hypothesis.extra.lark.from_lark``.

The condition grammar is "supercritical" for random generation: a random expansion nests brackets inside
brackets faster than it ends, so plain ``from_lark`` keeps overrunning its buffer and crawls. This module
copies every expression rule once per nesting level (``sum_0``, ``sum_1`` ...): the sub-expressions
inside calls, lists, quantifiers and parentheses of level *d* use level *d + 1*, and the last level keeps
only the alternatives without sub-expressions (and no binary operator but comparisons). Operator chains are cut to two operands per level
(``a + b``, not ``a + b + c``; longer chains still come through parentheses). Every generated text is in
the real language; the real parser reads them.
"""

from __future__ import annotations

import re

from lark import Lark

from crewkit.dsl.parser import grammar_text

_EXPR_RULES = [
    "ternary",
    "disj",
    "conj",
    "negation",
    "comparison",
    "sum",
    "product",
    "unary",
    "postfix",
    "atom",
    "args",
]
_RULE_HEAD = re.compile(r"^(\??)([a-z_]+):", re.M)


_CHAINS = [
    ("ELSE ternary", "ELSE disj"),
    ("disj OR conj", "conj OR conj"),
    ("conj AND negation", "negation AND negation"),
    ("sum _add_op product", "product _add_op product"),
    ("product _mul_op unary", "unary _mul_op unary"),
    ("postfix DOT NAME", "atom DOT NAME"),
    # Quantifier heads: the real grammar reads `NAME(ternary: ternary)` and checks the head afterwards;
    # generate only well-formed heads so that most samples parse.
    ("NAME LPAR ternary COLON ternary RPAR", "QUANT LPAR NAME IN postfix COLON ternary RPAR"),
]


_LEAN = ["ternary", "disj", "conj", "sum", "product"]


def _blocks(text: str) -> tuple[dict[str, str], str]:
    """Rule blocks by name (text from the head to the next blank line) and everything else."""
    blocks: dict[str, str] = {}
    rest: list[str] = []
    for chunk in re.split(r"\n\s*\n", text):
        lines = [ln for ln in chunk.splitlines() if not ln.lstrip().startswith("//")]
        body = "\n".join(lines)
        m = _RULE_HEAD.match(body.lstrip())
        if m:
            blocks[m.group(2)] = body.strip()
        else:
            rest.append(body)
    return blocks, "\n\n".join(rest)


def stratified_grammar(levels: int) -> str:
    blocks, rest = _blocks(grammar_text())
    # `args` is declared without a leading blank-line separation issue: make sure we found every rule.
    missing = [r for r in _EXPR_RULES if r not in blocks]
    assert not missing, missing
    out = ["start: ternary_0"]
    for name, block in blocks.items():
        if name not in _EXPR_RULES and name != "start":
            out.append(block)
    for d in range(levels + 1):
        for name in _EXPR_RULES:
            block = blocks[name]
            for old, new in _CHAINS:
                block = block.replace(old, new)
            nested = name in ("atom", "args")
            if name == "atom" and d == levels:
                head, *alts = re.split(r"\n\s*\|", block)
                keep = [a for a in [head.split(":", 1)[1], *alts] if not re.search(r"\b(ternary|args)\b", a)]
                block = "?atom:" + "\n     |".join(keep)
            if name == "args" and d == levels:
                continue
            if name in _LEAN and d == levels:
                # The last level keeps comparisons (for `x in LIST` heads) but no other binary operator.
                block = block.split("\n")[0].split(":")[0] + ": " + block.split("|")[-1].strip()

            def rename(m: re.Match[str], d: int = d, nested: bool = nested) -> str:
                word = m.group(0)
                if nested and word in ("ternary", "postfix"):
                    return f"{word}_{d + 1}"
                return f"{word}_{d}"

            head_re = re.compile(r"\b(" + "|".join(_EXPR_RULES) + r")\b")
            out.append(head_re.sub(rename, block))
    out.append('QUANT: "all" | "any" | "count" | "sum" | "max" | "min"')
    return "\n\n".join(out) + "\n\n" + rest


def generation_parser(levels: int = 1) -> Lark:
    return Lark(stratified_grammar(levels), parser="earley", lexer="dynamic", keep_all_tokens=True)
