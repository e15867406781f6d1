"""Between the wire and the domain: decode, encode and validate, nothing else.

Positions: a ``Position`` message becomes the game's position dictionary
(docs/positions.md, docs/duel.md, docs/marvel.md), which the game's own ``validate_position``
checks once, as the state is made from it; a PositionError's field is turned into the request's
path (``seats[1].tokens[3]`` -> ``position.base.seats[1].tokens.red``, ``board[0][3]`` ->
``position.duel.board[3]``). Moves: notation or structured form in, both out. Search results,
turns and game verdicts out. The call's budget is budget.py's; the domain steps (deal, apply,
list moves) steps.py's. Nothing here touches the network.

This module holds what every game shares; each game's messages are translated by its own
module (convert_base, convert_duel, convert_marvel), all with the same functions: ``decode``,
``encode``, ``proto_path``, ``encode_move``, ``structured_notation`` and ``catalog``.
"""
from __future__ import annotations

from splendor.v1 import splendor_pb2 as pb

from .. import reasons
from ..games import NotationError, PositionError, load_game
from ..games.errors import UnavailableCardError
from ..games.registry import spec
from . import convert_base, convert_duel, convert_marvel
from .errors import FieldError, IllegalMove

GAMES: dict[int, str] = {pb.GAME_UNSPECIFIED: "base", pb.GAME_BASE: "base", pb.GAME_DUEL: "duel",
                         pb.GAME_MARVEL: "marvel"}
CONVERTERS = {"base": convert_base, "duel": convert_duel, "marvel": convert_marvel}  # each game's messages
MAX_MOVES = 1000  # moves (or candidates) in one request: more than a whole game
MAX_NOTATION = 64  # characters of one move's notation (or drawn_tokens)
MAX_REQUEST_ID = 128  # characters of a request_id (it is logged and echoed)


def request_id(request) -> str:
    """The request's ``request_id``, checked ("" for a request without one)."""
    rid = getattr(request, "request_id", "")
    if len(rid) > MAX_REQUEST_ID:
        raise FieldError("request_id", f"at most {MAX_REQUEST_ID} characters, got {len(rid)}")
    return rid


# ------------------------------------------------------------------------------ games
def game_name(value: int, field: str = "game") -> str:
    name = GAMES.get(value)
    if name is None:
        raise FieldError(field, f"unknown game {value}")
    return name


def catalog(game: int) -> pb.GetCatalogResponse:
    return CONVERTERS[game_name(game)].catalog()


def title(game: str) -> str:
    """The game's name as players know it (``Splendor Duel``)."""
    return CONVERTERS[game].NAME


# ------------------------------------------------------------------------------ positions
def _proto_path(text: str, game: str = "base") -> str:
    """A position-dictionary path (also inside a message) written as the message's path."""
    return CONVERTERS[game].proto_path(text)


def position_error(exc: PositionError, prefix: str, game: str = "base") -> FieldError:
    return FieldError(f"{prefix}.{_proto_path(exc.field, game)}", _proto_path(exc.problem, game))


def _check_seat_count(msg, game: str, prefix: str) -> None:
    """The number of seats, checked before any seat is read (10,002 seats are refused as
    such, not for what the third one lacks)."""
    counts = spec(game).PLAYER_COUNTS
    n = len(msg.seats)
    if n not in counts:
        allowed = str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
        raise FieldError(f"{prefix}.seats", f"{n} seats; this game has {allowed}")


def decode_position(msg: pb.Position, field: str = "position"):
    """The validated state of a Position message (FieldError names the offending field)."""
    which = msg.WhichOneof("game")
    if which is None:
        raise FieldError(field, "missing: set the game's position (position.base, position.duel or position.marvel)")
    prefix = f"{field}.{which}"
    game = getattr(msg, which)
    _check_seat_count(game, which, prefix)
    position = CONVERTERS[which].decode(game, prefix)
    try:  # validated once: state_from_position checks what the converter built
        return load_game(which, len(game.seats)).state_from_position(position)
    except PositionError as exc:
        raise position_error(exc, prefix, which) from None


