"""`python -m core …` entry point."""

import sys

from core.ops.cli.main import main

sys.exit(main())
