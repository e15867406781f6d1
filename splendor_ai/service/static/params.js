// The page's URL parameters, checked: ?game=duel&players=2&seat=0&level=3&seed=7&hint=2000&chart=2000
// (&start=1 starts the game at once). Each bad one is named in a message the page shows, the
// form keeps its default for it, and a game with a bad parameter is not started.

import { GAMES } from "./board.js";

export const LEVELS = [1, 10];
export const KNOWN = ["game", "players", "seat", "level", "seed", "hint", "chart", "start"];

function integer(text) {
  return /^\s*\d+\s*$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : null;
}

/**
 * {values: {name: value}, problems: [text]} for the URL's query string. `values` holds only
 * the good parameters.
 */
export function checkParams(search) {
  const params = new URLSearchParams(search);
  const values = {};
  const problems = [];
  const bad = (name, why) => problems.push(`${name}=${JSON.stringify(params.get(name))}: ${why}`);
  let game = "base";
  if (params.has("game")) {
    if (Object.hasOwn(GAMES, params.get("game"))) game = values.game = params.get("game");
    else bad("game", `no such game (one of ${Object.keys(GAMES).join(", ")})`);
  }
  const counts = GAMES[game].players;
  let players = counts[0];
  if (params.has("players")) {
    const n = integer(params.get("players"));
    if (n !== null && counts.includes(n)) players = values.players = n;
    else bad("players", counts.length === 1 ? `${GAMES[game].title} is for ${counts[0]} players`
      : `${GAMES[game].title} takes ${counts[0]} to ${counts[counts.length - 1]} players`);
  }
  if (params.has("seat")) {
    const n = integer(params.get("seat"));
    if (n !== null && n < players) values.seat = n;
    else bad("seat", `your seat is 0 to ${players - 1} (${players} players)`);
  }
  if (params.has("level")) {
    const n = integer(params.get("level"));
    if (n !== null && n >= LEVELS[0] && n <= LEVELS[1]) values.level = n;
    else bad("level", `the AI's level is a whole number from ${LEVELS[0]} to ${LEVELS[1]}`);
  }
  if (params.has("seed")) {
    const n = integer(params.get("seed"));
    if (n !== null) values.seed = n;
    else bad("seed", "the seed is a whole number ≥ 0");
  }
  for (const name of ["hint", "chart"]) {
    if (!params.has(name)) continue;
    const n = integer(params.get(name));
    if (n !== null && n >= 1 && n <= 1_000_000) values[name] = n;
    else bad(name, "a number of search iterations, 1 to 1,000,000");
  }
  if (params.has("start")) {
    if (["0", "1"].includes(params.get("start"))) values.start = params.get("start") === "1";
    else bad("start", "1 starts the game at once, 0 does not");
  }
  for (const name of params.keys()) {
    if (!KNOWN.includes(name)) problems.push(`${name}: not a parameter of this page (${KNOWN.join(", ")})`);
  }
  return { values, problems };
}
