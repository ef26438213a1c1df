/** A loopback port that nothing listens on (one the system just handed out and took back). */

import { createServer } from "node:net";

/** A free loopback port: for a server a test starts, or one that must refuse connections. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
