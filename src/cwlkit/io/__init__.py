"""Readers: file formats to columns. Nothing here knows about measures."""
