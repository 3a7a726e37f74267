"""Conditions and score formulas in English (issue 17): every word has a phrase, every bundled text reads."""

from __future__ import annotations

import re

import pytest
import yaml

from crewkit.dsl import parse
from crewkit.dsl.vocabulary import FIELDS, FUNCTIONS, NAMES, all_examples
from crewkit.dsl.words import with_roles, words
from crewkit.spec.bundled import bundled_missions, bundled_rulesets
from crewkit.spec.dslsites import mission_roles, sites_in

# What the condition language looks like; none of it may be left in the English.
CODE = re.compile(r"==|!=|<=|>=|//|\b[a-z]+_[a-z_]+\b|\w\(|\.\w|\[|\]|\{|\}|\*")


def test_every_word_has_a_phrase() -> None:
    words_ = list(NAMES.values()) + list(FUNCTIONS.values()) + [w for f in FIELDS.values() for w in f.values()]
    missing = [w.name for w in words_ if not w.phrase]
    assert not missing
    for w in words_:
        n = len(w.params) if w.kind == "function" else 1 if w.kind == "field" else 0
        assert all(f"{{{i}}}" in w.phrase for i in range(n)), w.name


@pytest.mark.parametrize(("word", "example"), all_examples())
def test_vocabulary_examples_read_as_english(word: str, example: str) -> None:
    text = words(example, with_roles(unbound=("sick",)))
    assert not CODE.search(text), (word, text)


def _bundled_texts() -> list[tuple[str, str, list[str]]]:
    out = []
    for path in bundled_missions():
        data = yaml.safe_load(path.read_text())
        if isinstance(data, dict):
            out += [(path.name, text, mission_roles(data)) for s, _, text in sites_in(data, "mission")
                    if not s.template]
    for path in bundled_rulesets():
        data = yaml.safe_load(path.read_text())
        out += [(path.name, text, []) for s, _, text in sites_in(data, "ruleset") if not s.template]
    return out


def test_every_bundled_condition_and_score_reads_as_english() -> None:
    texts = _bundled_texts()
    assert len(texts) > 40
    for name, text, roles in texts:
        english = words(text, with_roles({"p": "the player"}, tuple(roles)))
        assert not CODE.search(english), (name, text, english)
        for role in roles:
            if re.search(rf"\b{role}\b", text):
                assert f"the player chosen as {role}" in english


def test_sentences() -> None:
    assert words("tricks_won(sick) > 0", with_roles(unbound=("sick",))) == (
        "the number of tricks won by the player chosen as sick is more than 0")
    assert words("tricks_won(sick) > 0", {"sick": "Bot 2"}) == "the number of tricks won by Bot 2 is more than 0"
    assert words("20 * tricks_won(p) - (180 if won_by(blue 7) == p else 0)", {"p": "you"}) == (
        "20 times the number of tricks won by you minus (180 if the player who won blue 7 is you, otherwise 0)")
    assert words("not a or b", {"a": "x", "b": "y"}) == "(it is not true that x) or y"
    # a quantifier's variable is never replaced by a name given for a free variable
    assert words("all(p in players: tricks_won(p) > 0)", {"p": "you"}).endswith("tricks won by p is more than 0")
    assert words(parse("last_trick != none")) == "the last trick is known"
