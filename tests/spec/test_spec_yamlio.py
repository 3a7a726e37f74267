"""YAML loading: positions, safety bounds, YAML 1.2 scalars, clean issues instead of tracebacks."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from crewkit.spec.errors import SpecError, SpecIssue, issue_to_json, render_issue, sort_issues
from crewkit.spec.yamlio import MAX_BYTES, load_json_file, load_json_text, load_yaml_file, load_yaml_text
from tests.speed import scaled


def issues_of(text: str, name: str = "t.yaml") -> list[SpecIssue]:
    with pytest.raises(SpecError) as info:
        load_yaml_text(text, name)
    return info.value.issues


def test_scalars_follow_yaml_1_2() -> None:
    doc = load_yaml_text(
        "a: no\nb: yes\nc: on\nd: off\ne: true\nf: False\ng: 010\nh: 0o17\ni: 2001-12-14\nj: ~\nk: 1.5\nl: 12:30\n",
        "t.yaml",
    )
    assert doc.data == {
        "a": "no",
        "b": "yes",
        "c": "on",
        "d": "off",
        "e": True,
        "f": False,
        "g": 10,
        "h": 15,
        "i": "2001-12-14",
        "j": None,
        "k": 1.5,
        "l": "12:30",
    }


def test_keys_are_text() -> None:
    doc = load_yaml_text('hands:\n  3: [14, 13, 13]\n  "4": 10\n', "t.yaml")
    assert doc.data == {"hands": {"3": [14, 13, 13], "4": 10}}


def test_positions_of_values_and_keys() -> None:
    text = 'name: crew\ndeal:\n  hands:\n    "4": 10\n    "3": [14, 13, 13]\n'
    doc = load_yaml_text(text, "t.yaml")
    assert doc.position_of(("deal", "hands", "4")) == (4, 10)
    assert doc.position_of(("deal", "hands", "4"), key=True) == (4, 5)
    assert doc.position_of(("deal", "hands", "3", 1)) == (5, 15)
    # A missing path falls back to the nearest existing parent.
    assert doc.position_of(("deal", "hands", "5")) == doc.position_of(("deal", "hands"))
    assert doc.position_of(("nothing", "here")) == (1, 1)


def test_scalar_info_records_quote_style() -> None:
    text = "a: plain\nb: 'single'\nc: \"double\"\nd: |\n  literal\ne: >\n  folded\n"
    doc = load_yaml_text(text, "t.yaml")
    assert doc.scalar_info(("a",)) == (1, 4, None)
    assert doc.scalar_info(("b",)) == (2, 4, "'")
    assert doc.scalar_info(("c",)) == (3, 4, '"')
    assert doc.scalar_info(("d",))[2] == "|"
    assert doc.scalar_info(("e",))[2] == ">"


def test_text_position_maps_offsets_into_the_file() -> None:
    text = 'a: "tricks_won(sick) > 0"\nb: tricks_won(x)\nc: |\n  first line\n  second(line)\nd: >-\n  one two\n  three four\n'
    doc = load_yaml_text(text, "t.yaml")
    assert doc.text_position(("a",), 0) == (1, 5)
    assert doc.text_position(("a",), 11) == (1, 16)
    assert doc.text_position(("b",), 11) == (2, 15)
    assert doc.data["c"][11:17] == "second"
    assert doc.text_position(("c",), 11) == (5, 3)
    assert doc.data["d"] == "one two three four"
    assert doc.text_position(("d",), 8) == (8, 3)


def test_duplicate_key_points_at_second_key() -> None:
    (issue,) = issues_of("name: a\nplayers: [3]\nname: b\n")
    assert (issue.line, issue.column) == (3, 1)
    assert "duplicate key 'name' (first defined at line 1)" in issue.message


def test_duplicate_nested_key() -> None:
    (issue,) = issues_of("deal:\n  hands: {}\n  set_aside: 0\n  hands: {}\n")
    assert (issue.line, issue.column, issue.path) == (4, 3, ("deal", "hands"))


def test_alias_bomb_refused_quickly() -> None:
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    prev = "a"
    for name in "bcdefghi":
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
        prev = name
    bound = scaled(1.0)  # the machine's speed now
    start = time.perf_counter()
    issues = issues_of("\n".join(lines) + "\n")
    assert time.perf_counter() - start < bound
    assert "too many aliases" in issues[0].message


def test_small_aliases_are_fine() -> None:
    doc = load_yaml_text("base: &b {x: 1}\nother: *b\n", "t.yaml")
    assert doc.data == {"base": {"x": 1}, "other": {"x": 1}}
    assert doc.data["base"] is not doc.data["other"]


def test_recursive_alias_refused() -> None:
    assert "recursive alias" in issues_of("a: &x [*x]\n")[0].message


@pytest.mark.parametrize("text", ["a: " + "[" * 2000 + "]" * 2000, "a: " + "{b: " * 2000 + "c" + "}" * 2000])
def test_deep_nesting_gives_a_clean_issue(text: str) -> None:
    bound = scaled(1.0)  # the machine's speed now
    start = time.perf_counter()
    (issue,) = issues_of(text)
    assert time.perf_counter() - start < bound
    assert "nested too deeply" in issue.message
    assert issue.line == 1


def test_deep_block_nesting_gives_a_clean_issue() -> None:
    text = "a:\n" + "".join("  " * i + "- \n" for i in range(1, 300)) + "  " * 300 + "- x\n"
    assert "nested too deeply" in issues_of(text)[0].message


def test_size_bound(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * (MAX_BYTES + 10) + "\n", encoding="utf-8")
    bound = scaled(1.0)  # the machine's speed now
    start = time.perf_counter()
    with pytest.raises(SpecError) as info:
        load_yaml_file(big)
    assert time.perf_counter() - start < bound
    assert "files over 1 MiB are refused" in info.value.issues[0].message
    assert "files over 1 MiB" in issues_of("a: " + "x" * (MAX_BYTES + 1))[0].message


def test_not_utf8(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"name: crew\ntitle: caf\xe9\n")
    with pytest.raises(SpecError) as info:
        load_yaml_file(bad)
    (issue,) = info.value.issues
    assert "not UTF-8" in issue.message
    assert (issue.line, issue.column) == (2, 11)


def test_syntax_error_position_and_problem_text() -> None:
    (issue,) = issues_of("name: crew\ncommander: {holder_of: rocket 4\nfirst_leader: commander\n")
    assert "expected ',' or '}'" in issue.message
    assert (issue.line, issue.column) == (3, 13)


def test_tab_indentation() -> None:
    (issue,) = issues_of("play:\n\tmust_follow: true\n")
    assert (issue.line, issue.column) == (2, 1)
    assert "tabs" in issue.message


@pytest.mark.parametrize("text", ["", "# just a comment\n", "---\n", "~\n"])
def test_empty_file(text: str) -> None:
    (issue,) = issues_of(text)
    assert issue.message == "the file is empty"


@pytest.mark.parametrize("text,found", [("- a\n- b\n", "a list"), ("hello\n", "a single value")])
def test_top_level_must_be_a_mapping(text: str, found: str) -> None:
    (issue,) = issues_of(text)
    assert "top level must be a mapping" in issue.message and found in issue.message


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("a: !!python/object/apply:os.system [ls]\n", "unsupported tag"),
        ("a: !!binary aGVsbG8=\n", "unsupported tag"),
        ("a: !custom x\n", "unsupported tag"),
        ("? [1, 2]\n: x\n", "a mapping key must be a name"),
        ("a: {x: 1}\nb:\n  <<: *c\n", "found undefined alias"),
        ("a: 1\n---\nb: 2\n", "expected a single document"),
        ("a: 'x\x07'\n", "not allowed in YAML text"),
    ],
)
def test_unsafe_or_odd_yaml_is_refused(text: str, fragment: str) -> None:
    assert fragment in issues_of(text)[0].message


def test_render_issue_strictyaml_style() -> None:
    issue = SpecIssue(
        "rulesets/bad.yaml", 12, 10, ("deal", "hands", "4"), "expected an integer, found string 'ten'"
    )
    lines = [""] * 11 + ['    "4": ten']
    assert render_issue(issue, lines) == (
        "rulesets/bad.yaml:12:10: error: at deal.hands.4: expected an integer, found string 'ten'\n"
        '   12 |     "4": ten\n'
        "      |          ^"
    )
    assert render_issue(issue, None).count("\n") == 0


def test_render_long_line_keeps_caret_under_column() -> None:
    line = "x" * 300 + "BAD" + "y" * 300
    issue = SpecIssue("f.yaml", 1, 301, (), "bad")
    out = render_issue(issue, [line]).splitlines()
    caret = out[2].index("^")
    assert out[1][caret : caret + 3] == "BAD"


def test_issue_to_json_and_sorting() -> None:
    a = SpecIssue("b.yaml", 1, 1, (), "x")
    b = SpecIssue("a.yaml", 9, 2, ("deal", "hands", 0), "y", expected="an integer", found="string 'ten'")
    c = SpecIssue("a.yaml", 3, 7, (), "z")
    assert sort_issues([a, b, c]) == [c, b, a]
    assert issue_to_json(b) == {
        "file": "a.yaml",
        "line": 9,
        "column": 2,
        "path": "deal.hands.0",
        "message": "y",
        "expected": "an integer",
        "found": "string 'ten'",
        "severity": "error",
    }
    json.dumps(issue_to_json(b))


def test_spec_error_carries_sorted_issues() -> None:
    err = SpecError([SpecIssue("f", 5, 1, (), "late"), SpecIssue("f", 2, 1, (), "early")])
    assert [i.message for i in err.issues] == ["early", "late"]
    assert "f:2:1" in str(err)


def test_json_positions(tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    record.write_text('{\n\t"format": "crewkit-record/1",\n  "players": 4,\n  "actions": [{"seat": 0}]\n}\n')
    doc = load_json_file(record)
    assert doc.data["players"] == 4
    assert doc.position_of(("players",)) == (3, 14)
    assert doc.position_of(("actions", 0, "seat")) == (4, 24)
    assert doc.position_of(("format",), key=True) == (2, 2)


def test_json_errors() -> None:
    with pytest.raises(SpecError) as info:
        load_json_text('{\n  "a": 1,\n  "b": \n}\n', "r.json")
    (issue,) = info.value.issues
    assert issue.line == 4 and "invalid JSON" in issue.message
    with pytest.raises(SpecError) as info:
        load_json_text('{"a": 1, "a": 2}', "r.json")
    assert "duplicate key 'a'" in info.value.issues[0].message
    with pytest.raises(SpecError) as info:
        load_json_text("[1, 2]", "r.json")
    assert "top level must be a JSON object" in info.value.issues[0].message
    with pytest.raises(SpecError) as info:
        load_json_text("[" * 5000 + "]" * 5000, "r.json")
    assert "nested too deeply" in info.value.issues[0].message