def encode_position(state) -> pb.Position:
    return CONVERTERS[state.game].encode(state.to_position())


def encode_status(state) -> pb.GameStatus:
    return pb.GameStatus(to_move=state.current_player(), game_over=state.is_terminal(), returns=state.returns())


def is_view(state) -> bool:
    return state.to_position()["observer"] is not None


# ------------------------------------------------------------------------------ moves
def encode_move(position: dict, action: int, notation: str | None = None) -> pb.Move:
    """A move made in ``position`` (a position dictionary): notation (``notation`` when the caller
    has it already: it must be the move's) and structured form."""
    return CONVERTERS[position["game"]].encode_move(position, action, notation)


def _parse(state, text: str, field: str) -> int:
    if any(ord(ch) < 32 for ch in text) or len(text) > MAX_NOTATION:
        raise FieldError(field, "not a move: too long or with control characters")
    try:
        return state.string_to_action(text)
    except UnavailableCardError:
        raise
    except NotationError as exc:
        raise FieldError(field, str(exc)) from None


def decode_move(state, msg: pb.Move, field: str) -> int:
    """The action id a Move message names in ``state`` (well formed; legality not checked,
    except that a card it buys or reserves must be available: IllegalMove otherwise)."""
    try:
        return _decode_move(state, msg, field)
    except UnavailableCardError as exc:
        raise IllegalMove(field, str(exc)) from None


def _decode_move(state, msg: pb.Move, field: str) -> int:
    structured = None
    which = msg.WhichOneof("structured")
    if which is not None:
        if which != state.game:
            raise FieldError(f"{field}.{which}", f"a {which} move, but the position is a {state.game} position "
                                                 f"(use {field}.{state.game})")
        text = CONVERTERS[which].structured_notation(getattr(msg, which), f"{field}.{which}")
        structured = _parse(state, text, f"{field}.{which}")
    if msg.notation.strip():
        action = _parse(state, msg.notation, f"{field}.notation")
        if structured is not None and structured != action:
            raise FieldError(field, f"notation {msg.notation!r} and the structured form "
                                    f"({text!r}) name different moves")
        return action
    if structured is None:
        raise FieldError(field, "empty: give the notation or the structured form")
    return structured


def drawn_card(msg: pb.Move) -> int | None:
    return msg.drawn_card if msg.HasField("drawn_card") else None


def drawn_tokens(state, msg: pb.Move, field: str) -> list[int] | None:
    if not msg.HasField("drawn_tokens"):
        return None
    if state.game != "duel":
        raise FieldError(field, f"only a Duel replenish draws tokens; this is a {state.game} position")
    if len(msg.drawn_tokens) > MAX_NOTATION:
        raise FieldError(field, f"at most {MAX_NOTATION} characters, got {len(msg.drawn_tokens)}")
    return convert_duel.drawn_tokens(msg.drawn_tokens, field)


def check_count(moves, field: str) -> None:
    if len(moves) > MAX_MOVES:
        raise FieldError(field, f"at most {MAX_MOVES} moves in one request, got {len(moves)}")


def encode_threats(threats: list[tuple[int, list[int]]]) -> list[pb.SeatBuys]:
    """LegalActions' ``threats`` (``steps.threats``: per seat, the cards it could buy next turn)."""
    return [pb.SeatBuys(seat=seat, cards=cards) for seat, cards in threats]


# ------------------------------------------------------------------------------ searches
STOP_REASONS = {"iterations": pb.STOP_REASON_ITERATIONS, "time": pb.STOP_REASON_TIME,
                "deadline": pb.STOP_REASON_DEADLINE, "cancelled": pb.STOP_REASON_CANCELLED,
                "forced": pb.STOP_REASON_FORCED}


def stop_reason(result, plan) -> pb.StopReason:
    if result.cancelled:
        return pb.STOP_REASON_CANCELLED
    if result.out_of_time:
        return pb.STOP_REASON_DEADLINE if plan.deadline_bound else pb.STOP_REASON_TIME
    return pb.STOP_REASON_ITERATIONS


