"""`python -m binparse.codegen [--check]`: the same as `binparse generate`."""

import sys

from ..cli import main

sys.exit(main(["generate", *sys.argv[1:]]))
