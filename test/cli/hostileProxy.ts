/**
 * A hostile server for tests: a proxy on 127.0.0.1 in front of a sandbox that answers prediction
 * sets with an endless body or with 404, or drips an insight record or the prediction sets one
 * byte at a time, and passes every other request on.
 */

import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** How the proxy misbehaves, on which operation. */
export type Hostility =
  | "endless prediction sets"
  | "prediction sets not found"
  | "dripping liquidation"
  | "dripping prediction sets";

/**
 * Starts a proxy to the sandbox at `upstream` that misbehaves as `hostility` says on every
 * request but those `spared` picks out (passed on as the others).
 */
export async function startHostileProxy(
  upstream: string,
  hostility: Hostility,
  spared: (url: URL) => boolean = () => false,
): Promise<{ url: string; close: () => Promise<void> }> {
  const timers = new Set<NodeJS.Timeout>();
  const target =
    hostility === "dripping liquidation" ? "/insights/liquidation" : "/v2/prediction/historical";
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", upstream);
    if (url.pathname === target && !spared(url)) {
      misbehave(hostility, response, timers);
      return;
    }
    void fetch(new URL(url.pathname + url.search, upstream), {
      headers: { Authorization: String(request.headers.authorization ?? "") },
    })
      .then(async (answer) => {
        const body = Buffer.from(await answer.arrayBuffer());
        response.writeHead(answer.status, { "Content-Type": "application/json" });
        response.end(body);
      })
      .catch((error: unknown) => {
        response.writeHead(502);
        response.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      for (const timer of timers) clearInterval(timer);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers one request as `hostility` says (a dripping answer's timer is added to `timers`). */
function misbehave(
  hostility: Hostility,
  response: ServerResponse,
  timers: Set<NodeJS.Timeout>,
): void {
  if (hostility === "prediction sets not found") {
    response.writeHead(404, { "Content-Type": "application/json" });
    response.end(JSON.stringify({ detail: "not found" }));
    return;
  }
  response.writeHead(200, { "Content-Type": "application/json" });
  if (hostility === "dripping liquidation" || hostility === "dripping prediction sets") {
    const timer = setInterval(() => response.write(" "), 200);
    timers.add(timer);
    response.on("close", () => clearInterval(timer));
    return;
  }
  const chunk = Buffer.from(`[${"67676.62,".repeat(7000)}`);
  const write = () => {
    while (!response.destroyed && response.write(chunk));
  };
  response.on("drain", write);
  write();
}
