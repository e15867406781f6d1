"""Splendor Duel's facts: its three victories (20 points, 10 crowns, 10 points of one colour:
WINS_GAME, COLOUR_POINTS, CROWNS), royal cards (GAINS_ROYAL), privileges given and gained,
extra turns, the board's tokens, and the opponent's next turn (which may use its privileges on
the board before it buys).

A move after which the rest of the turn is too open to enumerate (a privilege used, a
replenish: the mandatory action still to come, or a board drawn from the bag in an order the
mover does not know) gets no claim about the opponent's next turn; a privilege is explained by
what it lets the mover buy this turn (TOWARD_CARD, 0 turns) and a win it allows.
"""
from __future__ import annotations

import random
from typing import Any

from ..games.duel import spec
from ..games.errors import PositionError
from ..games.registry import load
from .common import MAX_NODES, SEED, sole_win, turn_of, wins_in_turn
from .vocabulary import Reason

JOKER = spec.JOKER
OPEN = ("privilege", "replenish")  # moves whose turn's ends are not enumerated
GAINS_TOKENS = ("take", "gold", "token", "steal")


def _board_key(pos: dict) -> tuple:
    return tuple(tuple(row) for row in pos["board"])


class DuelFacts:
    spec = spec

    def __init__(self):
        self._boards: dict[tuple, tuple] = {}

    def board(self, pos: dict) -> tuple[list[list[int]], set[tuple[int, ...]]]:
        """Of the board in ``pos``: the cells holding each gem or pearl kind, and the tokens
        (per kind) each line a take may take gives (a small cache by board)."""
        key = _board_key(pos)
        if key not in self._boards:
            if len(self._boards) > 256:
                self._boards.clear()
            cells: list[list[int]] = [[] for _ in range(6)]
            for c in range(spec.CELLS):
                k = pos["board"][c // spec.SIZE][c % spec.SIZE]
                if 0 <= k <= spec.PEARL:
                    cells[k].append(c)
            ok = {c for k in range(6) for c in cells[k]}
            lines: set[tuple[int, ...]] = set()
            for line in spec.LINES:
                if all(c in ok for c in line):
                    got = [0] * 6
                    for c in line:
                        got[pos["board"][c // spec.SIZE][c % spec.SIZE]] += 1
                    lines.add(tuple(got))
            self._boards[key] = (cells, lines)
        return self._boards[key]

    @staticmethod
    def face_up(pos: dict) -> list[int]:
        return [c for row in pos["pyramid"] for c in row if c >= 0]

    @staticmethod
    def reserved(pos: dict, seat: int) -> list[int]:
        return [r["card"] for r in pos["seats"][seat]["reserved"] if r["card"] is not None]

    def visible(self, pos: dict, mover: int) -> set[int]:
        out = set(self.face_up(pos))
        for i, s in enumerate(pos["seats"]):
            out.update(s["cards"])
            out.update(r["card"] for r in s["reserved"] if r["card"] is not None and (i == mover or not r["blind"]))
        return out

    @staticmethod
    def price(cid: int, bonus) -> list[int]:
        cost = spec.CARDS[cid].cost
        return [max(0, cost[k] - (bonus[k] if k < 5 else 0)) for k in range(6)]

    @staticmethod
    def short(cid: int, tokens, bonus) -> int:
        """Gold beyond what the seat holds that ``cid`` would need (``price`` less the tokens,
        summed, less the gold): written out, as it runs for every card on every end of a turn."""
        cost = spec.CARDS[cid].cost
        out = 0
        for k in range(5):
            p = cost[k] - bonus[k] - tokens[k]
            if p > 0:
                out += p
        p = cost[5] - tokens[5]
        return (out + p if p > 0 else out) - tokens[spec.GOLD]

    @staticmethod
    def buyable_kind(cid: int, bonus) -> bool:
        """'A joker card can only be bought by a player who owns at least one card with a bonus colour.'"""
        return spec.CARDS[cid].color != JOKER or sum(bonus) > 0

    @staticmethod
    def target(pos: dict, seat: int, cid: int) -> int | None:
        for lv, row in enumerate(pos["pyramid"]):
            if cid in row:
                return spec.SLOT_OFFSET[lv] + row.index(cid)
        for i, r in enumerate(pos["seats"][seat]["reserved"]):
            if r["card"] == cid:
                return spec.PYRAMID + i
        return None

    # ------------------------------------------------------------------ the facts
    def facts(self, ctx, action: int) -> list[Reason]:
        pos, m = ctx.pos, ctx.mover
        kind = spec.action_kind(action)
        after = ctx.after(action)
        apos = after.to_position()
        ends = ctx.ends(action, open_ended=kind in OPEN)
        seat0, seat1 = pos["seats"][m], apos["seats"][m]
        opp0, opp1 = pos["seats"][1 - m], apos["seats"][1 - m]
        out = self.outcome(ctx, after, ends)
        if kind in ("buy", "royal") and ends and any(
                not e.is_terminal() and e.current_player() == m and turn_of(e) == ctx.turn + 1 for e in ends):
            out.append(Reason("EXTRA_TURN"))
        if opp1["privileges"] > opp0["privileges"]:
            out.append(Reason("GIVES_PRIVILEGE", seat=1 - m, count=opp1["privileges"]))
        if seat1["privileges"] > seat0["privileges"]:
            out.append(Reason("GAINS_PRIVILEGE", count=seat1["privileges"]))
        if kind == "buy":
            out += self.buy_facts(ctx, action, after, apos)
        elif kind == "joker":
            out += self.joker_facts(ctx, action - spec.JOKER_COLOR, apos)
        elif kind == "royal":
            rid = action - spec.ROYAL
            out.append(Reason("SCORES", piece=rid, points=spec.ROYALS[rid].points, count=after.points(m)))
        elif kind == "discard":
            out += self.least_needed(ctx, action - spec.DISCARD)
        if after.phase() == "discard" and kind != "discard":
            out.append(Reason("OVER_TOKEN_LIMIT", count=sum(seat1["tokens"]) - spec.TOKEN_LIMIT))
        taken = self.taken_face_up(pos, action, kind)
        if taken is not None:
            out += self.threat_facts(ctx, taken)
        if kind in ("take", "gold") and pos["phase"] in ("main", "mandatory"):
            out += self.free_buys(ctx)
        out += self.toward(ctx, action, kind, after, apos, ends)
        out += self.reply_facts(ctx, ends)
        return out

    @staticmethod
    def taken_face_up(pos: dict, action: int, kind: str) -> int | None:
        if kind == "reserve":
            slot = action - spec.RESERVE
        elif kind == "buy" and spec.split_buy(action)[0] < spec.PYRAMID:
            slot = spec.split_buy(action)[0]
        else:
            return None
        return spec.target_card(pos, slot)

    def outcome(self, ctx, after, ends) -> list[Reason]:
        """WINS_GAME: the mover can end its turn meeting a victory condition."""
        m = ctx.mover
        if ends is not None:
            won = next((e for e in ends if sole_win(e, m)), None)
        else:
            won = self.find_win(after, m, ctx.turn)
        if won is None:
            return []
        seat = won.to_position()["seats"][m]
        if spec.seat_points(seat) >= spec.WIN_POINTS:
            return [Reason("WINS_GAME", points=spec.seat_points(seat))]
        if spec.seat_crowns(seat) >= spec.WIN_CROWNS:
            return [Reason("WINS_GAME", count=spec.seat_crowns(seat))]
        cp = spec.color_points(seat)
        best = max(range(5), key=lambda c: cp[c])
        return [Reason("WINS_GAME", colour=best, points=cp[best])]

    def find_win(self, state, seat: int, turn: int):
        """A state where ``seat`` has won within its turn ``turn``, or None: a search of the
        rest of its turn in which only privileges and buys (of the mandatory actions) can lead
        to a victory, the other actions changing no points, crowns or colours."""
        stack = [state]
        seen: set[bytes] = set()
        while stack:
            s = stack.pop()
            if s.is_terminal():
                if sole_win(s, seat):
                    return s
                continue
            if s.current_player() != seat or turn_of(s) != turn:
                continue
            key = s._state_bytes()
            if key in seen or len(seen) > MAX_NODES:
                continue
            seen.add(key)
            phase = s.phase()
            for a in s.search_actions():
                if phase in ("main", "mandatory") and spec.action_kind(a) not in ("privilege", "buy"):
                    continue
                t = s.clone()
                t.apply_action(a)
                stack.append(t)
        return None

    def buy_facts(self, ctx, action: int, after, apos: dict) -> list[Reason]:
        pos, m = ctx.pos, ctx.mover
        cid = spec.target_card(pos, spec.split_buy(action)[0])
        assert cid is not None, "a legal buy's card is one the mover sees"
        card = spec.CARDS[cid]
        seat0 = pos["seats"][m]
        out = []
        if card.points:
            out.append(Reason("SCORES", card=cid, points=card.points, count=after.points(m)))
        if card.points and card.color < 5:
            out.append(Reason("COLOUR_POINTS", colour=card.color,
                              points=spec.color_points(apos["seats"][m])[card.color]))
        if card.crowns:
            crowns = spec.seat_crowns(seat0) + card.crowns
            out.append(Reason("CROWNS", count=crowns))
            due = sum(crowns >= t for t in spec.CROWN_THRESHOLDS) - len(seat0["royals"])
            if due > 0 and pos["royals"]:
                out.append(Reason("GAINS_ROYAL", count=crowns))
        bonus0 = spec.bonuses(seat0)
        others = [x for x in self.face_up(pos) + self.reserved(pos, m) if x != cid]
        if card.color < 5 and card.bonus:
            out += self.needed(card.color, bonus0, others)
        default = spec.payment(card.cost, bonus0, seat0["tokens"], 0)
        assert default is not None, "a legal buy can be paid the default way (gold only for the shortfall)"
        paid = sum(default)
        for x in others:
            other = spec.CARDS[x]
            if other.points > card.points and self.buyable_kind(x, bonus0):
                p = spec.payment(other.cost, bonus0, seat0["tokens"], 0)
                if p is not None and sum(p) <= paid:
                    out.append(Reason("BETTER_BUY_PASSED", card=x, points=other.points - card.points))
        return out

    @staticmethod
    def needed(colour: int, bonus0, others) -> list[Reason]:
        n = sum(spec.CARDS[x].cost[colour] > bonus0[colour] for x in others)
        return [Reason("NEEDED_BONUS", colour=colour, count=n)] if n else []

    def joker_facts(self, ctx, colour: int, apos: dict) -> list[Reason]:
        pos, m = ctx.pos, ctx.mover
        cid = pos["pending_card"]
        out = self.needed(colour, spec.bonuses(pos["seats"][m]), self.face_up(pos) + self.reserved(pos, m))
        if spec.CARDS[cid].points:
            out.append(Reason("COLOUR_POINTS", colour=colour, points=spec.color_points(apos["seats"][m])[colour]))
        return out

    def least_needed(self, ctx, kind: int) -> list[Reason]:
        pos, m = ctx.pos, ctx.mover
        tokens, bonus = pos["seats"][m]["tokens"], spec.bonuses(pos["seats"][m])
        cards = self.face_up(pos) + self.reserved(pos, m)
        base = [max(0, self.short(x, tokens, bonus)) for x in cards]

        def hurt(k):
            less = list(tokens)
            less[k] -= 1
            return sum(max(0, self.short(x, less, bonus)) > b for x, b in zip(cards, base))

        legal = [a - spec.DISCARD for a in ctx.view.search_actions()]
        mine = hurt(kind)
        if all(mine <= hurt(k) for k in legal):
            return [Reason("RETURNS_LEAST_NEEDED", colour=kind, count=mine)]
        return []

    def free_buys(self, ctx) -> list[Reason]:
        pos, m = ctx.pos, ctx.mover
        bonus = spec.bonuses(pos["seats"][m])
        return [Reason("PASSES_FREE_BUY", card=x) for x in self.face_up(pos) + self.reserved(pos, m)
                if not any(self.price(x, bonus)) and self.buyable_kind(x, bonus)]

    # ------------------------------------------------------------------ the opponent's turn
    def privilege_plan(self, pos: dict, seat: int, cid: int, bonus: list[int] | None = None) -> list[int] | None:
        """The board cells ``seat`` would use its privileges on to buy ``cid`` at the start of
        its turn in ``pos`` (possibly none), or None when even all its privileges fall short
        (``bonus``: the seat's bonuses, when the caller has them)."""
        s = pos["seats"][seat]
        bonus = spec.bonuses(s) if bonus is None else bonus
        if not self.buyable_kind(cid, bonus):
            return None
        missing = self.short(cid, s["tokens"], bonus)
        if missing > s["privileges"]:
            return None
        cells: list[int] = []
        if missing > 0:
            need = [max(0, p - t) for p, t in zip(self.price(cid, bonus), s["tokens"])]
            by_kind = self.board(pos)[0]
            for k in range(6):
                cells += by_kind[k][:need[k]]
            cells = cells[:min(s["privileges"], missing)]
            if len(cells) < missing:
                return None
        return cells

    def opponent_card(self, state, seat: int, cid: int, pos: dict | None = None,
                      bonus: list[int] | None = None) -> tuple[bool, bool]:
        """In ``state`` (full, ``seat`` to start its turn; ``pos``, ``bonus``: its position and
        the seat's bonuses, when the caller has them): can ``seat`` buy ``cid`` this turn (after
        privileges), and does that win the game (with its best choices after the buy)?"""
        pos = state.to_position() if pos is None else pos
        turn = pos["turn"]
        target = self.target(pos, seat, cid)
        if target is None:
            return False, False
        plan = self.privilege_plan(pos, seat, cid, bonus)
        if plan is None:
            return False, False
        t = state.clone()
        for cell in plan:
            t.apply_action(spec.PRIVILEGE + cell)
        action = spec.buy_action(target, 0)
        if action not in t.search_actions():
            return False, False
        t.apply_action(action)
        return True, wins_in_turn(t, seat, turn)

    def threat_position(self, ctx):
        """The position as the mover found it, its turn passed: the opponent to start its turn
        (a core state of the mover's view, redrawn), or None when that is no valid position."""
        pos = ctx.pos
        t = dict(pos, current=1 - ctx.mover, phase="main", turn=pos["turn"] + 1, extra_turn=False,
                 pending_card=None)
        try:
            state = load("duel", 2, "core").state_from_position(t)
        except PositionError:
            return None
        return state.resample(ctx.mover, random.Random(SEED))

    def threat_facts(self, ctx, cid: int) -> list[Reason]:
        state = self.threat_position(ctx)
        if state is None:
            return []
        can, win = self.opponent_card(state, 1 - ctx.mover, cid)
        out = [Reason("BLOCKS_OPPONENT_WIN", seat=1 - ctx.mover, card=cid)] if win else []
        if can:
            out.append(Reason("DENIES_CARD", seat=1 - ctx.mover, card=cid))
        return out

    def reply_facts(self, ctx, ends) -> list[Reason]:
        if not ends:
            return []
        opp = 1 - ctx.mover
        if any(e.is_terminal() or e.current_player() != opp for e in ends):
            return []
        can_all: set[int] | None = None
        win_all: set[int] | None = None
        groups: dict[tuple, tuple[Any, dict]] = {}  # one (end, its position) per key
        for e in ends:  # ends that differ only in the mover's tokens (what it discarded) and the bag
            epos = e.to_position()
            key = (_board_key(epos), repr(epos["pyramid"]), repr(epos["seats"][opp]), repr(epos["royals"]),
                   epos["privileges"], repr({k: v for k, v in epos["seats"][ctx.mover].items() if k != "tokens"}))
            groups.setdefault(key, (e, epos))
        for e, epos in groups.values():
            can, win = set(), set()
            bonus = spec.bonuses(epos["seats"][opp])
            for cid in ctx.visible.intersection(self.face_up(epos) + self.reserved(epos, opp)):
                c, w = self.opponent_card(e, opp, cid, epos, bonus)
                if c:
                    can.add(cid)
                if w:
                    win.add(cid)
            can_all = can if can_all is None else can_all & can
            win_all = win if win_all is None else win_all & win
        assert can_all is not None and win_all is not None, "ends is not empty: one group at least"
        out = [Reason("LETS_OPPONENT_WIN", seat=opp, card=c) for c in sorted(win_all)]
        out += [Reason("OPPONENT_CAN_BUY", seat=opp, card=c, points=spec.CARDS[c].points) for c in sorted(can_all)]
        return out

    # ------------------------------------------------------------------ toward a card
    def min_turns(self, epos: dict, seat: int, cid: int) -> int | None:
        """1: the seat can buy ``cid`` with the tokens it holds; 2: after one take of a line
        of the board as it is in ``epos``; else None."""
        s = epos["seats"][seat]
        bonus, tokens = spec.bonuses(s), s["tokens"]
        price = self.price(cid, bonus)
        if not self.buyable_kind(cid, bonus) or sum(price) > spec.TOKEN_LIMIT:
            return None
        need = [max(0, p - t) for p, t in zip(price, tokens)]
        short = sum(need) - tokens[spec.GOLD]
        if short <= 0:
            return 1
        if short > 3:
            return None
        for got in self.board(epos)[1]:
            if sum(max(0, n - g) for n, g in zip(need, got)) <= tokens[spec.GOLD]:
                return 2
        return None

    def toward(self, ctx, action: int, kind: str, after, apos: dict, ends) -> list[Reason]:
        pos, m = ctx.pos, ctx.mover
        reserved = spec.target_card(pos, action - spec.RESERVE) if kind == "reserve" else None
        if kind not in GAINS_TOKENS + ("privilege",) and reserved is None:
            return []
        bonus0, tok0 = spec.bonuses(pos["seats"][m]), pos["seats"][m]["tokens"]
        bonus1, tok1 = spec.bonuses(apos["seats"][m]), apos["seats"][m]["tokens"]
        left = set(self.face_up(apos)) | set(self.reserved(apos, m))
        buys = set(after.search_actions()) if kind == "privilege" else set()
        live = [e.to_position() for e in ends or () if not e.is_terminal()]
        out = []
        for x in self.face_up(pos) + self.reserved(pos, m):
            if x not in left:
                continue
            s0, s1 = self.short(x, tok0, bonus0), self.short(x, tok1, bonus1)
            if not (x == reserved or (s0 > 0 and s1 < s0)):
                continue
            if s1 > 0:
                out.append(Reason("CLOSER_TO_CARD", card=x, count=s1))
            if kind == "privilege":
                target = self.target(apos, m, x)
                if target is not None and spec.buy_action(target, 0) in buys:
                    out.append(Reason("TOWARD_CARD", card=x, turns=0))
                continue
            ends_x = [e for e in live if x in self.face_up(e) + self.reserved(e, m)]
            if not ends_x:
                continue
            # 1 turn: on any end of the turn; 2: on the end that kept the most of what x needs (the
            # ends differ only in what was discarded, and a claim from one end is true)
            if any(self.short(x, e["seats"][m]["tokens"], bonus1) <= 0 and self.min_turns(e, m, x) == 1
                   for e in ends_x):
                out.append(Reason("TOWARD_CARD", card=x, turns=1))
                continue
            e = min(ends_x, key=lambda e: self.short(x, e["seats"][m]["tokens"], bonus1))
            if self.min_turns(e, m, x) == 2:
                out.append(Reason("TOWARD_CARD", card=x, turns=2))
        return out


FACTS = DuelFacts()
