"""Typed, strict access to one TOML table.

Every read records the key, so finish() can reject unknown keys (typos must
not silently fall back to defaults), and every error names the file and the
full dotted key, e.g. "demo.toml: topology.override[1].reliability: 1.5 is
above 1".
"""

from __future__ import annotations

import math
from typing import Any, Iterable

from .errors import ScenarioError, TemplateError
from .templates import Template

MISSING = object()


class Param:
    """A scalar that is either a constant or a template resolved per cell or
    per run ("{capacity_kbps*1024}"). Resolution re-checks type and bounds
    so a template yielding 1.5 for a reliability is still reported by key."""

    def __init__(self, source: str, key: str, kind: str, value: Any,
                 minimum: float | None = None, maximum: float | None = None):
        self.source, self.key, self.kind = source, key, kind
        self.minimum, self.maximum = minimum, maximum
        self.template = value if isinstance(value, Template) else None
        self.constant = None if self.template else value

    def resolve(self, names) -> Any:
        if self.template is None:
            return self.constant
        try:
            value = self.template.value(names)
        except TemplateError as e:
            raise ScenarioError(self.source, self.key, str(e)) from None
        return convert(self.source, self.key, self.kind, value, self.minimum, self.maximum)

    def __repr__(self):
        return f"Param({self.key}={self.template.text if self.template else self.constant!r})"


def convert(source: str, key: str, kind: str, value: Any,
            minimum: float | None = None, maximum: float | None = None) -> Any:
    """Coerce a value (possibly text from a template) to kind and check bounds."""
    def fail(msg):
        raise ScenarioError(source, key, msg)

    if kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        if isinstance(value, (int, float)) and value in (0, 1):
            return bool(value)
        fail(f"{value!r} is not true or false")
    if isinstance(value, bool):
        fail(f"{value!r} is not a number")
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            fail(f"{value!r} is not a number")
    if not isinstance(value, (int, float)) or math.isnan(value) or math.isinf(value):
        fail(f"{value!r} is not a finite number")
    if kind == "int":
        if float(value) != int(value):
            fail(f"{value!r} is not a whole number")
        value = int(value)
    if minimum is not None and value < minimum:
        fail(f"{value!r} is below {minimum:g}")
    if maximum is not None and value > maximum:
        fail(f"{value!r} is above {maximum:g}")
    return value


_TYPE_NAMES = {str: "text", int: "an integer", float: "a number", bool: "true or false",
               list: "a list", dict: "a table"}


