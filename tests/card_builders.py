"""Hand-built positions of the games of the base game's shape (base, Marvel) for tests: start
from a deal and move cards and tokens by hand, keeping every card in exactly one place and
every token either in the supply or with a seat. ``CardPositions(game)`` holds the helpers
for one game; each game's test module takes them by name."""
from __future__ import annotations

import random

import pytest

from splendor_ai.games import TERMINAL, load_game
from splendor_ai.games.base import spec as base_spec
from splendor_ai.games.marvel import spec as marvel_spec

SPECS = {"base": base_spec, "marvel": marvel_spec}


def remove_card(pos: dict, cid: int, cards, face_up: str = "board") -> None:
    """Take a card out of its deck, or from its face-up row (``face_up``: "board", Duel's
    "pyramid"), whose slot is refilled from the deck; the deck sizes follow."""
    lv = cards[cid].level - 1
    if cid in pos["decks"][lv]:
        pos["decks"][lv].remove(cid)
    else:
        row = pos[face_up][lv]
        assert cid in row, f"card {cid} is neither in a deck nor face up"
        row[row.index(cid)] = pos["decks"][lv].pop() if pos["decks"][lv] else -1
    pos["deck_sizes"] = [len(d) for d in pos["decks"]]


class CardPositions:
    def __init__(self, game: str):
        self.game = game
        self.spec = SPECS[game]
        self.cards = self.spec.CARDS

    def card_id(self, card) -> int:
        return card

    def fresh(self, players: int = 2, seed: int = 1) -> dict:
        return self.spec.initial_position(players, seed)

    def load(self, impl: str, pos: dict):
        return load_game(self.game, players=pos["players"], impl=impl).state_from_position(pos)

    def _sync_sizes(self, pos: dict) -> None:
        pos["deck_sizes"] = [len(d) for d in pos["decks"]]

    def _remove_card(self, pos: dict, cid: int) -> None:
        remove_card(pos, cid, self.cards)

    def on_board(self, pos: dict, card, slot: int = 0) -> int:
        """Put a card face up in ``slot`` of its level (the card there goes under the deck).
        Returns its buy/reserve target index."""
        cid = self.card_id(card)
        self._remove_card(pos, cid)
        lv = self.cards[cid].level - 1
        old = pos["board"][lv][slot]
        if old >= 0:
            pos["decks"][lv].insert(0, old)
        pos["board"][lv][slot] = cid
        self._sync_sizes(pos)
        return lv * self.spec.SLOTS + slot

    def on_deck_top(self, pos: dict, card) -> None:
        cid = self.card_id(card)
        self._remove_card(pos, cid)
        pos["decks"][self.cards[cid].level - 1].append(cid)
        self._sync_sizes(pos)

    def give_cards(self, pos: dict, seat: int, *cards) -> None:
        for card in cards:
            cid = self.card_id(card)
            self._remove_card(pos, cid)
            pos["seats"][seat]["cards"].append(cid)

    def give_reserved(self, pos: dict, seat: int, *cards, blind: bool = False) -> None:
        for card in cards:
            cid = self.card_id(card)
            self._remove_card(pos, cid)
            pos["seats"][seat]["reserved"].append({"card": cid, "level": self.cards[cid].level, "blind": blind})

    def give_tokens(self, pos: dict, seat: int, **by_letter: int) -> None:
        """Move tokens from the supply to a seat, by the notation's letters (w=2, y=1, ...)."""
        for letter, n in by_letter.items():
            kind = self.spec.LETTERS.index(letter)
            pos["supply"][kind] -= n
            assert pos["supply"][kind] >= 0, f"not enough {self.spec.TOKEN_NAMES[kind]} in the supply"
            pos["seats"][seat]["tokens"][kind] += n

    def of_kind(self, actions, *kinds) -> list[int]:
        return sorted(a for a in actions if self.spec.action_kind(a) in kinds)

    @staticmethod
    def act(state, text: str) -> None:
        state.apply_action(state.string_to_action(text))

    def random_playout_states(self, impl, players: int, seed: int, buy_bias: float = 0.5):
        """Yield (state, action) along one random game (buys favoured, so games end)."""
        rng = random.Random(seed)
        s = load_game(self.game, players=players, impl=impl).new_initial_state(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            buys = self.of_kind(legal, "buy")
            a = rng.choice(buys) if buys and rng.random() < buy_bias else rng.choice(legal)
            yield s, a
            s.apply_action(a)
        yield s, None

    def check_invariants(self, s, totals: list[int]) -> dict:
        """What holds after every action of either game; returns the position for the game's
        own checks: the position is canonical, tokens and cards are conserved, nobody holds
        more than 10 tokens outside its 'return' phase, and the legal actions are sorted with
        PASS only alone."""
        spec = self.spec
        p = s.to_position()
        assert spec.validate_position(p) == p
        for k in range(len(totals)):
            assert p["supply"][k] + sum(x["tokens"][k] for x in p["seats"]) == totals[k]
        places = [c for row in p["board"] for c in row if c >= 0]
        places += [c for d in p["decks"] for c in d]
        for i, x in enumerate(p["seats"]):
            places += x["cards"] + [r["card"] for r in x["reserved"]]
            assert len(x["reserved"]) <= 3
            if p["phase"] != "return" or i != p["current"]:
                assert sum(x["tokens"]) <= 10
        assert sorted(places) == list(range(90))
        assert p["deck_sizes"] == [len(d) for d in p["decks"]]
        if s.is_terminal():
            assert s.current_player() == TERMINAL and s.legal_actions() == []
        else:
            assert s.current_player() == p["current"] and s.phase() == p["phase"]
            legal = s.legal_actions()
            assert legal and legal == sorted(set(legal))
            assert (spec.PASS in legal) == (legal == [spec.PASS])
        return p


def assert_all_rejected(s, bad) -> None:
    """Every (action, (words, why)) of ``bad`` raises IllegalActionError naming both, and
    leaves the state as it was."""
    from splendor_ai.games import IllegalActionError

    before, legal = s.to_position(), s.legal_actions()
    for action, (names, why) in bad:
        with pytest.raises(IllegalActionError) as err:
            s.apply_action(action)
        msg = str(err.value).lower()
        assert names in msg and why in msg, (action, msg)
        assert s.to_position() == before and s.legal_actions() == legal


def rejected_everywhere(spec) -> list:
    """Actions no position accepts: out of range, not integers."""
    return [(-1, ("-1", "")), (spec.NUM_ACTIONS, (str(spec.NUM_ACTIONS), "")), (None, ("", "")),
            (2.0, ("", "")), (True, ("", ""))]
