import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { PathlabHttpError, ResponseDecodeError } from "../../src/client/errors.ts";
import { serveAndConnect, testApiKey } from "./client-test-setup.ts";
import type { ScriptedResponse } from "./scripted-server.ts";

/** Every way an error can be shown, down the whole cause chain. */
function renderings(error: unknown): string[] {
  const shown: string[] = [
    String(error),
    JSON.stringify(error),
    inspect(error, { depth: 10 }),
    inspect(error, { depth: 10, showHidden: true }),
  ];
  for (let link = error, depth = 0; link instanceof Error && depth < 10; link = link.cause) {
    shown.push(link.message, String(link.stack), JSON.stringify(link), String(link));
    depth += 1;
  }
  return shown;
}

/** Scripts in which the key could leak: echoed in error bodies, in data, in malformed JSON. */
const leakyScripts: [string, ScriptedResponse[]][] = [
  ["a 401 that echoes the key", [{ status: 401, body: `invalid key ${testApiKey}` }]],
  ["a 403 that echoes the header", [{ status: 403, body: `Authorization: Apikey ${testApiKey}` }]],
  ["a 400 whose JSON echoes the key", [{ status: 400, body: { detail: testApiKey } }]],
  ["a 503 that echoes the key, retried", [{ status: 503, body: `down for ${testApiKey}` }]],
  [
    "a 429 whose key straddles the 500-character cut",
    [{ status: 429, body: `${"x".repeat(490)}${testApiKey}` }],
  ],
  ["a 200 whose field holds the key", [{ body: { current_price: testApiKey, data: [] } }]],
  [
    "a 200 whose long field ends in the key",
    [{ body: { current_price: `${"y".repeat(50)}${testApiKey}`, data: [] } }],
  ],
  ["a 200 that is not JSON around the key", [{ body: `{"a": ${testApiKey}}` }]],
  ["a reset connection", [{ reset: true }]],
  ["a truncated body", [{ body: { current_price: 1 }, truncate: true }]],
  ["a stalled body", [{ body: { current_price: 1 }, bodyDelayMs: 2000 }]],
];

describe("redaction of the API key", () => {
  it.each(leakyScripts)("%s: no error rendering or event shows the key", async (_name, script) => {
    const { server, client, events } = await serveAndConnect(script, {
      maxRetries: 1,
      timeoutMs: 200,
    });
    const error = await client.insights.liquidation().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PathlabHttpError);
    // The key really went out, so the assertions below can fail.
    expect(server.requests[0].headers.authorization).toBe(`Apikey ${testApiKey}`);
    // Not even a prefix of it, as a truncated excerpt or a parser's quote would show.
    const prefix = testApiKey.slice(0, 10);
    for (const shown of renderings(error)) expect(shown).not.toContain(prefix);
    expect(JSON.stringify(events)).not.toContain(prefix);
    expect(inspect(events, { depth: 10 })).not.toContain(prefix);
  });

  it("an echoed key is replaced by [REDACTED] in the error's body text and message", async () => {
    const { client } = await serveAndConnect([{ status: 401, body: `invalid key ${testApiKey}` }]);
    const error = (await client.insights.liquidation().catch((caught: unknown) => caught)) as
      PathlabHttpError | undefined;
    expect(error?.bodyText).toBe("invalid key [REDACTED]");
    expect(error?.message).toBe(
      '/insights/liquidation: HTTP 401 (the API key was refused): "invalid key [REDACTED]"',
    );
  });

  it("the JSON of an error carries its operation, status and body, not the key", async () => {
    const { client } = await serveAndConnect([{ body: "not json" }], { maxRetries: 0 });
    const error = await client.insights.liquidation().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseDecodeError);
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({
      name: "ResponseDecodeError",
      operation: "/insights/liquidation",
      status: 200,
      bodyText: "not json",
      kind: "json",
      cause: { name: "SyntaxError" },
    });
  });

  it("the client object does not show the key", async () => {
    const { client } = await serveAndConnect([{ body: [] }]);
    const shown = [
      inspect(client, { depth: 10, showHidden: true, getters: true }),
      JSON.stringify(client),
      String(client),
      JSON.stringify(Object.getOwnPropertyDescriptors(client)),
    ];
    for (const text of shown) expect(text).not.toContain(testApiKey);
    expect(shown[0]).toContain("liquidation");
  });
});
