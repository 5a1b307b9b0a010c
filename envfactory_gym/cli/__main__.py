"""`python -m envfactory_gym.cli`: the `envfactory` command."""

import sys

from . import main

sys.exit(main())
