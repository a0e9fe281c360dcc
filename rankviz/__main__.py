"""``python -m rankviz``: the command line of :mod:`rankviz.cli`."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
