"""Errors the user can fix. The CLI prints them as one line, never a traceback."""


class UserError(Exception):
    """Base class: bad input, bad arguments, missing tools."""


class ScenarioError(UserError):
    """A scenario file problem, always naming the file and the key."""

    def __init__(self, source: str, key: str, message: str):
        self.source = source
        self.key = key
        self.message = message
        where = f"{source}: {key}" if key else source
        super().__init__(f"{where}: {message}")


class TemplateError(UserError):
    """A placeholder that cannot be evaluated; callers add the file and key."""
