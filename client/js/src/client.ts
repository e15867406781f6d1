// The client: the service's methods wrapped the way the Python client wraps them
// (client/splendor_ai_client/client.py), over a Connect-ES transport that the entry point
// (index.ts for browsers, node.ts for Node) makes.
import { create } from "@bufbuild/protobuf";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, createClient } from "@connectrpc/connect";
import type { CallOptions, Client, Interceptor, Transport } from "@connectrpc/connect";
import { Cancelled, toServiceError } from "./errors.js";
import type { Move } from "./gen/splendor/v1/move_pb.js";
import { MoveSchema } from "./gen/splendor/v1/move_pb.js";
import { Game, PositionSchema } from "./gen/splendor/v1/position_pb.js";
import type { BasePosition, DuelPosition, MarvelPosition, Position } from "./gen/splendor/v1/position_pb.js";
import { Priority } from "./gen/splendor/v1/search_pb.js";
import { SplendorService } from "./gen/splendor/v1/splendor_pb.js";
import type {
  AnalyzeGameResponse, AnalyzeResponse, ApplyActionsResponse, GetCatalogResponse, GetMoveResponse,
  LegalActionsResponse, NewGameResponse,
} from "./gen/splendor/v1/splendor_pb.js";

/** "connect" and "grpc-web" speak to the server's --http-port; "grpc" (Node only) to its gRPC port. */
export type Protocol = "connect" | "grpc-web" | "grpc";

export interface ClientOptions {
  /** The server's HTTP port, e.g. "http://localhost:8080" (for "grpc": the gRPC port, "http://localhost:50551"). */
  baseUrl: string;
  /** Sent as `authorization: Bearer <token>` with every call. */
  token?: string;
  /** The default deadline of every call, in milliseconds. */
  timeoutMs?: number;
  /** The wire protocol; default "connect". */
  protocol?: Protocol;
  /** Protobuf bodies (default true); false = JSON bodies (Connect and gRPC-Web text are not mixed: gRPC-Web is always binary). */
  binary?: boolean;
  /** More Connect-ES interceptors (after the token's). */
  interceptors?: Interceptor[];
}

/** What every method takes besides its own options. */
export interface CallOpts {
  /** This call's deadline in milliseconds (default: the client's `timeoutMs`). */
  timeoutMs?: number;
  /** Aborting it cancels the call (and the search on the server). */
  signal?: AbortSignal;
  /** Echoed back in the response; at most 128 characters. */
  requestId?: string;
}

export type GameName = "base" | "duel" | "marvel";
export type PositionLike = Position | BasePosition | DuelPosition | MarvelPosition;
/** A notation string ("take wug", "buy 17 pay urrky"), a Move message or a Move's fields. */
export type MoveLike = string | Move | MessageInitShape<typeof MoveSchema>;
/** An integer the messages hold as a 64-bit `bigint`. */
export type Int64 = number | bigint;

export interface NewGameOpts extends CallOpts {
  game?: GameName | Game;
  /** Seats: base and Marvel 2..4, Duel 2; default 2. */
  players?: number;
  /** The same seed gives the same deal; default a random one. */
  seed?: Int64;
}

export interface LegalActionsOpts extends CallOpts {
  /** Also list every alternative payment of each buy. */
  allPayments?: boolean;
}

export interface GetMoveOpts extends CallOpts {
  /** Difficulty 1 (weakest) .. 10 (strongest); or give `iterations` / `timeMs`, not both. */
  level?: number;
  iterations?: Int64;
  timeMs?: Int64;
  threads?: number;
  seed?: Int64;
  temperature?: number;
  perfectInformation?: boolean;
  /** Candidate lines reported per decision; 0 = all. */
  lines?: number;
  /** Finishing a turn that came back with `turnComplete` false: that answer's `turnElapsedMs`,
   * so that the two calls share the turn's time. */
  turnElapsedMs?: number;
  /** The search slots it may take (docs/protocol.md#priority): default "interactive"; "batch"
   * for a bot tournament. */
  priority?: PriorityName;
}

/** Interactive calls may take any free search slot, batch work only its share. */
export type PriorityName = "interactive" | "batch";

function priority(name: PriorityName | undefined): Priority {
  if (name === undefined) return Priority.UNSPECIFIED;
  if (name === "interactive") return Priority.INTERACTIVE;
  if (name === "batch") return Priority.BATCH;
  throw new TypeError(`priority must be "interactive", "batch" or undefined, not ${JSON.stringify(name)}`);
}

