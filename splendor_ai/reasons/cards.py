"""The facts of the games of the base game's shape (base, Marvel), where their rules agree:
taking, reserving and buying, paying, the token limit, the pieces that come at the end of a turn
(nobles; locations), the end of the game and the next seat's reply. ``base.py`` and
``marvel.py`` name their own pieces' codes and add their own facts.

``CardFacts.facts(ctx, action)`` lists every true fact of one move (docs/reasons.md gives each
code's meaning); ``common.select`` chooses what a hint shows.
"""
from __future__ import annotations

import random
from types import ModuleType
from typing import Any

from ..games.cards.spec import BOARD_TARGETS, RESERVE_BOARD, RETURN, TOKEN_LIMIT, last_seat, taken_tokens
from ..games.errors import PositionError
from ..games.registry import load
from .common import SEED, sole_win, wins_in_turn
from .vocabulary import Reason


class CardFacts:
    """Fact-finding of one game of the base game's shape. A game sets ``spec`` (its spec
    module), the codes of its pieces and their points, and may add ``own_facts``."""

    spec: ModuleType  # the game's spec module (base's, Marvel's): every game sets it
    complete_code = near_code = ""
    green: int | None = None  # Marvel's green token kind: never returned, never pays

    def __init__(self):
        rules = self.spec.RULES
        self.cards = self.spec.CARDS
        self.wild = rules.wild
        self.kinds = rules.kinds
        self.requires = rules.own.requires
        self.own = rules.own.name  # "noble" / "location": the phase and the action kind
        self.pieces_key = self.own + "s"

    def piece_points(self, piece: int) -> int:
        raise NotImplementedError  # pragma: no cover - every game defines it

    def own_facts(self, ctx, action: int, kind: str, after, apos: dict, ends) -> list[Reason]:
        return []

    def end_key(self, pos: dict) -> tuple:
        """What of a position at the end of the mover's turn can change the next seat's reply."""
        return ()

    # ------------------------------------------------------------------ positions
    @staticmethod
    def face_up(pos: dict) -> list[int]:
        return [c for row in pos["board"] for c in row if c >= 0]

    @staticmethod
    def reserved(pos: dict, seat: int) -> list[int]:
        return [r["card"] for r in pos["seats"][seat]["reserved"] if r["card"] is not None]

    def visible(self, pos: dict, mover: int) -> set[int]:
        """The cards the mover sees: face up, bought, its own reserve, the others' face-up ones
        (a view hides the others' blind reserves)."""
        out = set(self.face_up(pos))
        for i, s in enumerate(pos["seats"]):
            out.update(s["cards"])
            out.update(r["card"] for r in s["reserved"] if r["card"] is not None and (i == mover or not r["blind"]))
        return out

    def bonus(self, pos: dict, seat: int) -> list[int]:
        return self.spec.bonuses(pos["seats"][seat]["cards"])

    def price(self, cid: int, bonus) -> list[int]:
        return [max(0, c - b) for c, b in zip(self.cards[cid].cost, bonus)]

    def short(self, cid: int, tokens, bonus) -> int:
        """Tokens missing to buy ``cid``, after the wild ones (0 or less: affordable): ``price``
        less the tokens, summed, written out (it runs for every card on every end of a turn)."""
        out = 0
        for c, b, t in zip(self.cards[cid].cost, bonus, tokens):
            if c - b > t:
                out += c - b - t
        return out - tokens[self.wild]

    def capacity(self, tokens) -> int:
        """Tokens a seat can keep that may pay (the limit less the green it can never return)."""
        return TOKEN_LIMIT - (tokens[self.green] if self.green is not None else 0)

    def target(self, pos: dict, seat: int, cid: int) -> int | None:
        """The buy target of ``cid`` for ``seat``: its board place or ``seat``'s reserve."""
        for lv, row in enumerate(pos["board"]):
            if cid in row:
                return lv * 4 + row.index(cid)
        for i, r in enumerate(pos["seats"][seat]["reserved"]):
            if r["card"] == cid:
                return BOARD_TARGETS + i
        return None

    def deficit(self, bonus, piece: int) -> list[int]:
        return [max(0, r - b) for r, b in zip(self.requires[piece], bonus)]

    # ------------------------------------------------------------------ the facts
    def facts(self, ctx, action: int) -> list[Reason]:
        pos, m = ctx.pos, ctx.mover
        kind = self.spec.action_kind(action)
        after = ctx.after(action)
        apos = after.to_position()
        ends = ctx.ends(action)
        out = self.outcome(ctx, ends)
        if kind == "buy":
            out += self.buy_facts(ctx, action, after)
        elif kind == self.own:
            piece = action - self.spec.RULES.own.first
            out.append(Reason("SCORES", piece=piece, points=self.piece_points(piece), count=after.points(m)))
        if pos["phase"] == "main":
            taken = self.taken_face_up(pos, action, kind)
            if taken is not None:
                out += self.threat_facts(ctx, taken)
            if kind != "buy":
                out += self.free_buys(ctx)
            if kind.startswith("take"):
                out += self.last_tokens(ctx, action, apos)
            out += self.toward(ctx, action, kind, apos, ends)
        out += self.reply_facts(ctx, ends)
        if after.phase() == "return" and kind != "return":
            out.append(Reason("OVER_TOKEN_LIMIT", count=sum(apos["seats"][m]["tokens"]) - TOKEN_LIMIT))
        if kind == "return":
            out += self.least_needed(ctx, action - RETURN)
        out += self.own_facts(ctx, action, kind, after, apos, ends)
        return out

    def taken_face_up(self, pos: dict, action: int, kind: str) -> int | None:
        if kind == "reserve_board":
            t = action - RESERVE_BOARD
        elif kind == "buy":
            t = self.spec.split_buy(action)[0]
            if t >= BOARD_TARGETS:
                return None
        else:
            return None
        cid = pos["board"][t // 4][t % 4]
        return cid if cid >= 0 else None

    def outcome(self, ctx, ends) -> list[Reason]:
        """WINS_GAME, LOSES_GAME, TRIGGERS_END from the ends of the mover's turn."""
        if not ends:
            return []
        m = ctx.mover
        wins = [e for e in ends if sole_win(e, m)]
        if wins:
            return [Reason("WINS_GAME", points=max(e.points(m) for e in wins))]
        if all(e.is_terminal() for e in ends):
            return [Reason("LOSES_GAME")]
        if not ctx.pos["final_round"]:
            hit = [e for e in ends if not e.is_terminal() and e.to_position()["final_round"]]
            if hit:
                return [Reason("TRIGGERS_END", points=max(e.points(m) for e in hit))]
        return []

    def buy_facts(self, ctx, action: int, after) -> list[Reason]:
        pos, m = ctx.pos, ctx.mover
        target = self.spec.split_buy(action)[0]
        cid = self.spec.buy_target_card(pos, target)
        card = self.cards[cid]
        seat = pos["seats"][m]
        bonus0 = self.bonus(pos, m)
        bonus1 = list(bonus0)
        bonus1[card.color] += 1
        out = []
        if card.points:
            out.append(Reason("SCORES", card=cid, points=card.points, count=after.points(m)))
        for piece in pos[self.pieces_key]:
            before, now = sum(self.deficit(bonus0, piece)), self.deficit(bonus1, piece)
            if sum(now) == 0 and before > 0:
                out.append(Reason(self.complete_code, piece=piece, points=self.piece_points(piece)))
            elif sum(now) == 1 and before >= 2:
                out.append(Reason(self.near_code, piece=piece, colour=now.index(1)))
        others = [x for x in self.face_up(pos) + self.reserved(pos, m) if x != cid]
        need = sum(self.cards[x].cost[card.color] > bonus0[card.color] for x in others)
        if need:
            out.append(Reason("NEEDED_BONUS", colour=card.color, count=need))
        paid = self.spec.payment(card.cost, bonus0, seat["tokens"], 0)
        for x in others:
            other = self.cards[x]
            if other.points > card.points:
                p = self.spec.payment(other.cost, bonus0, seat["tokens"], 0)
                if p is not None and sum(p) <= sum(paid):
                    out.append(Reason("BETTER_BUY_PASSED", card=x, points=other.points - card.points))
        return out

    # ------------------------------------------------------------------ the next seat
    def opponent_card(self, state, seat: int, cid: int) -> tuple[bool, bool]:
        """In ``state`` (a full core state, ``seat`` to act, main phase): can ``seat`` buy
        ``cid`` on this turn, and does that buy (with its best choices after it) win the game?"""
        pos = state.to_position()
        turn = pos["turn"]
        target = self.target(pos, seat, cid)
        if target is None:
            return False, False
        action = self.spec.buy_action(target, 0)
        if action not in state.search_actions():
            return False, False
        t = state.clone()
        t.apply_action(action)
        return True, wins_in_turn(t, seat, turn)

    def threat_position(self, ctx):
        """The position as the mover found it, its turn passed: the next seat to act (a core
        state of the mover's view), or None (no next turn, or not a valid position)."""
        pos = ctx.pos
        if pos["final_round"] and ctx.mover == last_seat(pos):
            return None
        t = dict(pos, current=ctx.next_seat, phase="main", turn=pos["turn"] + 1, passes=0)
        try:
            state = load(ctx.game, ctx.players, "core").state_from_position(t)
        except PositionError:
            return None
        return state.resample(ctx.mover, random.Random(SEED))

    def threat_facts(self, ctx, cid: int) -> list[Reason]:
        """The move takes face-up ``cid``: could the next seat, as things stood, buy it (and win)?"""
        state = self.threat_position(ctx)
        if state is None:
            return []
        can, win = self.opponent_card(state, ctx.next_seat, cid)
        out = []
        if win:
            out.append(Reason("BLOCKS_OPPONENT_WIN", seat=ctx.next_seat, card=cid))
        if can:
            out.append(Reason("DENIES_CARD", seat=ctx.next_seat, card=cid))
        return out

    def reply_facts(self, ctx, ends) -> list[Reason]:
        """What the next seat can buy (and win with) on its next turn, whatever the mover's
        remaining choices this turn: cards the mover saw before its move, never a refill."""
        if not ends:
            return []
        seat = ends[0].current_player()
        if seat == ctx.mover or any(e.is_terminal() or e.current_player() != seat for e in ends):
            return []
        can_all: set[int] | None = None
        win_all: set[int] | None = None
        groups: dict[tuple, tuple[Any, dict]] = {}  # one (end, its position) per reply key
        for e in ends:
            epos = e.to_position()
            groups.setdefault(self._reply_key(epos, ctx.mover), (e, epos))
        for e, epos in groups.values():
            can, win = set(), set()
            for cid in ctx.visible.intersection(self.face_up(epos) + self.reserved(epos, seat)):
                c, w = self.opponent_card(e, seat, cid)
                if c:
                    can.add(cid)
                if w:
                    win.add(cid)
            can_all = can if can_all is None else can_all & can
            win_all = win if win_all is None else win_all & win
        assert can_all is not None and win_all is not None, "ends is not empty: one group at least"
        out = [Reason("LETS_OPPONENT_WIN", seat=seat, card=c) for c in sorted(win_all)]
        out += [Reason("OPPONENT_CAN_BUY", seat=seat, card=c, points=self.cards[c].points) for c in sorted(can_all)]
        return out

    def _reply_key(self, epos: dict, mover: int) -> tuple:
        """Ends that differ only in the mover's tokens and the supply (the tokens it returned)
        leave the next seat the same buys: one of them is looked at."""
        seats = tuple((tuple(s["tokens"]) if i != mover else (), tuple(s["cards"]),
                       tuple(r["card"] for r in s["reserved"]), tuple(s[self.pieces_key]))
                      for i, s in enumerate(epos["seats"]))
        return (tuple(map(tuple, epos["board"])), tuple(epos[self.pieces_key]), seats, epos["final_round"],
                self.end_key(epos))

    # ------------------------------------------------------------------ tokens
    def free_buys(self, ctx) -> list[Reason]:
        pos, m = ctx.pos, ctx.mover
        bonus = self.bonus(pos, m)
        return [Reason("PASSES_FREE_BUY", card=x) for x in self.face_up(pos) + self.reserved(pos, m)
                if not any(self.price(x, bonus))]

    def last_tokens(self, ctx, action: int, apos: dict) -> list[Reason]:
        """The take empties a colour of the supply that another seat lacks, and only that
        colour, for a card it sees."""
        pos, m = ctx.pos, ctx.mover
        out = []
        for c in sorted(set(taken_tokens(action))):
            if not (pos["supply"][c] > 0 and apos["supply"][c] == 0):
                continue
            for o in range(ctx.players):
                if o == m:
                    continue
                tokens, bonus = pos["seats"][o]["tokens"], self.bonus(pos, o)
                for x in self.face_up(pos) + self.reserved(pos, o):
                    if self.short(x, tokens, bonus) <= 0:
                        continue
                    more = list(tokens)
                    more[c] = max(more[c], self.price(x, bonus)[c])
                    if self.short(x, more, bonus) <= 0:
                        out.append(Reason("TAKES_LAST_TOKENS", colour=c, seat=o, card=x))
        return out

    def least_needed(self, ctx, kind: int) -> list[Reason]:
        """RETURNS_LEAST_NEEDED: of the kinds the mover may return, ``kind`` makes the fewest
        visible cards harder to buy (their shortfall, counted from 0, grows)."""
        pos, m = ctx.pos, ctx.mover
        tokens, bonus = pos["seats"][m]["tokens"], self.bonus(pos, m)
        cards = self.face_up(pos) + self.reserved(pos, m)
        base = [max(0, self.short(x, tokens, bonus)) for x in cards]

        def hurt(k):
            less = list(tokens)
            less[k] -= 1
            return sum(max(0, self.short(x, less, bonus)) > b for x, b in zip(cards, base))

        legal = [a - RETURN for a in ctx.view.search_actions()]
        mine = hurt(kind)
        if all(mine <= hurt(k) for k in legal):
            return [Reason("RETURNS_LEAST_NEEDED", colour=kind, count=mine)]
        return []

    # ------------------------------------------------------------------ toward a card
    def take_options(self, supply) -> list[list[int]]:
        """The tokens each legal take gives, per colour (the rules of the take actions)."""
        avail = [c for c in range(5) if supply[c] >= 1]
        out = []
        if len(avail) >= 3:
            sets = [s for s in self.spec.TAKE3_SETS if all(supply[c] >= 1 for c in s)]
        else:
            sets = [s for s in self.spec.TAKE2_DIFF_SETS if all(supply[c] >= 1 for c in s)] + [(c,) for c in avail]
        for s in sets:
            v = [0] * 5
            for c in s:
                v[c] = 1
            out.append(v)
        for c in range(5):
            if supply[c] >= 4:
                v = [0] * 5
                v[c] = 2
                out.append(v)
        return out

    def cover(self, need, supply) -> int:
        """The most of ``need`` one take can give from ``supply``."""
        avail = [c for c in range(5) if supply[c] >= 1]
        needed = sum(1 for c in avail if need[c] > 0)
        best = min(3, needed) if len(avail) >= 3 else needed
        for c in range(5):
            if supply[c] >= 4:
                best = max(best, min(2, need[c]))
        return best

    def takes_needed(self, need, wild: int, supply, most: int) -> int | None:
        """The fewest turns of takes (1 or 2, at most ``most``) from ``supply`` (nobody else
        taking) that leave ``need`` (tokens lacking per colour) coverable by ``wild`` wild
        tokens, or None."""
        short = sum(need) - wild
        if short > 3 * most:
            return None
        if short <= self.cover(need, supply):
            return 1
        if most < 2:
            return None
        for v in self.take_options(supply):
            n2 = [max(0, n - x) for n, x in zip(need, v)]
            s2 = [a - x for a, x in zip(supply, v)]
            if sum(n2) - wild <= self.cover(n2, s2):
                return 2
        return None

    def toward(self, ctx, action: int, kind: str, apos: dict, ends) -> list[Reason]:
        """TOWARD_CARD: the move lowers the shortfall of a card the mover sees (or reserves it),
        and the mover can then buy it within 1-3 turns (the game going on to them);
        CLOSER_TO_CARD: the same progress, with the tokens it still lacks right after."""
        pos, m = ctx.pos, ctx.mover
        reserved = None
        if kind == "reserve_board":
            t = action - RESERVE_BOARD
            reserved = pos["board"][t // 4][t % 4]
        tok0, bonus0 = pos["seats"][m]["tokens"], self.bonus(pos, m)
        tok1, bonus1 = apos["seats"][m]["tokens"], self.bonus(apos, m)
        left = set(self.face_up(apos)) | set(self.reserved(apos, m))
        live = [e.to_position() for e in ends or () if not e.is_terminal()]
        live = [e for e in live if not e["final_round"]]
        held = [set(self.face_up(e)) | set(self.reserved(e, m)) for e in live]  # the cards on each end
        out = []
        for x in self.face_up(pos) + self.reserved(pos, m):
            if x not in left:
                continue
            s0, s1 = self.short(x, tok0, bonus0), self.short(x, tok1, bonus1)
            if not (x == reserved or (s0 > 0 and s1 < s0)):
                continue
            if s1 > 0:
                out.append(Reason("CLOSER_TO_CARD", card=x, count=s1))
            turns = self.fewest_turns(ctx, live, x, held) if live else None
            if turns:
                out.append(Reason("TOWARD_CARD", card=x, turns=turns))
        return out

    def fewest_turns(self, ctx, live: list[dict], x: int, held: list[set[int]] | None = None) -> int | None:
        """The turns (1-3) after which the mover can buy ``x`` (1: its next turn), over the ends
        of its turn in ``live``, taking tokens from the supply as it is there (nobody else
        taking) and keeping at most 10, the game going on to that turn: the fewest over every
        end for 1 turn, else on the end that kept the most of what ``x`` needs (with the most
        left to take) for 2 and 3. The ends differ only in the tokens returned and the piece
        chosen, never in the cards. ``held``: the cards face up or reserved by the mover on each
        end, when the caller has them."""
        m = ctx.mover
        if held is None:
            held = [set(self.face_up(e)) | set(self.reserved(e, m)) for e in live]
        ends = [e for e, cards in zip(live, held) if x in cards]
        if not ends:
            return None
        price = self.price(x, self.bonus(ends[0], m))
        if sum(price) > self.capacity(ends[0]["seats"][m]["tokens"]):
            return None  # more than it can hold at once, whatever it takes
        # (tokens lacking per colour, wild tokens, the supply as two takes see it): an end of each
        distinct: dict[tuple[tuple[int, ...], int, tuple[int, ...]], dict] = {}
        for e in ends:
            tokens = e["seats"][m]["tokens"]
            need = tuple(max(0, p - t) for p, t in zip(price, tokens))
            if sum(need) <= tokens[self.wild]:
                return 1
            # what of the supply two takes can tell apart: a needed colour up to 6 (two takes of
            # two from a pile of 4), another up to 3 (whether a token is left for a take of three)
            supply = tuple(min(n, 6) if k else min(n, 3) for n, k in zip(e["supply"][:5], need))
            distinct.setdefault((need, tokens[self.wild], supply), e)
        # Of the ends, those that kept the most of what the card needs (the others returned some
        # of it: more to take, never fewer turns in practice; a claim from one end is true).
        # Of those, the one with the most to take from (what it returned went to the supply).
        fewest = min(sum(need) - wild for need, wild, _ in distinct)
        best = max((k for k in distinct if sum(k[0]) - k[1] == fewest),
                   key=lambda k: (sum(n for n, want in zip(k[2], k[0]) if want), sum(n > 0 for n in k[2])))
        for most in (1, 2):
            for (need, wild, _), e in ((best, distinct[best]),):
                t = self.takes_needed(need, wild, e["supply"], most)
                if t == most and self.goes_on(ctx, e, t):
                    return t + 1
        return None

    def goes_on(self, ctx, epos: dict, takes: int) -> bool:
        """Whether, after ``takes`` more turns of the mover taking tokens (the others passing
        by) from the end of its turn ``epos``, the game still goes on to another turn of the
        mover: a noble it already qualifies for could bring it to 15 points and end the game
        first. Which tokens it takes changes no points, so one take a turn shows it."""
        state_class = type(ctx.view)
        s = state_class.from_position(dict(epos, current=ctx.mover, phase="main"))
        for _ in range(takes):
            takes_here = [a for a in s.search_actions() if self.spec.action_kind(a).startswith("take")]
            if not takes_here:
                return False
            s.apply_action(takes_here[0])
            while not s.is_terminal() and s.current_player() == ctx.mover:
                s.apply_action(s.search_actions()[0])
            if s.is_terminal() or s.to_position()["final_round"]:
                return False
            s = state_class.from_position(dict(s.to_position(), current=ctx.mover, phase="main"))
        return True
