"""The comparison report (:func:`cwlkit.report`): runs evaluated once, tested, and rendered
in HTML, LaTeX, Markdown, CSV or JSON. Nothing is imported until a module is used.
"""