export interface AnalyzeOpts extends CallOpts {
  iterations?: Int64;
  timeMs?: Int64;
  threads?: number;
  seed?: Int64;
  lines?: number;
  /** Restrict the search to these legal moves. */
  candidates?: MoveLike[];
  /** A progress report this often (at least 10 ms); 0 = only the final report. */
  reportEveryMs?: number;
  perfectInformation?: boolean;
  /** Default: interactive for at most 10 s or, without a time limit, 100,000 iterations (a
   * hint), else batch; "interactive" beyond that is refused (InvalidArgument). */
  priority?: PriorityName;
}

export interface AnalyzeGameOpts extends CallOpts {
  /** Search iterations per decision; 0 = 2000. */
  iterations?: Int64;
  threads?: number;
  seed?: Int64;
  playedVisits?: Int64;
  mistake?: number;
  blunder?: number;
}

const GAMES: Readonly<Record<GameName, Game>> = { base: Game.BASE, duel: Game.DUEL, marvel: Game.MARVEL };

function game(g: GameName | Game | undefined): Game {
  if (g === undefined) return Game.BASE;
  if (typeof g === "number" && Game[g] !== undefined) return g;
  if (typeof g === "string" && Object.hasOwn(GAMES, g)) return GAMES[g as GameName];
  throw new TypeError(`unknown game ${JSON.stringify(g)} (one of ${Object.keys(GAMES).join(", ")})`);
}

/** The game of a position: "base", "duel" or "marvel". */
export function gameOf(position: PositionLike): GameName {
  const p = toPosition(position);
  if (p.game.case === undefined) throw new TypeError("the position has no game set (base, duel or marvel)");
  return p.game.case;
}

function toPosition(p: PositionLike): Position {
  switch ((p as { $typeName?: string } | undefined)?.$typeName) {
    case "splendor.v1.Position": return p as Position;
    case "splendor.v1.BasePosition": return create(PositionSchema, { game: { case: "base", value: p as BasePosition } });
    case "splendor.v1.DuelPosition": return create(PositionSchema, { game: { case: "duel", value: p as DuelPosition } });
    case "splendor.v1.MarvelPosition":
      return create(PositionSchema, { game: { case: "marvel", value: p as MarvelPosition } });
    default:
      throw new TypeError("a position is a Position message (or a Base/Duel/MarvelPosition), as a response gave it");
  }
}

function toMove(m: MoveLike): Move {
  if (typeof m === "string") return create(MoveSchema, { notation: m });
  if (m !== null && typeof m === "object") return create(MoveSchema, m);
  throw new TypeError(`a move is a notation string or a Move message, not ${m === null ? "null" : typeof m}`);
}

function int64(value: Int64 | undefined, name: string): bigint | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number" && !Number.isSafeInteger(value)) {
    throw new RangeError(`${name} must be an integer, got ${value}`);
  }
  return BigInt(value);
}

