import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/client/create-client.ts";
import type { PathlabClient } from "../../src/client/pathlab-client.ts";
import { neutralNaming } from "../../src/domain/naming.ts";
import type { Operation } from "../../src/domain/operation.ts";
import { operations, operationTable, type OperationPath } from "../../src/domain/operations.ts";
import { encodeQuery } from "../../src/domain/query.ts";
import { minimalBodies, minimalParams } from "./minimal-bodies.ts";
import { startScriptedServer, type ScriptedServer } from "./scripted-server.ts";

const apiKey = "sk-test-SECRET-123";
type UntypedOperation = Operation<string, unknown, unknown>;
type UntypedMethod = (params?: unknown) => Promise<unknown>;

let server: ScriptedServer;
let client: PathlabClient;

beforeAll(async () => {
  // Answers each path with that operation's body; an unknown path gets a 404.
  server = await startScriptedServer((request) =>
    request.path in minimalBodies
      ? { body: minimalBodies[request.path as OperationPath] }
      : { status: 404, body: `no route ${request.path}` },
  );
  client = createClient({ baseUrl: server.baseUrl, apiKey, maxRetries: 0 });
});

afterAll(async () => {
  await client.close();
  await server.close();
});

describe("every operation", () => {
  it("the client has exactly one typed method per entry of the operations table", () => {
    const fromClient: string[] = [];
    const fromTable: string[] = [];
    for (const [section, methods] of Object.entries(operationTable)) {
      for (const [method, operation] of Object.entries(methods)) {
        fromTable.push(`${section}.${method}`);
        expect((operation as UntypedOperation).method).toBe(method);
        expect((operation as UntypedOperation).section).toBe(section);
      }
      const clientSection = (client as unknown as Record<string, Record<string, unknown>>)[section];
      for (const [method, value] of Object.entries(clientSection)) {
        expect(typeof value).toBe("function");
        fromClient.push(`${section}.${method}`);
      }
    }
    expect(fromClient.sort()).toEqual(fromTable.sort());
    expect(fromTable).toHaveLength(operations.length);
  });

  it.each(operations.map((operation) => [operation.path, operation] as const))(
    "%s is reachable through client.request and through its typed method",
    async (path, typed) => {
      const operation = typed as UntypedOperation;
      const params = minimalParams(operation);
      const expected = operation.decode(minimalBodies[path], { naming: neutralNaming });
      const before = server.requests.length;

      const viaRequest = await (client.request as (p: string, q: unknown) => Promise<unknown>)(
        path,
        params,
      );
      const sections = client as unknown as Record<string, Record<string, UntypedMethod>>;
      const viaMethod = await sections[operation.section][operation.method](params);

      expect(viaRequest).toEqual(expected);
      expect(viaMethod).toEqual(expected);
      const seen = server.requests.slice(before);
      expect(seen).toHaveLength(2);
      const query = encodeQuery(operation, params).toString();
      for (const request of seen) {
        expect(request.method).toBe("GET");
        expect(request.path).toBe(path);
        expect(request.rawQuery).toBe(query);
        expect(request.headers.authorization).toBe(`Apikey ${apiKey}`);
      }
    },
  );
});
