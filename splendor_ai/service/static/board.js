// Drawing the board of each game from a position (the JSON of splendor.v1.Position) and the
// game's catalogue (GetCatalog). Every element that stands for a game object carries its id
// (data-card, data-noble, data-cell, ...) so that clicks can find the moves that use it, and
// tests can read the board back. A card another seat could buy on its next turn (LegalActions'
// `threats`, computed by the server) carries a badge saying so ("seat 1 can buy") and data-threat.

export const GAMES = {
  base: {
    enum: "GAME_BASE", title: "Splendor", players: [2, 3, 4],
    tokens: [["white", "w"], ["blue", "u"], ["green", "g"], ["red", "r"], ["black", "k"], ["gold", "y"]],
  },
  duel: {
    enum: "GAME_DUEL", title: "Splendor Duel", players: [2],
    tokens: [["white", "w"], ["blue", "u"], ["green", "g"], ["red", "r"], ["black", "k"], ["pearl", "p"], ["gold", "y"]],
  },
  marvel: {
    enum: "GAME_MARVEL", title: "Splendor: Marvel", players: [2, 3, 4],
    tokens: [["yellow", "y"], ["red", "r"], ["orange", "o"], ["blue", "b"], ["purple", "p"], ["green", "g"], ["grey", "s"]],
  },
};

// Plain text marks (headless browsers and many systems have no emoji font).
const ABILITY_ICONS = {
  DUEL_ABILITY_EXTRA_TURN: ["↻", "extra turn"], DUEL_ABILITY_BONUS_WILD: ["★", "joker: takes a colour you have"],
  DUEL_ABILITY_TAKE_TOKEN: ["+1", "take a token of its colour"], DUEL_ABILITY_TAKE_PRIVILEGE: ["+P", "take a privilege"],
  DUEL_ABILITY_STEAL_TOKEN: ["steal", "steal a token"],
};

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/** The colour name of a catalogue colour enum: "COLOR_RED" -> "red", "DUEL_COLOR_JOKER" -> "joker". */
export function colorName(value) {
  return String(value || "").replace(/^(DUEL_|MARVEL_)?COLOR_/, "").toLowerCase();
}

export function chips(game, tokens, { zeros = false, cls = "" } = {}) {
  const out = el("span", { class: `chips ${cls}` });
  for (const [key] of GAMES[game].tokens) {
    const n = (tokens && tokens[key]) || 0;
    if (n || zeros) out.append(el("span", { class: `chip t-${key}`, title: key, "data-token": key, text: String(n) }));
  }
  return out;
}

export class Catalog {
  constructor(game, response) {
    const cat = response[game];
    this.game = game;
    this.cards = new Map((cat.cards || []).map((c) => [c.id, c]));
    this.nobles = new Map((cat.nobles || []).map((n) => [n.id, n]));
    this.royals = new Map((cat.royals || []).map((r) => [r.id, r]));
    this.locations = new Map((cat.locations || []).map((l) => [l.id, l]));
  }
}

/** "seat 1" / "seats 1, 2": who could buy a card next turn. */
function buyers(seats) {
  return `${seats.length > 1 ? "seats" : "seat"} ${seats.join(", ")}`;
}

function cardView(game, catalog, id, extra = {}, threats = null) {
  if (id < 0) return el("div", { class: "card empty-slot", title: "empty: the deck ran out" });
  const c = catalog.cards.get(id);
  if (!c) return el("div", { class: "card unknown", text: "?" });
  const color = colorName(c.color);
  // The id, as the moves name the card ("buy 61", "reserve 61").
  const top = el("div", { class: "card-top" }, el("span", { class: "pts", text: c.points ? String(c.points) : "" }),
    el("span", { class: "card-id", title: `card ${id}`, text: String(id) }));
  if (game === "duel") {
    if (c.crowns) top.append(el("span", { class: "crowns", title: `${c.crowns} crown(s)`, text: "♛".repeat(c.crowns) }));
    if (c.bonus) top.append(el("span", { class: `gem t-${color}`, title: `bonus ${c.bonus}`, text: c.bonus > 1 ? "×2" : "" }));
  } else {
    top.append(el("span", { class: `gem t-${color}`, title: `bonus ${color}` }));
  }
  const body = el("div", { class: "card-body" });
  if (game === "marvel") {
    body.append(el("div", { class: "name", text: c.name }));
    const marks = el("div", { class: "icons" });
    for (let i = 0; i < (c.avengers || 0); i++) marks.append(el("span", { class: "mark avengers", title: "Avengers icon", text: "A" }));
    if (c.timeStone) marks.append(el("span", { class: "mark t-green", title: "Time Stone", text: "T" }));
    body.append(marks);
  }
  if (game === "duel" && c.abilities && c.abilities.length) {
    body.append(el("div", { class: "icons" }, c.abilities.map((a) => el("span", { title: ABILITY_ICONS[a]?.[1] || a, text: ABILITY_ICONS[a]?.[0] || "?" }))));
  }
  const seats = threats?.get(id);
  if (seats) body.append(el("span", { class: "threat-badge", text: `${buyers(seats)} can buy` }));
  return el("div", { class: `card c-${color}${seats ? " threat" : ""}`, "data-card": id, "data-level": c.level,
    "data-threat": seats ? seats.join(",") : null,
    title: seats ? `card ${id}: ${buyers(seats)} can buy it on the next turn` : `card ${id}`, ...extra },
    top, body, chips(game, c.cost, { cls: "cost" }));
}