function uint32(value: number | undefined, name: string): number {
  if (value === undefined) return 0;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a whole number, 0 or more, got ${value}`);
  }
  return Math.min(value, 0xffffffff);
}

/** `move` with the card it draws from a deck (ApplyActions on a view: the frontend deals). */
export function withDrawnCard(move: MoveLike, card: number): Move {
  return { ...toMove(move), drawnCard: card };
}

/** A Duel `replenish` with the tokens it placed, as letters in the spiral's order (ApplyActions on a view). */
export function withDrawnTokens(move: MoveLike, tokens: string): Move {
  return { ...toMove(move), drawnTokens: tokens };
}

/**
 * A running Analyze (or AnalyzeGame) call: iterate over its reports with `for await`; the
 * last one has `final` set. `cancel()`, or aborting the `signal` it was given, stops the
 * search on the server and ends the iteration quietly, without a final report. `result()`
 * waits for the final report. Iterate once: a second iteration continues the first.
 */
export class Analysis<R extends { final: boolean }> implements AsyncIterable<R> {
  /** The final report, once seen. */
  final: R | undefined = undefined;
  private readonly abort = new AbortController();
  private cancelled = false;
  private finished = false;
  private reading = false;
  private draining = false;
  private inner: AsyncIterator<R> | undefined;
  private readonly reports: AsyncGenerator<R>;

  /** @internal */
  constructor(start: (signal: AbortSignal) => AsyncIterable<R>, signal?: AbortSignal) {
    if (signal) {
      if (signal.aborted) this.cancel();
      else signal.addEventListener("abort", () => this.cancel(), { once: true });
    }
    this.reports = this.run(start);
  }

  private async *run(start: (signal: AbortSignal) => AsyncIterable<R>): AsyncGenerator<R> {
    if (this.cancelled) return;
    const inner = start(this.abort.signal)[Symbol.asyncIterator]();
    this.inner = inner;
    try {
      for (;;) {
        if (this.cancelled) break; // cancelled while the report was out: cancel() drains the call
        this.reading = true;
        let step: IteratorResult<R>;
        try {
          step = await inner.next();
        } finally {
          this.reading = false;
        }
        if (step.done) break;
        if (this.cancelled) {
          this.drain(inner); // a report came in as it was cancelled: let the call go
          break;
        }
        if (step.value.final) this.final = step.value;
        yield step.value;
      }
    } catch (err) {
      if (!this.cancelled) throw toServiceError(err);
    } finally {
      this.finished = true;
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<R> {
    const reports = this.reports;
    return {
      next: () => reports.next(),
      // Leaving a for-await loop early cancels the call (the server stops the search).
      return: (value?: unknown) => {
        this.cancel();
        return reports.return(value as R);
      },
    };
  }

  /** Stop the call (and the search on the server); the iteration ends without a final report. */
  cancel(): void {
    if (this.finished || this.cancelled) return;
    this.cancelled = true;
    this.abort.abort();
    if (this.inner !== undefined && !this.reading) this.drain(this.inner);
  }

  /** Reads a cancelled call to its (aborted) end, so that Connect-ES lets go of it at once (its
   *  deadline timer would otherwise keep Node running until the deadline). */
  private drain(inner: AsyncIterator<R>): void {
    if (this.draining) return;
    this.draining = true;
    void (async () => {
      try {
        while (!(await inner.next()).done) { /* cancelled: dropped */ }
      } catch { /* the abort */ }
    })();
  }

  /** Waits for the final report (reading the progress reports on the way). */
  async result(): Promise<R> {
    for await (const _ of this) { /* the reports on the way */ }
    if (this.final === undefined) {
      throw new Cancelled(Code.Canceled, "the analysis was cancelled before its final report");
    }
    return this.final;
  }
}

/** A running Analyze call (see Analysis). */
export type PositionAnalysis = Analysis<AnalyzeResponse>;
/** A running AnalyzeGame call: one report per decision (`decision`), then the final one (`seats`). */
export type GameAnalysis = Analysis<AnalyzeGameResponse>;

/** Makes the Connect-ES transport for the options (browser or Node). */
export type TransportFactory = (options: ClientOptions, interceptors: Interceptor[]) => Transport;

/** The client, over whatever transport the entry point makes. */
export class ClientCore {
  /** The generated Connect-ES client, for anything the wrapper does not cover. */
  readonly rpc: Client<typeof SplendorService>;
  readonly timeoutMs: number | undefined;

  constructor(options: ClientOptions, makeTransport: TransportFactory) {
    if (!options || typeof options.baseUrl !== "string" || options.baseUrl === "") {
      throw new TypeError('baseUrl is required, e.g. new SplendorClient({ baseUrl: "http://localhost:8080" })');
    }
    const interceptors: Interceptor[] = [];
    if (options.token !== undefined) {
      if (options.token === "") throw new TypeError("token is empty");
      const header = `Bearer ${options.token}`;
      interceptors.push((next) => (req) => {
        req.header.set("authorization", header);
        return next(req);
      });
    }
    interceptors.push(...(options.interceptors ?? []));
    this.rpc = createClient(SplendorService, makeTransport(options, interceptors));
    this.timeoutMs = options.timeoutMs;
  }

  private callOptions(opts: CallOpts | undefined, signal?: AbortSignal): CallOptions {
    return { timeoutMs: opts?.timeoutMs ?? this.timeoutMs, signal: signal ?? opts?.signal };
  }

  private async unary<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      throw toServiceError(err);
    }
  }

  /** The cards and nobles (locations, royals) of a game with their stable ids. */
  getCatalog(gameName: GameName | Game = "base", opts?: CallOpts): Promise<GetCatalogResponse> {
    const req = { game: game(gameName) };
    return this.unary(() => this.rpc.getCatalog(req, this.callOptions(opts)));
  }

  /** A freshly shuffled initial position (full: the deck order included). */
  newGame(opts: NewGameOpts = {}): Promise<NewGameResponse> {
    const req = { requestId: opts.requestId ?? "", game: game(opts.game), players: opts.players ?? 2,
                  seed: int64(opts.seed, "seed") };
    return this.unary(() => this.rpc.newGame(req, this.callOptions(opts)));
  }

  /** The legal moves of the seat to act. */
  legalActions(position: PositionLike, opts: LegalActionsOpts = {}): Promise<LegalActionsResponse> {
    const req = { requestId: opts.requestId ?? "", position: toPosition(position), allPayments: !!opts.allPayments };
    return this.unary(() => this.rpc.legalActions(req, this.callOptions(opts)));
  }

  /** Plays `moves` in order; all or nothing (an illegal move rejects with IllegalMove). */
  applyActions(position: PositionLike, moves: MoveLike[], opts: CallOpts = {}): Promise<ApplyActionsResponse> {
    const req = { requestId: opts.requestId ?? "", position: toPosition(position), moves: moves.map(toMove) };
    return this.unary(() => this.rpc.applyActions(req, this.callOptions(opts)));
  }

  /** The AI's whole turn, for a `level` or explicit limits (`iterations`, `timeMs`). */
  getMove(position: PositionLike, opts: GetMoveOpts = {}): Promise<GetMoveResponse> {
    const limits = opts.iterations !== undefined || opts.timeMs !== undefined;
    if (opts.level !== undefined && limits) throw new TypeError("give a level or limits (iterations, timeMs), not both");
    const req = {
      requestId: opts.requestId ?? "", position: toPosition(position), threads: opts.threads ?? 0,
      seed: int64(opts.seed, "seed"), temperature: opts.temperature,
      perfectInformation: !!opts.perfectInformation, lines: opts.lines ?? 0,
      turnElapsedMs: uint32(opts.turnElapsedMs, "turnElapsedMs"), priority: priority(opts.priority),
      budget: opts.level !== undefined ? { case: "level" as const, value: opts.level }
        : limits ? { case: "limits" as const, value: { iterations: int64(opts.iterations, "iterations") ?? 0n,
                                                       timeMs: int64(opts.timeMs, "timeMs") ?? 0n } }
          : { case: undefined },
    };
    return this.unary(() => this.rpc.getMove(req, this.callOptions(opts)));
  }

  /** An analysis of the position: progress reports every `reportEveryMs`, then the final one. */
  analyze(position: PositionLike, opts: AnalyzeOpts = {}): PositionAnalysis {
    const req = {
      requestId: opts.requestId ?? "", position: toPosition(position),
      limits: { iterations: int64(opts.iterations, "iterations") ?? 0n, timeMs: int64(opts.timeMs, "timeMs") ?? 0n },
      threads: opts.threads ?? 0, seed: int64(opts.seed, "seed"), lines: opts.lines ?? 0,
      candidates: (opts.candidates ?? []).map(toMove), reportEveryMs: opts.reportEveryMs ?? 0,
      perfectInformation: !!opts.perfectInformation, priority: priority(opts.priority),
    };
    return new Analysis((signal) => this.rpc.analyze(req, this.callOptions(opts, signal)), opts.signal);
  }

  /** A whole game judged decision by decision (docs/analysis.md): `initialPosition` is the full deal. */
  analyzeGame(initialPosition: PositionLike, moves: MoveLike[], opts: AnalyzeGameOpts = {}): GameAnalysis {
    const req = {
      requestId: opts.requestId ?? "", initialPosition: toPosition(initialPosition), moves: moves.map(toMove),
      iterations: int64(opts.iterations, "iterations") ?? 0n, threads: opts.threads ?? 0,
      seed: int64(opts.seed, "seed"), playedVisits: int64(opts.playedVisits, "playedVisits") ?? 0n,
      mistake: opts.mistake ?? 0, blunder: opts.blunder ?? 0,
    };
    return new Analysis((signal) => this.rpc.analyzeGame(req, this.callOptions(opts, signal)), opts.signal);
  }
}
