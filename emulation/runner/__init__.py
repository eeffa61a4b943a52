"""Experiment runner for dissem: scenario language, EEL topologies,
campaigns against the dissem-emu emulator, and the EMANE exporter.

Entry point: emulation/run (see emulation/README.md)."""
