"""The thin client as an operator meets it: the token on every RPC (AnalyzeGame included),
against real servers on 127.0.0.1."""
import asyncio
import pytest
from splendor_ai_client import AsyncClient, Client, Unauthenticated, pb

from splendor_ai.games import load_game
from splendor_ai.search.arena import play_game
from splendor_ai.service import convert


def opening() -> pb.Position:
    return convert.encode_position(load_game("base", 2).new_initial_state(1))


def test_analyze_game_sends_the_token_blocking_and_asyncio(spawn_server):
    srv = spawn_server(env={"SPLENDOR_AI_TOKENS": "tok-1"})
    record = play_game("base", 2, ["greedy", "random"], 3)
    deal = convert.encode_position(load_game("base", 2).new_initial_state(record["seed"]))
    moves = record["actions"][:3]
    with Client(srv.target, token="tok-1", timeout=30) as c:
        reports = list(c.analyze_game(deal, moves, iterations=30, seed=1))
        assert len(reports) == 4 and reports[-1].final
    with Client(srv.target, token="wrong", timeout=30) as c:  # the token is checked, not ignored
        with pytest.raises(Unauthenticated):
            c.analyze_game(deal, moves, iterations=30).result()

    async def calls():
        async with AsyncClient(srv.target, token="tok-1", timeout=30) as c:
            final = await c.analyze_game(deal, moves, iterations=30, seed=1).result()
            assert final.final and final.status is not None
        async with AsyncClient(srv.target, timeout=30) as c:
            with pytest.raises(Unauthenticated):
                await c.analyze_game(deal, moves, iterations=30).result()

    asyncio.run(calls())
