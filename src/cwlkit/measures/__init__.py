"""Measures: values with one spelling (``P@10``, ``RBP(p=0.8)``) that compute over a batch."""
