"""The ``gingo`` command line.

Each command lives in its own module under :mod:`companion.commands` and exposes
``configure(parser)`` and ``run(args) -> int``. Only the module of the command being
run is imported, so ``gingo deadwood`` starts fast even on a Pi Zero.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Sequence

from companion import __version__
from companion.errors import CompanionError

COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("companion.commands.serve", "run the service (simulated board unless the config names hardware)"),
    "deadwood": ("companion.commands.deadwood", "best melds, deadwood and best discards of a hand"),
    "selfplay": ("companion.commands.selfplay", "bots play whole matches; invariants checked after every action"),
    "sensors": ("companion.commands.sensors", "read the sensor link and print accepted board changes"),
    "calibrate": ("companion.commands.calibrate", "walk through sensor calibration and store thresholds"),
    "doctor": ("companion.commands.doctor", "check groups, devices and backends, and say what to fix"),
    "selftest": ("companion.commands.selftest", "walk a chip of each colour over the board: readings, weak magnets, cross-talk"),
}


class CommandError(Exception):
    """An error a command reports as one line on stderr (exit status 2)."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gingo", description="Gin-Go Companion")
    p.add_argument("--version", action="version", version=f"gingo {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_mod, help_text) in COMMANDS.items():
        sub.add_parser(name, help=help_text)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or args_list[0] not in COMMANDS:
        parser = _parser()
        if not args_list:
            parser.print_help()
            return 0
        parser.parse_args(args_list)  # prints help/version or an error and exits
        return 2
    name = args_list[0]
    module_name, help_text = COMMANDS[name]
    try:
        module = importlib.import_module(module_name)
        parser = argparse.ArgumentParser(prog=f"gingo {name}", description=help_text)
        module.configure(parser)
    except ImportError as exc:
        print(f"gingo {name}: not available ({exc}); reinstall with 'make run'", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C while the command's modules load: as quiet as during its run
        return 130
    args = parser.parse_args(args_list[1:])
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`gingo doctor | head -1`): stop quietly, like other tools,
        # instead of "error: [Errno 32] Broken pipe"; point stdout at /dev/null so the
        # interpreter's final flush does not complain either
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except (CommandError, CompanionError, ValueError, OSError, RuntimeError) as exc:
        # RuntimeError: a backend that cannot start (its message says what to do)
        print(f"gingo {name}: error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug: still one line, never a traceback (GINGO_DEBUG=1 shows it)
        if os.environ.get("GINGO_DEBUG"):
            raise
        print(f"gingo {name}: internal error ({type(exc).__name__}: {exc}); this is a bug: please report it "
              "with the command you ran (GINGO_DEBUG=1 shows the traceback)", file=sys.stderr)
        return 70


if __name__ == "__main__":  # pragma: no cover
    # Run the imported module's main, so commands raising companion.cli.CommandError
    # are caught here too (under -m this file is also loaded as __main__).
    from companion.cli import main as _main

    sys.exit(_main())
