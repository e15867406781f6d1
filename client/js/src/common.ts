// What both entry points (index.ts, node.ts) export besides their SplendorClient.
export {
  Analysis, ClientCore, gameOf, withDrawnCard, withDrawnTokens,
} from "./client.js";
export type {
  AnalyzeGameOpts, AnalyzeOpts, CallOpts, ClientOptions, GameAnalysis, GameName, GetMoveOpts, Int64,
  LegalActionsOpts, MoveLike, NewGameOpts, PositionAnalysis, PositionLike, PriorityName, Protocol,
} from "./client.js";
export {
  Busy, Cancelled, CODE_NAMES, DeadlineExceeded, IllegalMove, InvalidArgument, ServiceError, toServiceError,
  Unauthenticated, Unavailable,
} from "./errors.js";
export type { FieldViolation, PreconditionViolation } from "./errors.js";
export * from "./gen/splendor/v1/splendor_pb.js";
export * from "./gen/splendor/v1/position_pb.js";
export * from "./gen/splendor/v1/move_pb.js";
export * from "./gen/splendor/v1/catalog_pb.js";
export * from "./gen/splendor/v1/search_pb.js";
export { clone, create, equals, fromBinary, fromJson, toBinary, toJson } from "@bufbuild/protobuf";
export { Code, ConnectError } from "@connectrpc/connect";
