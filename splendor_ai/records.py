"""Game records: one versioned JSON format that self-play, play and analysis share.

    {"format": "splendor-ai/record", "version": 1, "game": "base", "players": 2,
     "seed": 7, "initial_position": {...} | null, "seats": ["mcts:iterations=1000", "greedy"],
     "actions": ["take wug", ...], "evaluations": [null | {...}, ...], "returns": [1.0, 0.0],
     "evaluators": [{"kind": "net", "net": "base-2p.splnn", "checksum": "3743016012e77e77"}, null]}

`seed` (the deal of `new_initial_state(seed)`) or `initial_position` (a position dictionary)
gives the start; `actions` are in notation, in order, one per decision; `replay` rebuilds
the final state exactly. `evaluations`, when present, has one entry per action (null for an
action not evaluated). `evaluators`, when present, says per seat what its searches evaluated
with (null: a seat that does not search). docs/records.md documents every field.
"""
from __future__ import annotations

import json
from typing import Any

from .games import load_game
from .games.errors import SplendorError

FORMAT = "splendor-ai/record"
VERSION = 1


class RecordError(SplendorError):
    """A record that is malformed or does not replay."""


def make_record(game: str, players: int, seed=None, initial_position=None, seats=None,
                actions=(), returns=None, evaluations=None, evaluators=None) -> dict:
    """A record; ``evaluators``: per seat None or what its searches evaluated with (a
    ``search.Evaluator`` or its dict), omitted from the record when not given."""
    record = {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "players": players,
        "seed": seed,
        "initial_position": initial_position,
        "seats": list(seats) if seats else None,
        "actions": list(actions),
        "evaluations": list(evaluations) if evaluations is not None else None,
        "returns": returns,
    }
    if evaluators is not None:
        record["evaluators"] = [None if e is None else e if isinstance(e, dict) else
                                {"kind": e.kind, "net": e.net, "checksum": e.checksum} for e in evaluators]
    return record


def check(record) -> None:
    """RecordError naming the first field that is not as docs/records.md describes."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} record (its 'format' field must be {FORMAT!r})")
    if record.get("version") != VERSION:
        raise RecordError(f"record version {record.get('version')!r} is not supported (expected {VERSION})")
    actions = record.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("'actions' must be a list of moves in notation (strings)")
    evaluations = record.get("evaluations")
    if evaluations is not None:
        if not isinstance(evaluations, list) or len(evaluations) != len(actions):
            raise RecordError(f"'evaluations' must be a list with one entry per action ({len(actions)})")
        if not all(e is None or isinstance(e, dict) for e in evaluations):
            raise RecordError("each entry of 'evaluations' must be null or an object")
    seats = record.get("seats")
    if seats is not None and (not isinstance(seats, list) or len(seats) != record.get("players")):
        raise RecordError("'seats' must be null or a list with one name per player")
    evaluators = record.get("evaluators")
    if evaluators is not None:
        if not isinstance(evaluators, list) or len(evaluators) != record.get("players"):
            raise RecordError("'evaluators' must be null or a list with one entry per player")
        for i, e in enumerate(evaluators):
            if e is not None and not (isinstance(e, dict) and e.get("kind") in ("net", "heuristic")
                                      and all(isinstance(e.get(k), str) for k in ("net", "checksum"))):
                raise RecordError(f"'evaluators'[{i}] must be null or an object with 'kind' (net or "
                                  "heuristic), 'net' and 'checksum' (strings)")


def initial_state(record: dict):
    check(record)
    name: Any = record.get("game")  # load_game checks both (check() does not)
    players: Any = record.get("players")
    game = load_game(name, players)
    if record.get("initial_position") is not None:
        return game.state_from_position(record["initial_position"])
    if record.get("seed") is None:
        raise RecordError("a record needs a seed or an initial_position")
    return game.new_initial_state(record["seed"])


def replay(record: dict):
    """The states of the game: [initial, after action 1, ...]; RecordError on a bad action."""
    state = initial_state(record)
    states = [state.clone()]
    for i, move in enumerate(record.get("actions") or []):
        try:
            state.apply_action(state.string_to_action(move))
        except SplendorError as exc:
            raise RecordError(f"actions[{i}] {move!r}: {exc}") from None
        states.append(state.clone())
    return states


def final_state(record: dict):
    """The state after every action of the record."""
    return replay(record)[-1]


def save(record: dict, path) -> None:
    with open(path, "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")


def load(path) -> dict:
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError) as exc:
        raise RecordError(f"{path}: {exc}") from None
