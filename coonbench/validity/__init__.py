"""Validity of the measuring instrument: scorers, baselines and judges checked on answers of known verdict."""
