/**
 * A real node:http server on 127.0.0.1 (port 0) for the client tests, answering each request as a
 * script says: status, headers, body, delays, a truncated body or a reset connection. It records
 * every request, how many it has answered, and the largest number of requests it saw in flight
 * at once.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** How the server answers one request. */
export interface ScriptedResponse {
  /** Default 200. */
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** A string is sent as is; anything else as JSON. Default: empty. */
  readonly body?: unknown;
  /** Wait before sending the status line and headers. */
  readonly headersDelayMs?: number;
  /** Send headers, then wait before sending the body. */
  readonly bodyDelayMs?: number;
  /** Declare a Content-Length 100 bytes larger than the body, send the body, then destroy the socket. */
  readonly truncate?: boolean;
  /** Destroy the socket without any response. */
  readonly reset?: boolean;
}

/** A request as the server saw it. */
export interface RecordedRequest {
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Raw query string, without `?`. */
  readonly rawQuery: string;
  readonly headers: IncomingHttpHeaders;
}

/** Answers request number `index` (0-based). */
export type Script = (request: RecordedRequest, index: number) => ScriptedResponse;

export interface ScriptedServer {
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** Requests answered so far: their status line sent (or their connection reset, as scripted). */
  readonly answered: number;
  /** Most requests in flight at once (arrived and not yet answered). */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts a scripted server. An array script answers the n-th request with its n-th entry (the last
 * entry repeats).
 */
export async function startScriptedServer(
  script: Script | readonly ScriptedResponse[],
): Promise<ScriptedServer> {
  const answer: Script = Array.isArray(script)
    ? (_request, index) => script[Math.min(index, script.length - 1)]
    : (script as Script);
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let inFlight = 0;
  let maxInFlight = 0;
  let answered = 0;

  const server = createServer((incoming, response) => {
    const url = new URL(incoming.url ?? "/", "http://127.0.0.1");
    const recorded: RecordedRequest = {
      method: incoming.method ?? "",
      path: url.pathname,
      query: url.searchParams,
      rawQuery: url.search.slice(1),
      headers: incoming.headers,
    };
    const index = requests.length;
    requests.push(recorded);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    response.on("close", () => (inFlight -= 1));
    void respond(response, answer(recorded, index)).then((sent) => (answered += sent ? 1 : 0));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    get answered() {
      return answered;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers as scripted; resolves to whether it answered (false: the client had gone first). */
async function respond(response: ServerResponse, scripted: ScriptedResponse): Promise<boolean> {
  if (scripted.headersDelayMs) await sleep(scripted.headersDelayMs);
  if (response.destroyed) return false;
  if (scripted.reset) {
    response.socket?.destroy();
    return true;
  }
  const body =
    scripted.body === undefined
      ? ""
      : typeof scripted.body === "string"
        ? scripted.body
        : JSON.stringify(scripted.body);
  const bytes = Buffer.byteLength(body);
  const headers: Record<string, string | number> = {
    "content-type": typeof scripted.body === "string" ? "text/plain" : "application/json",
    "content-length": scripted.truncate ? bytes + 100 : bytes,
    ...scripted.headers,
  };
  response.writeHead(scripted.status ?? 200, headers);
  if (scripted.bodyDelayMs) {
    response.flushHeaders();
    await sleep(scripted.bodyDelayMs);
    if (response.destroyed) return true;
  }
  if (scripted.truncate) {
    response.write(body, () => response.socket?.destroy());
    return true;
  }
  response.end(body);
  return true;
}
