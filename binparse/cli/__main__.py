"""`python -m binparse.cli …`: the same as `python -m binparse …`."""

import sys

from . import console

sys.exit(console())
