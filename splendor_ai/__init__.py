"""splendor-ai: a search-based AI for Splendor, Splendor Duel and Splendor: Marvel."""

__version__ = "0.1.0"
