# Sourced by scripts/demo.sh and scripts/experiments.sh, so that the two build
# and pass the same programs: the CMake targets of every program an emulated
# experiment starts, and the emulation/run options that find them in the
# Release build. emulation/tests/test_runner_programs.py checks that every
# program a shipped scenario starts is one of these targets (or a system
# tool), and emulation/run refuses to start a campaign whose programs it
# cannot find, naming them (emulation/runner/programs.py).
# shellcheck shell=bash disable=SC2034  # the scripts that source this file use them

emulation_build=build/release
emulation_targets=(dissem-emu dissemd dissem dissem-load dissem-norm dissem-tcp dissem-pgm dissem-jgroups
                   dissem-rogue dissem-norm-gateway dissem-sim)  # dissem-sim: the runner's scenario expander
emulation_run_args=(--emu "$emulation_build/emulation/emu/dissem-emu"
                    --bin-dir "$emulation_build/src"
                    --bin-dir "$emulation_build/emulation/baselines/norm"
                    --bin-dir "$emulation_build/emulation/baselines/tcp"
                    --bin-dir "$emulation_build/emulation/baselines/pgm"
                    --bin-dir "$emulation_build/emulation/baselines/jgroups"
                    --bin-dir "$emulation_build/emulation/rogue")
