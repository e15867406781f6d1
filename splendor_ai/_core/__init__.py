"""Compiled Cython cores (built from ext/ by setup.py). Nothing here is written by hand."""