class Table:
    def __init__(self, data: dict, source: str, prefix: str = ""):
        if not isinstance(data, dict):
            raise ScenarioError(source, prefix, f"expected a table, found {_describe(data)}")
        self.data = data
        self.source = source
        self.prefix = prefix
        self.used: set[str] = set()

    # -- naming and errors -------------------------------------------------
    def path(self, name: str) -> str:
        return f"{self.prefix}.{name}" if self.prefix else name

    def error(self, name: str, message: str) -> ScenarioError:
        return ScenarioError(self.source, self.path(name) if name else self.prefix, message)

    def has(self, name: str) -> bool:
        return name in self.data

    def keys(self) -> list[str]:
        return list(self.data)

    # -- raw access ----------------------------------------------------------
    def raw(self, name: str, default: Any = MISSING) -> Any:
        self.used.add(name)
        if name not in self.data:
            if default is MISSING:
                raise self.error(name, "is required")
            return default
        return self.data[name]

    def _typed(self, name, default, types, what):
        value = self.raw(name, default)
        if value is default and default is not MISSING:
            return value
        if isinstance(value, bool) and bool not in types:
            raise self.error(name, f"expected {what}, found {_describe(value)}")
        if not isinstance(value, types):
            raise self.error(name, f"expected {what}, found {_describe(value)}")
        return value

    def string(self, name, default=MISSING, choices: Iterable[str] | None = None) -> str:
        value = self._typed(name, default, (str,), "text")
        if choices is not None and value is not default and value not in choices:
            raise self.error(name, f"{value!r} is not one of {', '.join(choices)}")
        return value

    def boolean(self, name, default=MISSING) -> bool:
        return self._typed(name, default, (bool,), "true or false")

    def integer(self, name, default=MISSING, minimum=None, maximum=None) -> int:
        value = self._typed(name, default, (int,), "an integer")
        if value is default:
            return value
        return convert(self.source, self.path(name), "int", value, minimum, maximum)

    def number(self, name, default=MISSING, minimum=None, maximum=None) -> float:
        value = self._typed(name, default, (int, float), "a number")
        if value is default:
            return value
        return convert(self.source, self.path(name), "float", value, minimum, maximum)

    def list(self, name, default=MISSING) -> list:
        return self._typed(name, default, (list,), "a list")

    def string_or_list(self, name, default=MISSING) -> list[str]:
        value = self.raw(name, default)
        if value is default and default is not MISSING:
            return value
        if isinstance(value, str):
            return [value]
        if isinstance(value, list) and all(isinstance(v, (str, int)) and not isinstance(v, bool)
                                           for v in value) and value:
            return [str(v) for v in value]
        raise self.error(name, f"expected text or a non-empty list of text, found {_describe(value)}")

    def table(self, name, required: bool = False) -> "Table":
        value = self.raw(name, MISSING if required else {})
        return Table(value, self.source, self.path(name))

    def tables(self, name) -> list["Table"]:
        """An array of tables ([[name]]); a single table is accepted too."""
        value = self.raw(name, [])
        if isinstance(value, dict):
            value = [value]
        if not isinstance(value, list):
            raise self.error(name, f"expected [[{self.path(name)}]] tables, found {_describe(value)}")
        return [Table(v, self.source, f"{self.path(name)}[{i + 1}]") for i, v in enumerate(value)]

    def subtables(self) -> list[tuple[str, "Table"]]:
        """Every key of this table, each of which must itself be a table."""
        out = []
        for name in self.data:
            out.append((name, self.table(name, required=True)))
        return out

    # -- templated values ------------------------------------------------------
    def template(self, name, allowed: Iterable[str], default=MISSING) -> Template | None:
        value = self.raw(name, default)
        if value is default and default is not MISSING:
            return value
        return self.make_template(name, value, allowed)

    def make_template(self, name, value, allowed) -> Template:
        if not isinstance(value, str):
            raise self.error(name, f"expected text, found {_describe(value)}")
        try:
            t = Template(value)
            t.check_names(allowed)
        except TemplateError as e:
            raise self.error(name, str(e)) from None
        return t

    def param(self, name, allowed: Iterable[str], default=MISSING, kind: str = "float",
              minimum=None, maximum=None) -> Param | None:
        """A number/bool written literally or as a template string."""
        value = self.raw(name, default)
        if value is default and default is not MISSING:
            if default is None:
                return None
            value = default
        return self.make_param(name, value, allowed, kind, minimum, maximum)

    def make_param(self, name, value, allowed, kind: str = "float", minimum=None, maximum=None) -> Param:
        """A Param from a raw value; name is relative to this table
        (e.g. "gilbert[2]" for list items)."""
        key = self.path(name)
        if isinstance(value, str):
            return Param(self.source, key, kind, self.make_template(name, value, allowed), minimum, maximum)
        return Param(self.source, key, kind, convert(self.source, key, kind, value, minimum, maximum))

    # -- strictness --------------------------------------------------------------
    def finish(self) -> None:
        unknown = [k for k in self.data if k not in self.used]
        if unknown:
            known = ", ".join(sorted(self.used)) or "none"
            raise self.error(unknown[0], f"unknown key (known here: {known})")


def _describe(value: Any) -> str:
    for t, name in _TYPE_NAMES.items():
        if type(value) is t:
            return f"{name} {value!r}" if t in (str, int, float, bool) else name
    return type(value).__name__
