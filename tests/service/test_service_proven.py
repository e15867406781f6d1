"""No thrown win through the service (issue 68): GetMove at every level, on the full position
and on the mover's view, plays the proven win where the most visited move is another
(tests/search/proven_positions.py: base 2 players' last turn, where level 5 played `reserve
deck3` by visits alone, and a Duel turn with an immediate win)."""
import sys
from pathlib import Path

import pytest

from splendor_ai.games import load_game
from splendor_ai.search.levels import LEVELS
from splendor_ai.service import convert

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "search"))
import proven_positions as P  # noqa: E402


@pytest.mark.parametrize("name,win", [("BASE_WIN", "buy 4"), ("DUEL_WIN", "buy 31")])
def test_every_level_plays_the_proven_win_on_the_full_position_and_the_view(client, name, win):
    pos = getattr(P, name)
    state = load_game(pos["game"], pos["players"]).state_from_position(pos)
    seat = state.current_player()
    sent = {"full": convert.encode_position(state), "view": convert.encode_position(state.view(seat))}
    for level in sorted(LEVELS):
        for label, position in sent.items():
            for seed in (0, 1):
                turn = client.get_move(position, level, seed=seed)
                assert turn.moves[0].notation == win, (level, label, seed, [m.notation for m in turn.moves])
                line = next(x for x in turn.searches[0].lines if x.move.notation == win)
                assert line.proven == 1.0, (level, label, line)
    # the same win at a fixed budget where visits alone pick another move (the search test shows it)
    full = client.get_move(sent["full"], iterations=100, seed=0)
    assert full.moves[0].notation == win and full.status is not None and full.status.game_over
    assert full.status.returns[seat] == 1.0