def _line(position: dict, line, reasons: list[pb.Reason]) -> pb.Line:
    """A candidate line of a search of ``position``: its move, made once (the first move of its
    principal variation too), and the rest of the variation, each move played in the position the
    search's own replay of it went through (``ActionStats.pv_steps``)."""
    convert = CONVERTERS[position["game"]]  # a step's position is None for a move the same everywhere
    move = convert.encode_move(position, line.action, line.move)
    steps = list(zip(line.pv_steps, line.pv))
    pv = [move] if steps and steps[0][0][1] == line.action else []
    pv += [convert.encode_move(p, action, text) for (p, action), text in steps[len(pv):]]
    return pb.Line(move=move, visits=line.visits, win_probability=line.value, prior=line.prior, pv=pv,
                   proven=line.proven, proven_in=line.proven_in, reasons=reasons)


# the wire's ReasonCode of each code of the closed list (the same order: a test keeps them)
REASON_CODES = {c.name: pb.ReasonCode.Value(f"REASON_CODE_{c.name}") for c in reasons.CODES}


def encode_reason(reason, game: str, move=None) -> pb.Reason:
    """A ``reasons.Reason`` as a message: its code, its sentence and its subjects (``move``: the
    reason's move, encoded by the caller, which knows the position it is played in)."""
    out = pb.Reason(code=REASON_CODES[reason.code], text=reasons.sentence(reason, game), good=reason.good,
                    card=reason.card, piece=reason.piece, seat=reason.seat, points=reason.points,
                    turns=reason.turns, count=reason.count)
    if reason.colour is not None:
        out.color = spec(game).TOKEN_NAMES[reason.colour]
    if move is not None:
        out.move.CopyFrom(move)
    return out


def encode_stats(searched, result, lines: int, reason: pb.StopReason, why: dict | None = None) -> pb.SearchStats:
    """The statistics of a search of ``searched`` (running when ``reason`` is unspecified);
    ``why``: each shown line's reasons by action (``reasons.explain_move``), when there are."""
    pos = searched.to_position()
    shown = result.actions[:lines] if lines else result.actions
    why = why or {}
    return pb.SearchStats(
        seat=result.seat, win_probability=result.win_probability,
        lines=[_line(pos, a, [encode_reason(r, searched.game) for r in why.get(a.action, ())]) for a in shown],
        iterations=result.iterations, nodes=result.nodes, elapsed_seconds=result.elapsed,
        iterations_per_second=result.iterations_per_second, tree_bytes=result.tree_bytes,
        node_limit_hit=result.node_limit_hit, stop_reason=reason,
    )


def encode_evaluator(evaluator) -> pb.Evaluator | None:
    """A ``search.Evaluator`` (kind, the net's file name, its checksum) as a message."""
    if evaluator is None:
        return None
    return pb.Evaluator(kind=evaluator.kind, net=evaluator.net, checksum=evaluator.checksum)


def effective_options(plan, evaluator=None) -> pb.EffectiveOptions:
    """The options a SearchPlan runs with; ``evaluator``: the search's (``search.Evaluator``), when known."""
    return pb.EffectiveOptions(
        limits=pb.SearchLimits(iterations=plan.iterations, time_ms=round(plan.seconds * 1000)),
        threads=plan.threads, seed=plan.seed, temperature=plan.temperature, level=plan.level,
        evaluator=encode_evaluator(evaluator), priority=plan.priority)


def game_options(plan) -> pb.GameAnalysisOptions:
    """The options a GamePlan runs with."""
    o = plan.options
    return pb.GameAnalysisOptions(iterations=o.iterations, threads=o.threads, seed=o.seed,
                                  played_visits=o.min_played_visits, mistake=o.mistake, blunder=o.blunder,
                                  evaluator=encode_evaluator(plan.evaluator), priority=pb.PRIORITY_BATCH)


