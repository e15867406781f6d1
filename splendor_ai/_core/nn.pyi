# Type stubs of the compiled net evaluation (ext/nn.pyx). Kept in step with the core by
# tests/test_core_stubs.py: every name here exists on the module, every public callable of the
# module is here.
from collections.abc import Sequence
from typing import Any, final, type_check_only

from typing_extensions import Buffer

@final
@type_check_only
class _NetCapsule:
    """The PyCapsule named "splendor_ai.Net" that NetCore.capsule() returns (ext/nn.pxd)."""

KERNEL_ENV: str
PRECISION_ENV: str
PRECISIONS: tuple[str, ...]

def default_precision(header: dict[str, Any] | None = None) -> str: ...
def kernels() -> list[tuple[str, bool]]: ...
def default_kernel() -> str: ...

class NetCore:
    @property
    def header(self) -> dict[str, Any] | None: ...  # the constructor's (the weights file's header)
    @property
    def kernel(self) -> str: ...
    @property
    def precision(self) -> str: ...
    @property
    def n_in(self) -> int: ...
    @property
    def policy_size(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    # payload and features: float32 buffers (array("f"), a numpy float32 array), contiguous.
    def __init__(self, n_in: int, hidden: Sequence[int], max_players: int, policy_size: int, payload: Buffer,
                 header: dict[str, Any] | None = None, kernel: str | None = None,
                 precision: str | None = None) -> None: ...
    def capsule(self) -> _NetCapsule: ...
    def evaluate(self, features: Buffer, n_seats: int,
                 classes: Sequence[int] = ()) -> tuple[list[float], list[float]]: ...
    def time_evaluations(self, features: Buffer, n_seats: int, classes: Sequence[int], repeat: int) -> float: ...
