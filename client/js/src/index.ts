// The browser entry (and bundlers'): the client over `fetch`, with @connectrpc/connect-web.
import type { Interceptor, Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web";
import { ClientCore } from "./client.js";
import type { ClientOptions } from "./client.js";

export * from "./common.js";

function webTransport(options: ClientOptions, interceptors: Interceptor[]): Transport {
  const common = { baseUrl: options.baseUrl, interceptors };
  switch (options.protocol ?? "connect") {
    case "connect":
      return createConnectTransport({ ...common, useBinaryFormat: options.binary ?? true });
    case "grpc-web":
      return createGrpcWebTransport({ ...common, useBinaryFormat: options.binary ?? true });
    case "grpc":
      throw new TypeError('protocol "grpc" needs HTTP/2 trailers, which fetch cannot read: use "connect" or "grpc-web"');
    default:
      throw new TypeError(`unknown protocol ${JSON.stringify(options.protocol)} (connect, grpc-web)`);
  }
}

/** A client of the splendor-ai service over `fetch` (Connect or gRPC-Web on the server's --http-port). */
export class SplendorClient extends ClientCore {
  constructor(options: ClientOptions) {
    super(options, webTransport);
  }
}