def encode_turn(request_id: str, turn, plan) -> pb.GetMoveResponse:
    """A ``search.turns.Turn`` as GetMove's answer."""
    out = pb.GetMoveResponse(
        request_id=request_id, turn_complete=turn.complete, options=effective_options(plan, turn.evaluator),
        moves=[encode_move(d.searched.to_position(), d.action) for d in turn.decisions],
        searches=[encode_stats(d.searched, d.result, plan.lines, STOP_REASONS[d.stop]) for d in turn.decisions],
        incomplete_reason=turn.stopped or "", turn_elapsed_ms=min(round(turn.elapsed * 1000), 2**32 - 1),
    )
    if turn.complete and turn.reveals is None:  # after a hidden draw the view cannot know the position
        out.position.CopyFrom(encode_position(turn.state))
        out.status.CopyFrom(encode_status(turn.state))
    return out


# ------------------------------------------------------------------------------ game analysis
MARKS = {"": pb.MARK_NONE, "mistake": pb.MARK_MISTAKE, "blunder": pb.MARK_BLUNDER}


def encode_verdict(plan, verdict: dict) -> pb.DecisionVerdict:
    """A verdict of ``analysis.judge`` (moves in notation) as a message."""
    state = plan.states[verdict["index"]]
    view = state.view(verdict["seat"])
    view_pos, full_pos = view.to_position(), state.to_position()

    def move(text: str, position, s) -> pb.Move:
        return encode_move(position, s.string_to_action(text))

    return pb.DecisionVerdict(
        index=verdict["index"], turn=verdict["turn"], seat=verdict["seat"],
        played=move(verdict["move"], full_pos, state), best=move(verdict["best"], view_pos, view),
        played_value=verdict["value"], best_value=verdict["best_value"], drop=verdict["drop"],
        mark=MARKS[verdict["mark"]], forced=verdict["forced"], played_visits=verdict["visits"],
        extra_visits=verdict["extra_visits"],
        top=[pb.Alternative(move=move(t["move"], view_pos, view), visits=t["visits"], win_probability=t["value"])
             for t in verdict["top"]],
        win_probability=verdict["win_probability"],
        reasons=[_verdict_reason(d, state.game, verdict, lambda text: move(text, full_pos, state),
                                 lambda text: move(text, view_pos, view)) for d in verdict.get("reasons", ())],
    )


def _verdict_reason(data: dict, game: str, verdict: dict, played, other) -> pb.Reason:
    """A verdict's reason (its dict form): the move it names is the played one (encoded in the full
    position) or the better one (in the mover's view)."""
    reason = reasons.Reason.from_dict(data)
    named = None
    if reason.move is not None:
        named = played(reason.move) if reason.move == verdict["move"] else other(reason.move)
    return encode_reason(reason, game, named)


def encode_seat_summary(s: dict) -> pb.SeatSummary:
    """One seat's figures (``analysis.seat_summary``); the estimate only where the seat has one."""
    est = s.get("estimate")
    return pb.SeatSummary(
        seat=s["seat"], decisions=s["decisions"], forced=s["forced"], accuracy=s["accuracy"] or 0.0,
        mistakes=s["mistakes"], blunders=s["blunders"], mean_drop=s["mean_drop"] or 0.0, agreed=s["agreed"],
        loss_per_decision=s.get("loss_per_decision") or 0.0, given_away=s.get("given_away") or 0.0,
        estimate=None if not est else pb.LevelEstimate(
            level=est["level"], level_low=est["level_low"], level_high=est["level_high"], elo=est["elo"],
            elo_low=est["elo_low"], elo_high=est["elo_high"], decisions=est["decisions"],
            calibrated_iterations=est["calibrated_iterations"], off_budget=est["off_budget"]))


def encode_game_summary(request_id: str, plan, verdicts: list[dict], seats: list[dict]) -> pb.AnalyzeGameResponse:
    """The final message: the per-seat summary (``analysis.seat_summary``) and the status after
    the last move."""
    last = plan.states[-1]
    return pb.AnalyzeGameResponse(
        request_id=request_id, sequence=len(verdicts), final=True, done=len(verdicts), total=len(plan.moves),
        seats=[encode_seat_summary(s) for s in seats],
        status=encode_status(last), options=game_options(plan))
