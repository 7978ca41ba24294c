"""``python -m coonbench.datasets.retrieval --write | --check``."""

from coonbench.datasets.retrieval.questions import main

raise SystemExit(main())
