// Playing by clicking the board. A click picks a game object; the legal moves that use
// everything picked so far are the candidates. One candidate that the pick describes fully is
// played at once; otherwise a small chooser lists the candidates (a card that can be bought or
// reserved, a payment to choose, the lines of tokens through a cell, ...). Tokens and Duel's
// cells add up: tap w, u, g to take those three. A card the player cannot buy never plays at
// once: the chooser offers to reserve it where a reserve of it is legal, or says that it can be
// neither bought nor reserved now (all read from the legal moves, never from a copy of the rules).
//
// What a click can pick (the data-* attributes board.js sets):
//   a card (on the board or your reserve)    buy / reserve it (Duel: its gold-reserve follows)
//   a deck                                    reserve its top card blind
//   a noble, royal or location on the board   claim it
//   Duel's bag                                replenish the board
//   a token of the supply (base, Marvel)      take tokens (add up)
//   one of your tokens                        return it (base, Marvel) / discard it (Duel)
//   an opponent's token (Duel)                steal it
//   one of your bonuses (Duel)                the colour a joker takes
//   a cell of Duel's board                    take a line / use a privilege / take gold / the take-token ability

import { GAMES } from "./board.js";

// The move kinds each kind of token pick can mean, per game.
const TOKEN_KINDS = {
  base: { supply: ["take"], own: ["return"] },
  marvel: { supply: ["take"], own: ["return"] },
  duel: { own: ["discard"], opponent: ["steal"], bonuses: ["joker"], cells: ["privilege", "take", "gold", "token"] },
};

/** The move's kind ("buy", "reserve_deck", ...) and its fields for the game. */
export function moveFields(game, move) {
  const s = move[game] || {};
  return { ...s, kind: String(s.kind || "").replace("KIND_", "").toLowerCase() };
}

function tokenCounts(tokens) {
  const out = {};
  for (const [k, n] of Object.entries(tokens || {})) if (n > 0) out[k] = n;
  return out;
}

function countsOf(items) {
  const out = {};
  for (const k of items) out[k] = (out[k] || 0) + 1;
  return out;
}

function contains(big, small) {
  return Object.entries(small).every(([k, n]) => (big[k] || 0) >= n);
}

function sameCounts(a, b) {
  return contains(a, b) && contains(b, a);
}

/**
 * What a click on `target` (an element of the board) picks, or null.
 * Returns {type: "card"|"deck"|"noble"|"bag", value, label} or {type: "tokens"|"cells", area, item, label}.
 */
export function pickOf(game, target, human) {
  const primary = target.closest("[data-card],[data-deck],[data-noble],[data-location],[data-royal],[data-cell],[data-bag]");
  if (primary) {
    const d = primary.dataset;
    if (d.card !== undefined) return { type: "card", value: Number(d.card), label: `card ${d.card}` };
    if (d.deck !== undefined) return { type: "deck", value: Number(d.deck), label: `the level ${d.deck} deck` };
    if (d.bag !== undefined) return { type: "bag", label: "the bag" };
    if (d.cell !== undefined) return { type: "cells", area: "cells", item: Number(d.cell), label: primary.title };
    if (!primary.closest(".top")) return null; // a seat's claimed piece: nothing to do with it
    const id = Number(d.noble ?? d.location ?? d.royal);
    return { type: "noble", value: id, label: primary.title };
  }
  const chip = target.closest("[data-token]");
  if (!chip) return null;
  const key = chip.dataset.token;
  if (chip.closest(".supply-tokens")) return { type: "tokens", area: "supply", item: key, label: key };
  const seat = chip.closest("[data-seat]");
  if (!seat) return null;
  const mine = Number(seat.dataset.seat) === human;
  if (chip.closest(".tokens")) return { type: "tokens", area: mine ? "own" : "opponent", item: key, label: key };
  if (chip.closest(".bonuses") && mine) return { type: "tokens", area: "bonuses", item: key, label: key };
  return null;
}

