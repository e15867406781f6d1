// The Node entry: the client over Node's http/http2 modules, with @connectrpc/connect-node.
import type { Interceptor, Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { ClientCore } from "./client.js";
import type { ClientOptions } from "./client.js";

export * from "./common.js";

export interface NodeClientOptions extends ClientOptions {
  /** For "connect" and "grpc-web": "1.1" (default; the HTTP port is HTTP/1.1) or "2". "grpc" is always HTTP/2. */
  httpVersion?: "1.1" | "2";
}

function nodeTransport(options: NodeClientOptions, interceptors: Interceptor[]): Transport {
  const common = { baseUrl: options.baseUrl, interceptors, httpVersion: options.httpVersion ?? "1.1" } as const;
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
