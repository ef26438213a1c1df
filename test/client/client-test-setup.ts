/** Shared setup of the client's integration tests: a scripted server and a client on it. */
import { afterEach } from "vitest";
import { createClient } from "../../src/client/create-client.ts";
import type { ClientEvent } from "../../src/client/events.ts";
import type { ClientOptions } from "../../src/client/options.ts";
import type { PathlabClient } from "../../src/client/pathlab-client.ts";
import {
  startScriptedServer,
  type Script,
  type ScriptedResponse,
  type ScriptedServer,
} from "./scripted-server.ts";

/** A distinctive key, searched for in everything the client shows. */
export const testApiKey = "sk-test-SECRET-123";

const opened: { server: ScriptedServer; client: PathlabClient }[] = [];

afterEach(async () => {
  for (const { server, client } of opened.splice(0)) {
    await client.close();
    await server.close();
  }
});

/**
 * Starts a scripted server and a client on it with the test key, fast retries (`retryBaseMs` 1)
 * and the events collected; both are closed after the test.
 */
export async function serveAndConnect(
  script: Script | readonly ScriptedResponse[],
  options: Partial<ClientOptions> = {},
): Promise<{ server: ScriptedServer; client: PathlabClient; events: ClientEvent[] }> {
  const server = await startScriptedServer(script);
  const events: ClientEvent[] = [];
  const client = createClient({
    baseUrl: server.baseUrl,
    apiKey: testApiKey,
    retryBaseMs: 1,
    onEvent: (event) => events.push(event),
    ...options,
  });
  opened.push({ server, client });
  return { server, client, events };
}
