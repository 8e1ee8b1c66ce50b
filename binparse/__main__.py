"""`python -m binparse …`: the `binparse` command, for environments without the console script."""

import sys

from .cli import console

sys.exit(console())
