"""``python -m crewkit`` is the ``crewkit`` command."""

import sys

from crewkit.cli import main

sys.exit(main())
