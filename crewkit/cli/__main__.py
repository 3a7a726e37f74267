"""``python -m crewkit.cli``: the same as ``crewkit`` (and ``python -m crewkit``)."""

import sys

from crewkit.cli import main

sys.exit(main())
