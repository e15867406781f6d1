// Errors of the service as typed exceptions, named as the Python client's
// (client/splendor_ai_client/errors.py), keeping the status code and its details.
import { Code, ConnectError } from "@connectrpc/connect";
import { BadRequestSchema, PreconditionFailureSchema } from "./gen/google/rpc/error_details_pb.js";

/** A request field the server refused, from the google.rpc.BadRequest detail. */
export interface FieldViolation {
  /** The request field's path, e.g. "position.base.seats[1].reserved[0].card". */
  readonly field: string;
  readonly description: string;
}

/** An illegal move, from the google.rpc.PreconditionFailure detail. */
export interface PreconditionViolation {
  /** "ILLEGAL_MOVE". */
  readonly type: string;
  /** The request field, e.g. "moves[2]". */
  readonly subject: string;
  /** The reason. */
  readonly description: string;
}

/** The gRPC names of the status codes (as Python's grpc.StatusCode names them). */
export const CODE_NAMES: Readonly<Record<Code, string>> = {
  [Code.Canceled]: "CANCELLED",
  [Code.Unknown]: "UNKNOWN",
  [Code.InvalidArgument]: "INVALID_ARGUMENT",
  [Code.DeadlineExceeded]: "DEADLINE_EXCEEDED",
  [Code.NotFound]: "NOT_FOUND",
  [Code.AlreadyExists]: "ALREADY_EXISTS",
  [Code.PermissionDenied]: "PERMISSION_DENIED",
  [Code.ResourceExhausted]: "RESOURCE_EXHAUSTED",
  [Code.FailedPrecondition]: "FAILED_PRECONDITION",
  [Code.Aborted]: "ABORTED",
  [Code.OutOfRange]: "OUT_OF_RANGE",
  [Code.Unimplemented]: "UNIMPLEMENTED",
  [Code.Internal]: "INTERNAL",
  [Code.Unavailable]: "UNAVAILABLE",
  [Code.DataLoss]: "DATA_LOSS",
  [Code.Unauthenticated]: "UNAUTHENTICATED",
};

/** A call that failed. `message` is the server's message. */
export class ServiceError extends Error {
  /** Connect-ES's status code. */
  readonly code: Code;
  /** The code's gRPC name, e.g. "INVALID_ARGUMENT". */
  readonly codeName: string;
  readonly fieldViolations: readonly FieldViolation[];
  readonly preconditionViolations: readonly PreconditionViolation[];

  constructor(code: Code, message: string, fieldViolations: readonly FieldViolation[] = [],
              preconditionViolations: readonly PreconditionViolation[] = [], options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.codeName = CODE_NAMES[code] ?? `CODE_${code}`;
    this.fieldViolations = Object.freeze([...fieldViolations]);
    this.preconditionViolations = Object.freeze([...preconditionViolations]);
  }

  /** The first offending request field, if the server named one. */
  get field(): string | undefined {
    return this.fieldViolations[0]?.field ?? this.preconditionViolations[0]?.subject;
  }
}

/** INVALID_ARGUMENT: a malformed or impossible position, move or option. */
export class InvalidArgument extends ServiceError {}
/** FAILED_PRECONDITION: a well-formed move the rules do not allow here. */
export class IllegalMove extends ServiceError {}
/** RESOURCE_EXHAUSTED: the server runs as many searches as it may; retry later. */
export class Busy extends ServiceError {}
/** UNAVAILABLE: the server is not reachable, is shutting down, or the call's connection broke: retry. */
export class Unavailable extends ServiceError {}
/** DEADLINE_EXCEEDED: the call's timeout passed. */
export class DeadlineExceeded extends ServiceError {}
/** CANCELLED: the call was cancelled (its AbortSignal was aborted). */
export class Cancelled extends ServiceError {}
/** UNAUTHENTICATED: the server wants a bearer token (`token`) and got none or a wrong one. */
export class Unauthenticated extends ServiceError {}

const CLASSES: Partial<Record<Code, typeof ServiceError>> = {
  [Code.InvalidArgument]: InvalidArgument,
  [Code.FailedPrecondition]: IllegalMove,
  [Code.ResourceExhausted]: Busy,
  [Code.Unavailable]: Unavailable,
  [Code.DeadlineExceeded]: DeadlineExceeded,
  [Code.Canceled]: Cancelled,
  [Code.Unauthenticated]: Unauthenticated,
};

/** The ServiceError for whatever a failed call threw (a ConnectError, a network error, an abort). */
export function toServiceError(reason: unknown): ServiceError {
  if (reason instanceof ServiceError) return reason;
  const err = ConnectError.from(reason);
  const fields: FieldViolation[] = [];
  const preconditions: PreconditionViolation[] = [];
  for (const bad of err.findDetails(BadRequestSchema)) {
    for (const v of bad.fieldViolations) fields.push({ field: v.field, description: v.description });
  }
  for (const failure of err.findDetails(PreconditionFailureSchema)) {
    for (const v of failure.violations) {
      preconditions.push({ type: v.type, subject: v.subject, description: v.description });
    }
  }
  const cls = CLASSES[err.code] ?? ServiceError;
  return new cls(err.code, err.rawMessage, fields, preconditions, { cause: reason });
}
