"""`python -m kikimimi.cli` is the `kikimimi` command."""
import sys

from kikimimi.cli import main

sys.exit(main())
