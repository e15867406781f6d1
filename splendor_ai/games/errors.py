"""The errors of the rules layer: each says which kind of wrong happened.

All are ValueError subclasses, so callers that only care that the input was bad can catch
ValueError; the service maps each class to its own gRPC status.
"""


class SplendorError(ValueError):
    """Base class of every error the rules layer raises for bad input."""


class IllegalActionError(SplendorError):
    """An action that is well formed but not legal in this position. The state is unchanged."""


class NotationError(SplendorError):
    """A move string that cannot be parsed, or names no action of this game."""


class UnavailableCardError(NotationError):
    """A well-formed move that buys or reserves a card (a real one, from the catalogue) that
    is not available to the player to move here: not face up, not reserved by them. The
    service answers it as an illegal move (FAILED_PRECONDITION), not as bad notation."""


class PositionError(SplendorError):
    """A position (state dictionary) that is malformed or impossible.

    ``field`` is the dotted path of the offending field, for example ``seats[1].reserved``.
    """

    def __init__(self, field: str, problem: str):
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


class HiddenInformationError(SplendorError):
    """The operation needs information this state does not have (a card nobody has seen).

    Raised, for example, when applying a move that draws from a deck on a state built from
    one seat's point of view: call ``resample`` first, or give the drawn card.
    """


class UnknownGameError(SplendorError):
    """``load_game`` was asked for a game or a player count that does not exist."""