/** Adds a click's pick to the current selection (tokens and cells add up; anything else replaces). */
export function addPick(selection, pick) {
  if (pick.type !== "tokens" && pick.type !== "cells") return { ...pick, items: [] };
  if (selection && selection.type === pick.type && selection.area === pick.area) {
    const items = [...selection.items];
    if (pick.type === "cells" && items.includes(pick.item)) items.splice(items.indexOf(pick.item), 1); // tap again: unpick
    else items.push(pick.item);
    return { type: pick.type, area: pick.area, items };
  }
  return { type: pick.type, area: pick.area, items: [pick.item] };
}

/** The legal moves that use everything selected, and whether the selection describes each fully. */
export function candidates(game, moves, selection) {
  const out = [];
  for (const m of moves) {
    const f = moveFields(game, m);
    let match = false;
    let exact = false;
    switch (selection.type) {
      case "card":
        match = f.card === selection.value && ["buy", "reserve"].includes(f.kind);
        exact = true;
        break;
      case "deck":
        match = f.kind === "reserve_deck" && f.level === selection.value;
        exact = true;
        break;
      case "noble":
        match = (f.noble ?? f.location ?? f.royal) === selection.value;
        exact = true;
        break;
      case "bag":
        match = f.kind === "replenish";
        exact = true;
        break;
      case "tokens": {
        if (!(TOKEN_KINDS[game][selection.area] || []).includes(f.kind)) break;
        const have = tokenCounts(f.tokens);
        const want = countsOf(selection.items);
        match = contains(have, want);
        exact = match && sameCounts(have, want);
        break;
      }
      case "cells": {
        if (!TOKEN_KINDS[game].cells.includes(f.kind)) break;
        const cells = f.cells || [];
        match = selection.items.every((c) => cells.includes(c));
        exact = match && cells.length === selection.items.length;
        break;
      }
      default:
        break;
    }
    if (match) out.push({ move: m, exact });
  }
  // the moves the selection describes fully first
  return out.sort((a, b) => Number(b.exact) - Number(a.exact));
}

/** A move to play at once (one candidate, fully described), or null: then the chooser. */
export function decided(list) {
  return list.length === 1 && list[0].exact ? list[0].move : null;
}

/**
 * For a tap on a card that no legal move buys: what the chooser says (null: the card can be
 * bought, or the pick is no card). The candidates then are its reserves, if any is legal.
 */
export function cardNote(game, moves, selection, list) {
  if (selection.type !== "card" || list.some((c) => moveFields(game, c.move).kind === "buy")) return null;
  const id = selection.value;
  if (list.length) return `You cannot buy card ${id} now. Reserve it?`;
  const gold = game === "duel" && moves.some((m) => moveFields(game, m).kind === "gold");
  return `You cannot buy or reserve card ${id} now.` +
    (gold ? " To reserve a card, first take a gold (tap a gold on the board)." : "");
}

/** The words of a selection, for the chooser's title. */
export function selectionLabel(game, selection) {
  if (selection.type === "tokens") {
    const names = Object.fromEntries(GAMES[game].tokens.map(([key]) => [key, key]));
    const what = { supply: "take", own: game === "duel" ? "discard" : "return", opponent: "steal", bonuses: "joker colour" }[selection.area];
    return `${what}: ${selection.items.map((k) => names[k] || k).join(" + ")}`;
  }
  if (selection.type === "cells") return `cells ${selection.items.map((i) => `${"abcde"[i % 5]}${Math.floor(i / 5) + 1}`).join(" ")}`;
  return selection.label;
}

/** CSS selectors of the board elements a selection picked (to mark them). */
export function pickedSelectors(selection) {
  if (!selection) return [];
  switch (selection.type) {
    case "card": return [`[data-card="${selection.value}"]`];
    case "deck": return [`[data-deck="${selection.value}"]`];
    case "noble": return [`.top [data-noble="${selection.value}"]`, `.top [data-location="${selection.value}"]`, `.top [data-royal="${selection.value}"]`];
    case "bag": return ["[data-bag]"];
    case "cells": return selection.items.map((c) => `[data-cell="${c}"]`);
    default: return [];
  }
}
