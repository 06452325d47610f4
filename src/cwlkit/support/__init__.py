"""What every layer may use: pyarrow's kernels without ``pyarrow.compute``
(:mod:`~cwlkit.support.compute`), small numpy helpers (:mod:`~cwlkit.support.arrays`), the
cores this process may use and a thread pool (:mod:`~cwlkit.support.threads`), and progress
bars (:mod:`~cwlkit.support.progress`). It imports nothing of cwlkit but the errors.
"""
