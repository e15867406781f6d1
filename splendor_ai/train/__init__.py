"""Training the learned evaluation by expert iteration (docs/learned.md, section 5).

Needs PyTorch and NumPy (the ``[train]`` extra); the server and the client never import
this package.
"""
try:
    import numpy  # noqa: F401
    import torch  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(f"splendor-ai train needs PyTorch and NumPy: pip install '.[train]' in the splendor-ai "
                      f"source tree ({exc})") from None

from .loop import Run, TrainError, TrainSettings
from .selfplay import SelfPlaySettings

__all__ = ["Run", "TrainError", "TrainSettings", "SelfPlaySettings"]
