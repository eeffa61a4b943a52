"""Placeholders: arithmetic, formats, escapes, and clear errors."""

import pytest

from runner.errors import TemplateError
from runner.templates import Template, format_value, render


def test_names_and_arithmetic():
    names = {"capacity_bps": 256000, "capacity_kbps": 256, "reliability": 0.9, "node": "uav"}
    assert render("{capacity_bps*0.95}", names) == "243200"
    assert render("{capacity_kbps*1024}", names) == "262144"
    assert render("rate={capacity_bps * 0.95 / 8:.1f} node={node}", names) == "rate=30400.0 node=uav"
    assert render("{(1 - reliability) * 100:.0f}", names) == "10"
    assert render("{2**10} {7//2} {7%4} {-3+1} {+4}", {}) == "1024 3 3 -2 4"
    assert render("{max(1, round(7/2))} {min(3, 2, 5)} {ceil(1.2)} {floor(1.8)} {abs(-2)} {int(2.9)}", {}) == \
        "4 2 2 1 2 2"
    assert render("{round(2/3, 2)}", {}) == "0.67"


def test_precedence_and_parentheses():
    assert render("{1 + 2 * 3}", {}) == "7"
    assert render("{(1 + 2) * 3}", {}) == "9"
    assert render("{-2**2}", {}) == "-4"
    assert render("{2**-1}", {}) == "0.5"


def test_value_keeps_type_for_single_placeholder():
    assert Template("{reliability}").value({"reliability": 0.9}) == 0.9
    assert Template("{flag}").value({"flag": True}) is True
    assert Template("x{reliability}").value({"reliability": 0.9}) == "x0.9"


def test_literal_braces_for_json():
    assert render('{{"time_s": {t}}}', {"t": 1.5}) == '{"time_s": 1.5}'


def test_formatting_of_values():
    assert format_value(243200.0) == "243200"
    assert format_value(0.1) == "0.1"
    assert format_value(True) == "true"


@pytest.mark.parametrize("text, fragment", [
    ("{nope}", "unknown name 'nope'"),
    ("{capacity*2}", "unknown name 'capacity'"),
    ("{1/0}", "division by zero"),
    ("{x y}", "unexpected 'y'"),
    ("{1 +}", "expected a value"),
    ("{a", "unclosed '{'"),
    ("b}", "single '}'"),
    ("{}", "empty placeholder"),
    ("{__import__(1)}", "unknown function __import__()"),
    ("{open('x')}", "unexpected character"),
    ("{os.system}", "unexpected character '.'"),
    ("{x:zz}", "bad format"),
    ("{node*2}", "is not a number"),
    ("{2**1000}", "exponent too large"),
])
def test_errors_are_clear(text, fragment):
    with pytest.raises(TemplateError) as e:
        render(text, {"x": 1, "y": 2, "node": "uav"})
    assert fragment in str(e.value)


def test_unknown_names_checked_before_running():
    t = Template("--rate {capacity_bps*0.95} --if {interfase}")
    assert t.names == {"capacity_bps", "interfase"}
    with pytest.raises(TemplateError, match="unknown placeholder name interfase"):
        t.check_names({"capacity_bps", "interface"})
