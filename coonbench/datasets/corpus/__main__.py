"""``python -m coonbench.datasets.corpus``."""

from coonbench.datasets.corpus.cli import main

raise SystemExit(main())
