"""Meta-validation of the measuring instrument: synthetic answers through the real scorers (``validate``) and judges against the deterministic verdict (``judges``)."""
