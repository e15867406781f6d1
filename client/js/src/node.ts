// The Node entry: the client over Node's http/http2 modules, with @connectrpc/connect-node.
import type { Interceptor, Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import * as http from "node:http";
import * as https from "node:https";
import { ClientCore } from "./client.js";
import type { ClientOptions } from "./client.js";

export * from "./common.js";

export interface NodeClientOptions extends ClientOptions {
  /** For "connect" and "grpc-web": "1.1" (default; the HTTP port is HTTP/1.1) or "2". "grpc" is always HTTP/2. */
  httpVersion?: "1.1" | "2";
}

function nodeTransport(options: NodeClientOptions, interceptors: Interceptor[]): Transport {
  // HTTP/1.1 connections kept alive, as Node 19+ does by default and Node 18 does not: a call
  // then costs no new connection, and a call the server refuses from its headers alone (a
  // missing token) is answered on an open connection instead of one the server closes while
  // Node 18 still writes the body (which Node 18 reports as "write EPIPE", not the refusal).
  const agent = options.baseUrl.startsWith("https:") ? new https.Agent({ keepAlive: true })
    : new http.Agent({ keepAlive: true });
  const common = options.httpVersion === "2"
    ? { baseUrl: options.baseUrl, interceptors, httpVersion: "2" as const }
    : { baseUrl: options.baseUrl, interceptors, httpVersion: "1.1" as const, nodeOptions: { agent } };
  switch (options.protocol ?? "connect") {
    case "connect":
      return createConnectTransport({ ...common, useBinaryFormat: options.binary ?? true });
    case "grpc-web":
      return createGrpcWebTransport({ ...common, useBinaryFormat: options.binary ?? true });
    case "grpc":
      return createGrpcTransport({ baseUrl: options.baseUrl, interceptors,
                                   useBinaryFormat: options.binary ?? true });
    default:
      throw new TypeError(`unknown protocol ${JSON.stringify(options.protocol)} (connect, grpc-web, grpc)`);
  }
}

/** A client of the splendor-ai service from Node (Connect or gRPC-Web on the --http-port, or gRPC on the gRPC port). */
export class SplendorClient extends ClientCore {
  constructor(options: NodeClientOptions) {
    super(options, (o, i) => nodeTransport(o as NodeClientOptions, i));
  }
}
