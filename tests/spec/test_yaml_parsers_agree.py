"""crewkit composes YAML with libyaml where it reads the text as the Python parser does, and with the Python
parser otherwise (and for every error, whose words crewkit knows): the two must give the same nodes (tags,
values, styles, positions) for every bundled file and for text with wide characters."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from crewkit.spec import yamlio
from crewkit.spec.errors import SpecError
from crewkit.spec.resources import data_root

pytestmark = pytest.mark.skipif(yamlio._CLoader is None, reason="PyYAML without libyaml: one parser only")


def _shape(node: yaml.Node, out: list[object]) -> list[object]:
    out.append((type(node).__name__, node.tag, node.start_mark.line, node.start_mark.column, node.end_mark.line,
                node.end_mark.column, getattr(node, "style", None),
                # flow or block (an indentless block sequence is None to the Python parser, False to libyaml)
                bool(getattr(node, "flow_style", None))))
    if isinstance(node, yaml.ScalarNode):
        out.append(node.value)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _shape(item, out)
    else:
        for key, value in node.value:
            _shape(key, out)
            _shape(value, out)
    return out


def _both(text: str) -> tuple[list[object], list[object]]:
    return (_shape(yaml.compose(text, Loader=yamlio._Loader), []),
            _shape(yaml.compose(text, Loader=yamlio._CLoader), []))


@pytest.mark.parametrize("folder", ["rulesets", "missions"])
def test_both_parsers_compose_every_bundled_file_alike(folder: str) -> None:
    files = sorted((data_root() / folder).rglob("*.yaml"))
    assert files
    for path in files:
        python, c = _both(path.read_text(encoding="utf-8"))
        assert python == c, path


def test_wide_characters_keep_their_columns() -> None:
    text = 'a: "éé😀"\nb: {c: 1, "ü😀ü": x, d: [1, "😀", y]}\n# ☃\ne: |\n  ☃☃\nf: 😀 plain\ng: &x [1]\nh: *x\n'
    python, c = _both(text)
    assert python == c


def test_a_yaml_error_is_the_python_parsers_in_words(tmp_path: Path) -> None:
    """libyaml's own message differs; the text is read again by the Python parser for crewkit's words."""
    path = tmp_path / "bad.yaml"
    path.write_text("name: x\n  deck: y\n", encoding="utf-8")
    with pytest.raises(SpecError) as exc:
        yamlio.load_yaml_file(path)
    issue = exc.value.issues[0]
    assert (issue.line, issue.column) == (2, 7)
    assert "a ':' here would start a key inside a value" in issue.message, issue.message


def test_the_bounds_hold_on_the_fast_path() -> None:
    deep = "a: " + "[" * (yamlio.MAX_DEPTH + 5) + "]" * (yamlio.MAX_DEPTH + 5) + "\n"
    aliases = "x: &a 1\ny: [" + ", ".join(["*a"] * (yamlio.MAX_ALIASES + 1)) + "]\n"
    for text, words in ((deep, "nested too deeply"), (aliases, "too many aliases")):
        with pytest.raises(SpecError, match=words):
            yamlio.load_yaml_text(text, "t.yaml")
