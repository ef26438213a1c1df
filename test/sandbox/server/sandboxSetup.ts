/** Shared setup of the sandbox server's integration tests: a sandbox, a client on it, raw GETs. */
import { afterAll } from "vitest";
import { createClient } from "../../../src/client/create-client.ts";
import type { ClientEvent } from "../../../src/client/events.ts";
import type { ClientOptions } from "../../../src/client/options.ts";
import type { PathlabClient } from "../../../src/client/pathlab-client.ts";
import {
  startSandbox,
  type RunningSandbox,
  type StartSandboxOptions,
} from "../../../src/sandbox/startSandbox.ts";

/** The sandbox's clock in these tests (any fixed minute: the world is a function of seed and now). */
export const TEST_NOW = "2026-11-20T12:00:00Z";
export const TEST_SEED = 42;

const opened: { sandbox: RunningSandbox; clients: PathlabClient[] }[] = [];

afterAll(async () => {
  for (const { sandbox, clients } of opened.splice(0)) {
    for (const client of clients) await client.close();
    await sandbox.close();
  }
});

/** A sandbox with the tests' seed and clock unless overridden; closed after the file's tests. */
export async function openSandbox(options: StartSandboxOptions = {}): Promise<{
  sandbox: RunningSandbox;
  connect: (clientOptions?: Partial<ClientOptions>) => {
    client: PathlabClient;
    events: ClientEvent[];
  };
}> {
  const sandbox = await startSandbox({ seed: TEST_SEED, now: TEST_NOW, ...options });
  const entry = { sandbox, clients: [] as PathlabClient[] };
  opened.push(entry);
  return {
    sandbox,
    connect(clientOptions = {}) {
      const events: ClientEvent[] = [];
      const client = createClient({
        baseUrl: sandbox.url,
        apiKey: sandbox.apiKey,
        naming: sandbox.naming,
        retryBaseMs: 1,
        onEvent: (event) => events.push(event),
        ...clientOptions,
      });
      entry.clients.push(client);
      return { client, events };
    },
  };
}

/** A raw GET (no client checks): status, headers and the body's bytes. */
export async function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const response = await fetch(url, { headers });
  return {
    status: response.status,
    headers: response.headers,
    body: Buffer.from(await response.arrayBuffer()),
  };
}
