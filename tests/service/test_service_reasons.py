"""Reasons on the wire (issue 68): Analyze's final lines and AnalyzeGame's verdicts carry the
reasons of splendor_ai.reasons, each code the closed list's in its order, each text its sentence,
in both transports' messages and the Python client's types."""
import pytest
from splendor_ai_client import Reason, pb

from splendor_ai import reasons
from splendor_ai.games import load_game
from splendor_ai.service import convert


def test_the_wire_enum_is_the_closed_list_in_its_order():
    wire = [v.name for v in pb.ReasonCode.DESCRIPTOR.values]
    assert wire == ["REASON_CODE_UNSPECIFIED"] + [f"REASON_CODE_{c.name}" for c in reasons.CODES]
    assert [v.number for v in pb.ReasonCode.DESCRIPTOR.values] == list(range(len(reasons.CODES) + 1))


def test_a_reason_is_encoded_with_its_sentence_and_subjects():
    r = reasons.Reason("NEAR_NOBLE", piece=3, colour=1)
    msg = convert.encode_reason(r, "base")
    assert msg.code == pb.REASON_CODE_NEAR_NOBLE and msg.text == reasons.sentence(r, "base") and msg.good
    assert msg.piece == 3 and msg.color == "blue" and not msg.HasField("card") and not msg.HasField("seat")
    typed = Reason.from_pb(msg)
    assert (typed.code, typed.piece, typed.color, typed.card) == ("NEAR_NOBLE", 3, "blue", None)
    zero = convert.encode_reason(reasons.Reason("DENIES_CARD", seat=0, card=0), "duel")
    assert zero.HasField("seat") and zero.seat == 0 and zero.HasField("card")  # 0 is a real seat and card


def test_analyze_says_why_on_its_final_lines_only(client):
    position = client.new_game(2, seed=7).position
    reports = list(client.analyze(position, iterations=1500, lines=3, report_every_ms=10, seed=1))
    final = reports[-1]
    assert final.final and len(final.stats.lines) == 3
    state = convert.decode_position(position).view(0)
    for line in final.stats.lines:
        assert line.reasons, line.move.notation
        action = state.string_to_action(line.move.notation)
        true = {reasons.sentence(f, "base") for f in reasons.facts(state, action)}
        for r in line.reasons:  # each is a true fact of the move (or one about the search's own line)
            assert r.code in reasons.BY_NAME
            assert r.text in true or r.code in ("SEARCH_BEST", "PLANS_BUY"), (line.move.notation, r.text)
    assert all(not l.reasons for r in reports[:-1] for l in r.stats.lines)  # progress reports: none


@pytest.fixture(scope="module")
def blundered_game():
    """A base 2-player game in which seat 0 passes up a noble, deal 3: the record's moves."""
    state = load_game("base", 2).new_initial_state(3)
    moves = []
    for _ in range(16):
        a = state.legal_actions()[0]
        moves.append(state.action_to_string(a))
        state.apply_action(a)
    return convert.encode_position(load_game("base", 2).new_initial_state(3)), moves


def test_analyze_game_verdicts_say_why(client, blundered_game):
    deal, moves = blundered_game
    reports = list(client.analyze_game(deal, moves, iterations=300, seed=1))
    verdicts = [r.decision for r in reports if not r.final]
    said = [v for v in verdicts if v.reasons]
    assert len(said) >= len([v for v in verdicts if not v.forced]) // 2, "most decisions say why"
    for v in said:
        assert all(r.text and r.code in reasons.BY_NAME for r in v.reasons)
    marked = [v for v in verdicts if v.mark]
    for v in marked:  # a mistake's reasons name the move they are about
        assert all(r.move is not None and r.move.notation in (v.played.notation, v.best.notation) for r in v.reasons)
