// A minimal Connect client over fetch: unary calls with JSON bodies, and server streams
// (Analyze) with the Connect envelope (5 bytes: flags, big-endian length; then JSON).
// The protocol: https://connectrpc.com/docs/protocol/ . TypeScript users may prefer the
// generated client of @connectrpc/connect-web (docs/web.md).

export const SERVICE = "splendor.v1.SplendorService";

export class ConnectError extends Error {
  constructor(code, message, details = []) {
    super(message);
    this.code = code; // "invalid_argument", "failed_precondition", ... (Connect's names)
    this.details = details; // [{type, value (base64 protobuf)}]
  }
  toString() {
    return `${this.code}: ${this.message}`;
  }
}

function headers(contentType, { timeoutMs, token } = {}) {
  const h = { "content-type": contentType, "connect-protocol-version": "1" };
  if (timeoutMs) h["connect-timeout-ms"] = String(Math.max(1, Math.round(timeoutMs)));
  if (token) h["authorization"] = `Bearer ${token}`;
  return h;
}

async function post(method, body, contentType, options) {
  try {
    return await fetch(`${options.base || ""}/${SERVICE}/${method}`, {
      method: "POST", headers: headers(contentType, options), body, signal: options.signal,
    });
  } catch (err) {
    if (err.name === "AbortError") throw err;
    throw new ConnectError("unavailable", `cannot reach the server (${err.message})`);
  }
}

function errorFrom(data, status) {
  if (data && typeof data === "object" && data.code) {
    return new ConnectError(data.code, data.message || "", data.details || []);
  }
  return new ConnectError("unknown", `HTTP ${status}`);
}

/** A unary call: the response message as JSON, or a ConnectError. */
export async function unary(method, request, options = {}) {
  const res = await post(method, JSON.stringify(request), "application/json", options);
  const text = await res.text();
  let data = null;
  try {
    data = JSON.parse(text);
  } catch {
    /* not JSON: reported below */
  }
  if (!res.ok || data === null) throw errorFrom(data, res.status);
  return data;
}

function envelope(json) {
  const payload = new TextEncoder().encode(json);
  const frame = new Uint8Array(5 + payload.length);
  new DataView(frame.buffer).setUint32(1, payload.length);
  frame.set(payload, 5);
  return frame;
}

/** A server stream: onMessage(msg) for each message; resolves at the end of the stream. */
export async function serverStream(method, request, onMessage, options = {}) {
  const res = await post(method, envelope(JSON.stringify(request)), "application/connect+json", options);
  if (!res.ok) {
    let data = null;
    try {
      data = await res.json();
    } catch {
      /* not JSON */
    }
    throw errorFrom(data, res.status);
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = new Uint8Array(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (value) {
      const joined = new Uint8Array(buffer.length + value.length);
      joined.set(buffer);
      joined.set(value, buffer.length);
      buffer = joined;
    }
    while (buffer.length >= 5) {
      const flags = buffer[0];
      const length = new DataView(buffer.buffer, buffer.byteOffset).getUint32(1);
      if (buffer.length < 5 + length) break;
      const data = JSON.parse(decoder.decode(buffer.subarray(5, 5 + length)));
      buffer = buffer.slice(5 + length);
      if (flags & 2) {
        // end of stream: {error?, metadata?}
        if (data.error) throw errorFrom(data.error, 200);
        return;
      }
      onMessage(data);
    }
    if (done) throw new ConnectError("unavailable", "the stream ended without its end message");
  }
}
