"""`python -m bot` is the same as the `glosario-bot` command."""

import sys

from bot.cli import main

if __name__ == "__main__":
    sys.exit(main())
