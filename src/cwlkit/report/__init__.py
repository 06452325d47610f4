"""Output formats: text compatible with the peer tools, tsv, json."""
