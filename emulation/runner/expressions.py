"""A tiny, safe arithmetic language for placeholders such as
{capacity_bps*0.95} or {max(1, round(bytes/1024))}.

Why not eval(): scenario files are shared and run as root; a placeholder
must only ever compute a value. The grammar is

    expr    := term (('+' | '-') term)*
    term    := unary (('*' | '/' | '//' | '%') unary)*
    unary   := ('-' | '+') unary | power
    power   := atom ('**' unary)?
    atom    := NUMBER | NAME | NAME '(' [expr (',' expr)*] ')' | '(' expr ')'

Names are looked up in a mapping; functions are a fixed whitelist.
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable, Mapping

from .errors import TemplateError

_TOKEN = re.compile(
    r"\s*(?:(?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>\*\*|//|[-+*/%(),]))"
)


def _round(x, ndigits=None):
    return round(x) if ndigits is None else round(x, int(ndigits))


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "int": lambda x: int(x),
    "float": lambda x: float(x),
    "round": _round,
    "min": min,
    "max": max,
    "ceil": math.ceil,
    "floor": math.floor,
    "abs": abs,
}


def tokenize(text: str) -> list[tuple[str, str]]:
    tokens = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise TemplateError(f"unexpected character {text[pos:].strip()[:1]!r} in {{{text}}}")
        kind = m.lastgroup
        tokens.append((kind, m.group(kind)))
        pos = m.end()
    return tokens


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.tokens = tokenize(text)
        self.i = 0

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else (None, None)

    def take(self, value=None):
        kind, tok = self.peek()
        if kind is None or (value is not None and tok != value):
            want = f"{value!r}" if value else "a value"
            got = f"{tok!r}" if tok else "the end"
            raise TemplateError(f"expected {want} but found {got} in {{{self.text}}}")
        self.i += 1
        return kind, tok

    def parse(self):
        if not self.tokens:
            raise TemplateError("empty placeholder {}")
        node = self.expr()
        if self.i != len(self.tokens):
            raise TemplateError(f"unexpected {self.peek()[1]!r} in {{{self.text}}}")
        return node

    def expr(self):
        node = self.term()
        while self.peek()[1] in ("+", "-"):
            op = self.take()[1]
            node = ("bin", op, node, self.term())
        return node

    def term(self):
        node = self.unary()
        while self.peek()[1] in ("*", "/", "//", "%"):
            op = self.take()[1]
            node = ("bin", op, node, self.unary())
        return node

    def unary(self):
        if self.peek()[1] in ("-", "+"):
            op = self.take()[1]
            return ("neg", self.unary()) if op == "-" else self.unary()
        return self.power()

    def power(self):
        node = self.atom()
        if self.peek()[1] == "**":
            self.take()
            node = ("bin", "**", node, self.unary())
        return node

    def atom(self):
        kind, tok = self.take()
        if kind == "number":
            return ("num", float(tok) if any(c in tok for c in ".eE") else int(tok))
        if kind == "name":
            if self.peek()[1] == "(":
                if tok not in FUNCTIONS:
                    raise TemplateError(
                        f"unknown function {tok}() in {{{self.text}}} (known: {', '.join(sorted(FUNCTIONS))})")
                self.take("(")
                args = []
                if self.peek()[1] != ")":
                    args.append(self.expr())
                    while self.peek()[1] == ",":
                        self.take()
                        args.append(self.expr())
                self.take(")")
                return ("call", tok, args)
            return ("name", tok)
        if tok == "(":
            node = self.expr()
            self.take(")")
            return node
        raise TemplateError(f"unexpected {tok!r} in {{{self.text}}}")


def parse(text: str):
    """Parse an expression into a small tuple tree (raises TemplateError)."""
    return _Parser(text).parse()


def names_in(tree) -> set[str]:
    """Every variable name an expression reads (for checks at load time)."""
    kind = tree[0]
    if kind == "name":
        return {tree[1]}
    if kind == "bin":
        return names_in(tree[2]) | names_in(tree[3])
    if kind == "neg":
        return names_in(tree[1])
    if kind == "call":
        out: set[str] = set()
        for arg in tree[2]:
            out |= names_in(arg)
        return out
    return set()


def _number(value, text):
    # Booleans are ints in Python; refusing them keeps "true * 3" from
    # silently meaning 3.
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TemplateError(f"{value!r} is not a number in {text!r}")
    return value


_BINARY = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a / b,
    "//": lambda a, b: a // b,
    "%": lambda a, b: a % b,
    "**": lambda a, b: a ** b,
}


def evaluate(tree, names: Mapping[str, Any], text: str = "") -> Any:
    """Evaluate a parsed expression against the given names."""
    kind = tree[0]
    if kind == "num":
        return tree[1]
    if kind == "name":
        if tree[1] not in names:
            known = ", ".join(sorted(names))
            raise TemplateError(f"unknown name '{tree[1]}' in {text!r} (known here: {known})")
        return names[tree[1]]
    if kind == "neg":
        return -_number(evaluate(tree[1], names, text), text)
    if kind == "bin":
        a = _number(evaluate(tree[2], names, text), text)
        b = _number(evaluate(tree[3], names, text), text)
        if tree[1] in ("/", "//", "%") and b == 0:
            raise TemplateError(f"division by zero in {text!r}")
        if tree[1] == "**" and abs(b) > 64:
            raise TemplateError(f"exponent too large in {text!r}")
        return _BINARY[tree[1]](a, b)
    if kind == "call":
        args = [evaluate(arg, names, text) for arg in tree[2]]
        fn = tree[1]
        if fn != "int" or not (args and isinstance(args[0], bool)):
            args = [_number(a, text) for a in args]
        try:
            return FUNCTIONS[fn](*args)
        except (TypeError, ValueError, OverflowError) as e:
            raise TemplateError(f"{fn}() failed in {text!r}: {e}") from None
    raise TemplateError(f"cannot evaluate {text!r}")