function cardBack(level, extra = {}) {
  return el("div", { class: `card back l${level}`, "data-level": level, ...extra }, el("span", { text: `level ${level}` }));
}

function seatName(seat, human, level) {
  return seat === human ? "You" : `AI (level ${level})`;
}

function boardRows(game, catalog, rows, deckSizes, threats) {
  const out = el("div", { class: "rows" });
  for (let level = rows.length; level >= 1; level--) {
    const row = el("div", { class: "row", "data-row": level });
    row.append(el("div", { class: `deck l${level}`, "data-deck": level, title: `level ${level} deck` },
      el("span", { class: "deck-level", text: "I".repeat(level) }),
      el("span", { class: "deck-size", text: String(deckSizes[level - 1] ?? 0) })));
    for (const id of rows[level - 1].cards || []) row.append(cardView(game, catalog, id, {}, threats));
    out.append(row);
  }
  return out;
}

function reservedView(game, catalog, reserved, own, threats) {
  return el("div", { class: "reserved" }, (reserved || []).map((r) =>
    r.card !== undefined && (own || !r.blind)
      ? cardView(game, catalog, r.card, { "data-reserved": "" }, threats)
      : cardBack(r.level || catalog.cards.get(r.card)?.level || 1, { "data-reserved": "" })));
}

function nobleView(catalog, id) {
  const n = catalog.nobles.get(id);
  return el("div", { class: "noble", "data-noble": id, title: `noble ${id}` },
    el("span", { class: "pts", text: String(n?.points ?? "") }), chips("base", n?.requires, { cls: "cost" }));
}

function locationView(catalog, id) {
  const l = catalog.locations.get(id);
  return el("div", { class: "noble location", "data-location": id, title: `location ${id}` },
    el("span", { class: "pts", text: String(l?.points ?? "") }), el("span", { class: "name", text: l?.name || "" }),
    chips("marvel", l?.requires, { cls: "cost" }));
}

function royalView(catalog, id) {
  const r = catalog.royals.get(id);
  return el("div", { class: "noble royal", "data-royal": id, title: `royal ${id}` },
    el("span", { class: "pts", text: String(r?.points ?? "") }), el("span", { text: "♚" }),
    el("span", { class: "icons" }, (r?.abilities || []).map((a) => el("span", { class: "mark", title: ABILITY_ICONS[a]?.[1] || a, text: ABILITY_ICONS[a]?.[0] || "" }))));
}

function duelBoard(p) {
  const letters = GAMES.duel.tokens;
  const grid = el("div", { class: "duel-board" });
  for (let i = 0; i < 25; i++) {
    const kind = (p.board || [])[i];
    const name = `${"abcde"[i % 5]}${Math.floor(i / 5) + 1}`;
    const key = kind >= 0 ? letters[kind][0] : "empty";
    grid.append(el("div", { class: `cell t-${key}`, "data-cell": i, "data-token": key, title: name },
      el("span", { class: "cell-name", text: name })));
  }
  return grid;
}

