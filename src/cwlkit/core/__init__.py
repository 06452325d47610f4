"""The columnar core: one topics x depth batch per (qrels, run) pair."""
