"""``python -m narrator``."""

from narrator.cli import main

raise SystemExit(main())
