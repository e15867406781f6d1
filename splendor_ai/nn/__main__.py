"""``python -m splendor_ai.nn precision IN OUT P``: the weights file's command line (weights.main)."""
import sys

from .weights import main

sys.exit(main())
