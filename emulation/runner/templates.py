"""Command and value templating: "{name}", "{expr}", "{expr:format}".

"{{" and "}}" stand for literal braces (as in str.format), which shell
snippets that print JSON need. Placeholders are inserted verbatim, not
shell-quoted: the runner's own values (addresses, paths it creates) contain
no spaces or shell characters.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from . import expressions
from .errors import TemplateError


def format_value(value: Any) -> str:
    """Text for a value: integral floats print as integers (243200, not
    243200.0) because they usually land on command lines as rates or sizes."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return repr(value)
    return str(value)


class Template:
    """A parsed template string. Parsing happens once, at load time, so
    syntax errors and unknown names surface before any run starts."""

    def __init__(self, text: str):
        if not isinstance(text, str):
            raise TemplateError(f"expected text, found {type(text).__name__}")
        self.text = text
        self.parts: list[tuple[str, Any, str]] = []  # ("lit", text, "") | ("expr", tree, fmt)
        self._parse()

    def _parse(self) -> None:
        text, i, literal = self.text, 0, []
        while i < len(text):
            c = text[i]
            if c == "{" and text.startswith("{{", i):
                literal.append("{")
                i += 2
            elif c == "}" and text.startswith("}}", i):
                literal.append("}")
                i += 2
            elif c == "}":
                raise TemplateError(f"single '}}' in {text!r} (write '}}}}' for a literal brace)")
            elif c == "{":
                end = text.find("}", i + 1)
                inner_open = text.find("{", i + 1)
                if end < 0 or (0 <= inner_open < end):
                    raise TemplateError(f"unclosed '{{' in {text!r} (write '{{{{' for a literal brace)")
                body = text[i + 1:end]
                expr, _, fmt = body.partition(":")
                if literal:
                    self.parts.append(("lit", "".join(literal), ""))
                    literal = []
                self.parts.append(("expr", expressions.parse(expr), fmt))
                self._check_format(fmt, body)
                i = end + 1
            else:
                literal.append(c)
                i += 1
        if literal:
            self.parts.append(("lit", "".join(literal), ""))

    @staticmethod
    def _check_format(fmt: str, body: str) -> None:
        if fmt:
            try:
                format(1.5, fmt)
            except ValueError:
                raise TemplateError(f"bad format '{fmt}' in {{{body}}}") from None

    @property
    def names(self) -> set[str]:
        out: set[str] = set()
        for kind, tree, _ in self.parts:
            if kind == "expr":
                out |= expressions.names_in(tree)
        return out

    def check_names(self, allowed: Iterable[str]) -> None:
        unknown = sorted(self.names - set(allowed))
        if unknown:
            raise TemplateError(
                f"unknown placeholder name{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} "
                f"(known here: {', '.join(sorted(allowed))})")

    def _eval(self, tree, fmt: str, names: Mapping[str, Any]):
        value = expressions.evaluate(tree, names, self.text)
        if fmt:
            try:
                return format(value, fmt)
            except (ValueError, TypeError) as e:
                raise TemplateError(f"cannot format {value!r} with '{fmt}' in {self.text!r}: {e}") from None
        return value

    def render(self, names: Mapping[str, Any]) -> str:
        out = []
        for kind, payload, fmt in self.parts:
            if kind == "lit":
                out.append(payload)
            else:
                out.append(format_value(self._eval(payload, fmt, names)))
        return "".join(out)

    def value(self, names: Mapping[str, Any]) -> Any:
        """The placeholder's own value when the template is exactly one
        placeholder ("{reliability}"), else the rendered text."""
        if len(self.parts) == 1 and self.parts[0][0] == "expr" and not self.parts[0][2]:
            return self._eval(self.parts[0][1], "", names)
        return self.render(names)


def render(text: str, names: Mapping[str, Any]) -> str:
    return Template(text).render(names)
