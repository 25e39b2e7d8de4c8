"""``python -m scripts.tools.lessons``: see :mod:`scripts.tools.lessons`."""
import sys

from scripts.tools.lessons import main

sys.exit(main())
