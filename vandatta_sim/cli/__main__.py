"""``python -m vandatta_sim.cli``: the command line run as a module."""

import sys

from . import main

sys.exit(main())