function seatView(game, catalog, p, seat, { human, level, toMove, threats }) {
  const s = p.seats[seat];
  const own = seat === human;
  const head = el("div", { class: "seat-head" },
    el("strong", { text: seatName(seat, human, level) }), el("span", { class: "seat-no", text: ` seat ${seat}` }),
    el("span", { class: "points", "data-points": s.points || 0, text: `${s.points || 0} points` }));
  if (game === "duel") {
    head.append(el("span", { class: "crowns", text: ` ♛ ${s.crowns || 0}` }), el("span", { class: "privileges", title: "privileges", text: ` privileges ${s.privileges || 0}` }));
  }
  if (game === "marvel") {
    head.append(el("span", { class: "icons", title: "Avengers icons", text: ` A-icons ${s.avengersIcons || 0}` }));
    if (p.avengers === seat) head.append(el("span", { class: "badge", text: "Avengers tile (+3)" }));
    if (s.meetsGauntlet) head.append(el("span", { class: "badge", text: "Infinity Gauntlet" }));
  }
  // The claimed pieces, in a row of their own (shown once the seat has one).
  const claimed = game === "base" ? ["nobles", (s.nobles || []).map((id) => nobleView(catalog, id))]
    : game === "marvel" ? ["locations", (s.locations || []).map((id) => locationView(catalog, id))]
      : ["royals", (s.royals || []).map((id) => royalView(catalog, id))];
  const extras = claimed[1].length
    ? el("div", { class: "line claimed" }, el("span", { class: "label", text: `${claimed[0]} (${claimed[1].length})` }),
      el("div", { class: "seat-extras" }, claimed[1]))
    : null;
  return el("section", { class: `seat${own ? " human" : ""}${toMove === seat ? " to-move" : ""}`, "data-seat": seat },
    head,
    el("div", { class: "line" }, el("span", { class: "label", text: "tokens" }), chips(game, s.tokens, { zeros: true, cls: "tokens" })),
    el("div", { class: "line" }, el("span", { class: "label", text: "bonuses" }), chips(game, s.bonuses, { cls: "bonuses" })),
    el("div", { class: "line" }, el("span", { class: "label", text: `reserved (${(s.reserved || []).length})` }), reservedView(game, catalog, s.reserved, own, threats)),
    extras);
}

/** The whole board as a DOM tree. options: {human, level, toMove, threats} (threats: card id ->
 * the seats that could buy it on their next turn, or null). */
export function renderBoard(game, catalog, position, options) {
  const p = position[game];
  const root = el("div", { class: `board game-${game}`, "data-game": game });
  const top = el("div", { class: "top" });
  if (game === "base") top.append(el("div", { class: "nobles" }, (p.nobles || []).map((id) => nobleView(catalog, id))));
  if (game === "marvel") {
    top.append(el("div", { class: "nobles" }, (p.locations || []).map((id) => locationView(catalog, id))));
    top.append(el("div", { class: "badge", text: p.avengers === undefined ? "Avengers tile: free (3 icons)" : `Avengers tile: seat ${p.avengers}` }));
  }
  if (game === "duel") top.append(el("div", { class: "nobles" }, (p.royals || []).map((id) => royalView(catalog, id))));
  root.append(top);
  const middle = el("div", { class: "middle" });
  middle.append(boardRows(game, catalog, game === "duel" ? p.pyramid : p.board, p.deckSizes || [], options.threats));
  if (game === "duel") {
    middle.append(el("div", { class: "supply" }, duelBoard(p),
      el("div", { class: "line bag", "data-bag": "", title: "the bag (replenish the board from it)" }, el("span", { class: "label", text: "bag" }), chips("duel", p.bagContents, { cls: "bag" }),
        Object.values(p.bagContents || {}).some((n) => n > 0) ? null : el("span", { class: "label", text: "empty" })),
      el("div", { class: "line" }, el("span", { class: "label", text: `privileges left: ${p.privileges || 0}` }))));
  } else {
    middle.append(el("div", { class: "supply" }, el("span", { class: "label", text: "supply" }), chips(game, p.supply, { zeros: true, cls: "supply-tokens" })));
  }
  root.append(middle);
  root.append(el("div", { class: "seats" }, p.seats.map((_, seat) => seatView(game, catalog, p, seat, options))));
  return root;
}

/** What a move is about, for the board's clicks: card, deck, noble, cells, tokens. */
export function moveSubjects(game, move) {
  const s = move[game] || {};
  return {
    kind: (s.kind || "").replace("KIND_", "").toLowerCase(),
    card: s.card, level: s.level, noble: s.noble ?? s.location ?? s.royal, cells: s.cells || [],
    tokens: Object.entries(s.tokens || {}).filter(([, n]) => n > 0).map(([k]) => k),
  };
}
