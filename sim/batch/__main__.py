"""``python -m sim.batch``: see :mod:`sim.batch.cli`."""

import sys

from sim.batch.cli import main

if __name__ == "__main__":
    sys.exit(main())
