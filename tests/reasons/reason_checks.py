"""What the reasons tests share: a position made a state, the facts of a move (each one
checked by the brute-force verifier as it is seen), and the asserts on them."""
from __future__ import annotations

from splendor_ai.games import load_game
from splendor_ai.reasons import Reason, facts
from splendor_ai.reasons.verify import check, verify
from splendor_ai.search.mcts import ActionStats, SearchResult


def state_of(pos: dict, impl: str = "core"):
    return load_game(pos["game"], pos["players"], impl=impl).state_from_position(pos)


def seen(state, move, result=None) -> list[Reason]:
    """Every fact of ``move``; each is verified on the readable rules before it is returned."""
    out = facts(state, move, result)
    for r in out:
        check(state, move, r, result)
    return out


def matching(reasons, code: str, **subjects) -> list[Reason]:
    return [r for r in reasons if r.code == code and all(getattr(r, k) == v for k, v in subjects.items())]


def gives(state, move, code: str, result=None, **subjects) -> Reason:
    """The fact of ``code`` with these subjects (asserted to be there, and verified)."""
    found = matching(seen(state, move, result), code, **subjects)
    assert found, f"{move}: no {code} {subjects} among {[str(r) for r in seen(state, move, result)]}"
    return found[0]


def lacks(state, move, code: str, result=None, **subjects) -> None:
    """No fact of ``code`` with these subjects; when they are all given, the verifier refutes
    the claim too (the two agree on what is false)."""
    found = matching(seen(state, move, result), code, **subjects)
    assert not found, f"{move}: unexpected {[str(r) for r in found]}"


def refuted(state, move, reason: Reason, result=None) -> None:
    assert not verify(state, move, reason, result), f"{move}: {reason} should be false"


def result_of(state, stats: list[tuple[str, int, float, list[str]]]) -> SearchResult:
    """A hand-made search result: (move, visits, value, principal variation) per move, the
    first the search's choice."""
    actions = [ActionStats(state.string_to_action(m), m, n, v, 0.0, pv) for m, n, v, pv in stats]
    seat = state.current_player()
    return SearchResult(seat=seat, action=actions[0].action, move=actions[0].move, actions=actions,
                        win_probability=[0.5] * state.players, iterations=sum(a.visits for a in actions), nodes=1,
                        elapsed=0.0, iterations_per_second=0.0, tree_bytes=0, node_limit_hit=False,
                        cancelled=False, out_of_time=False)
