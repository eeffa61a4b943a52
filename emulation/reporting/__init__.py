"""Turns experiment results (emulation/run) into Markdown reports and PNG plots."""
