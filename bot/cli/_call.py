"""One run of a subcommand: what its handler is given."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from bot.cli._words import Words
from bot.config import Settings

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130  # stopped by Ctrl-C (SIGINT): 128 + 2, as a shell says it
EVERY_STATUS = "all"  # `--status all`: the command line's word for gaps of every status (None to the stores)


@dataclass(frozen=True)
class Call:
    """The parsed arguments, the settings, the glossary folder in use (`--data` or the settings') and the
    language the command line speaks."""

    args: argparse.Namespace
    settings: Settings
    data_dir: Path
    say: Words
