"""The programs a campaign's systems start, found before any run begins.

A node command that names a program the runs cannot find fails every run of
its system with the shell's exit 127, minutes into a campaign and with only
"exited 127" to show for it. So before the first run, every command of each
selected system (daemon, ready_probe, command, collect) is read for the
programs it starts, and each is looked up the way the node's shell will:
on the --bin-dir directories, then PATH. A missing one stops the campaign
with the program's name and the systems that need it.

The reading is deliberately modest. It takes the first word of every simple
command of a shell string (after ;, &&, ||, |, &, parentheses and newlines;
past the keywords if/then/else/..., `exec`, `command`, `env` and variable
assignments) and the first word of an argv list. Words with a placeholder,
a '/', a '$' or shell quoting are not judged, nor are shell builtins or
anything after a builtin or `for`/`case`: it may miss a program, but what it
reports missing would have failed.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from collections.abc import Iterable, Iterator

from .scenario import Command, Scenario
from .templates import Template

# Words that start a simple command without being its program.
KEYWORDS = {"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "esac", "!", "{", "}", "time"}
# Prefixes whose next word is the program.
PREFIXES = {"exec", "command", "env", "nohup"}
# Builtins (and keywords whose next words are not programs): the rest of the
# simple command is arguments, never a program to look up.
BUILTINS = {"for", "case", "select", "function", ".", ":", "alias", "break", "cd", "continue", "eval", "exit",
            "export", "getopts", "hash", "local", "read", "readonly", "return", "set", "shift", "source", "trap",
            "type", "ulimit", "umask", "unalias", "unset", "wait"}
OPERATORS = {";", "&&", "||", "|", "&", "(", ")", ";;", "|&"}
REDIRECTIONS = {"<", ">", ">>", "<<", "<&", ">&", "<>", ">|", "&>", "&>>"}
PROGRAM_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.+-]*$")
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def _tokens(text: str) -> list[str]:
    lexer = shlex.shlex(text.replace("\n", " ; "), posix=False, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        return list(lexer)
    except ValueError:  # unbalanced quotes: the shell will say so itself
        return []


def _simple_commands(tokens: list[str]) -> Iterator[list[str]]:
    current: list[str] = []
    for tok in tokens:
        if tok in OPERATORS:
            if current:
                yield current
            current = []
        else:
            current.append(tok)
    if current:
        yield current


def _program(words: list[str]) -> str | None:
    """The program a simple command starts, when it can be told for sure."""
    i = 0
    while i < len(words):
        word = words[i]
        if word in REDIRECTIONS:
            i += 2
        elif word in KEYWORDS or word in PREFIXES or ASSIGNMENT.match(word):
            i += 1
        elif word in BUILTINS:
            return None
        else:
            return word if PROGRAM_NAME.match(word) else None
    return None


def _text(template: Template) -> str:
    """The template's text with every placeholder as '{}' (an expression may
    hold spaces and parentheses; '{}' is never taken for a program)."""
    return "".join(payload if kind == "lit" else "{}" for kind, payload, _ in template.parts)


def programs_of(command: Command) -> list[str]:
    """Program names a node command starts (placeholders and paths left out)."""
    if not command.shell:
        first = _text(command.parts[0])
        return [first] if PROGRAM_NAME.match(first) and first not in BUILTINS else []
    found = []
    for words in _simple_commands(_tokens(_text(command.parts[0]))):
        program = _program(words)
        if program is not None and program not in found:
            found.append(program)
    return found


def _commands(scenario: Scenario, system: str) -> Iterable[Command]:
    for spec in scenario.systems[system].roles.values():
        for command in (spec.daemon, spec.ready_probe, spec.command, spec.collect):
            if command is not None:
                yield command


def _sets_path(scenario: Scenario, system: str) -> bool:
    sys_spec = scenario.systems[system]
    return "PATH" in sys_spec.env or any("PATH" in r.env for r in sys_spec.roles.values())


def missing(scenario: Scenario, systems: list[str], bin_dirs: list[str],
            path: str | None = None) -> dict[str, list[str]]:
    """Program -> the systems that need it, for every program not found on
    bin_dirs + PATH (path: the PATH to use, default the environment's).
    A system that sets PATH itself is not judged."""
    search = os.pathsep.join(bin_dirs + [os.environ.get("PATH", "") if path is None else path])
    out: dict[str, list[str]] = {}
    for system in systems:
        if _sets_path(scenario, system):
            continue
        for command in _commands(scenario, system):
            for program in programs_of(command):
                if shutil.which(program, path=search) is None and system not in out.get(program, []):
                    out.setdefault(program, []).append(system)
    return out


def describe(missing_programs: dict[str, list[str]], bin_dirs: list[str]) -> str:
    """One line naming each missing program and who needs it, and what to do."""
    where = (", ".join(f"--bin-dir {d}" for d in bin_dirs) + " and PATH") if bin_dirs else "PATH (no --bin-dir given)"
    names = ", ".join(f"{p} (system{'s' if len(s) > 1 else ''} {', '.join(s)})"
                      for p, s in sorted(missing_programs.items()))
    return (f"not found on {where}: {names}; build {'them' if len(missing_programs) > 1 else 'it'} "
            f"(e.g. cmake --build build/release --target {' '.join(sorted(missing_programs))}), pass the "
            "directory with --bin-dir, or leave the system out with --systems")
