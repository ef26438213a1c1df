/**
 * `requestStreamed` against a scripted server on 127.0.0.1: a 2xx body reaches the decoder in
 * chunks and is not kept, statuses and retries behave as in `request`, a decoder's failure is a
 * `ResponseDecodeError` without the key, the body limit holds, and a recording client decodes the
 * whole body it recorded.
 */
import { describe, expect, it } from "vitest";
import {
  ResponseDecodeError,
  ResponseTooLargeError,
  ServerError,
} from "../../src/client/errors.ts";
import type { ClientExchange } from "../../src/client/exchange.ts";
import { DecodeAsUsual, type StreamedDecoder } from "../../src/client/streamed-decoder.ts";
import type { PredictionHistoricalParams } from "../../src/domain/params.ts";
import { serveAndConnect, testApiKey } from "./client-test-setup.ts";

const params: PredictionHistoricalParams = {
  asset: "BTC",
  time_increment: 300,
  time_length: 86400,
  start_time: "2026-02-25T23:45:00Z",
  miner: [47],
};

/** A decoder that keeps every chunk's bytes (copied) and counts its decodings. */
function collectingDecoder(failAt?: { text: string; error: Error }) {
  const starts: { chunks: number; text: string }[] = [];
  const decoder: StreamedDecoder<string> = {
    start() {
      const state = { chunks: 0, text: "" };
      starts.push(state);
      return {
        push(chunk) {
          state.chunks += 1;
          state.text += Buffer.from(chunk).toString("utf8");
          if (failAt !== undefined && state.text.includes(failAt.text)) throw failAt.error;
        },
        finish: () => state.text,
      };
    },
  };
  return { decoder, starts };
}

describe("requestStreamed", () => {
  it("hands a 2xx body to the decoder as it arrives and returns what the decoder makes", async () => {
    const body = JSON.stringify([{ miner_uid: 47, start_time: 1, predictions: [[1, 2]] }]).repeat(
      20_000,
    );
    const { client, events } = await serveAndConnect([{ body }]);
    const { decoder, starts } = collectingDecoder();
    const result = await client.requestStreamed("/v2/prediction/historical", params, decoder);
    expect(result).toBe(body);
    expect(starts).toHaveLength(1);
    // About 1.4 MB arrives in many chunks, not one.
    expect(starts[0].chunks).toBeGreaterThan(1);
    expect(events.find((event) => event.type === "response")).toMatchObject({
      status: 200,
      bytes: body.length,
    });
  });

  it("starts a decoding only for a 2xx response: a 503 is retried as by `request`", async () => {
    const { client, server } = await serveAndConnect([
      { status: 503, body: { detail: "busy" } },
      { body: "[]" },
    ]);
    const { decoder, starts } = collectingDecoder();
    expect(await client.requestStreamed("/v2/prediction/historical", params, decoder)).toBe("[]");
    expect(server.requests).toHaveLength(2);
    expect(starts).toHaveLength(1);
  });

  it("reports a status error with the whole body, as `request` does", async () => {
    const { client } = await serveAndConnect([{ status: 500, body: { detail: "broken" } }], {
      maxRetries: 0,
    });
    const { decoder, starts } = collectingDecoder();
    const error = await client
      .requestStreamed("/v2/prediction/historical", params, decoder)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).bodyText).toBe('{"detail":"broken"}');
    expect(starts).toHaveLength(0);
  });

  it("turns a decoder's SyntaxError into a ResponseDecodeError of kind json, without the key", async () => {
    const body = `[{"miner_uid":47,"note":"${testApiKey}","predictions":[[1,2,oops]]}]`;
    const { client } = await serveAndConnect([{ body }]);
    const failure = new SyntaxError(`unexpected "o" at byte 60 near ${testApiKey}`);
    const { decoder } = collectingDecoder({ text: "oops", error: failure });
    const error = await client
      .requestStreamed("/v2/prediction/historical", params, decoder)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseDecodeError);
    const decodeError = error as ResponseDecodeError;
    expect(decodeError.kind).toBe("json");
    expect(decodeError.status).toBe(200);
    expect(decodeError.message).toMatch(
      /^\/v2\/prediction\/historical: HTTP 200: body is not valid JSON \(unexpected "o" at byte 60 near \[REDACTED\]\); body starts "\[\{\\"miner_uid\\":47,\\"note\\":\\"\[REDACTED\]\\"/,
    );
    const shown = [
      decodeError.message,
      decodeError.stack,
      JSON.stringify(decodeError),
      String((decodeError.cause as Error).message),
    ].join("\n");
    expect(shown).not.toContain(testApiKey);
  });

  it("turns a failure at the end of the body into a ResponseDecodeError of kind shape", async () => {
    const { client } = await serveAndConnect([{ body: "[]" }]);
    const decoder: StreamedDecoder<never> = {
      start: () => ({
        push: () => {},
        finish: () => {
          throw new RangeError("expected 1 prediction set, got 0");
        },
      }),
    };
    const error = await client
      .requestStreamed("/v2/prediction/historical", params, decoder)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseDecodeError);
    expect((error as ResponseDecodeError).kind).toBe("shape");
    expect((error as ResponseDecodeError).message).toBe(
      '/v2/prediction/historical: HTTP 200: body does not make the record: expected 1 prediction set, got 0; body starts "[]"',
    );
  });

  it("decodes a body as `request` does when the decoding ends with DecodeAsUsual", async () => {
    const record = { miner_uid: 47, start_time: 1, predictions: [[1.5, 2.25]] };
    const { client } = await serveAndConnect([
      { body: JSON.stringify([record]) },
      { body: '[{"miner_uid":47,"start_time":1,"predictions":[[1.5,' },
      { body: '[{"miner_uid":47,"start_time":1,"predictions":[[1.5,' },
    ]);
    const keeping: StreamedDecoder<never> = {
      start() {
        const chunks: Buffer[] = [];
        return {
          push: (chunk) => void chunks.push(Buffer.from(chunk)),
          finish: () => new DecodeAsUsual(Buffer.concat(chunks)),
        };
      },
    };
    expect(await client.requestStreamed("/v2/prediction/historical", params, keeping)).toEqual([
      record,
    ]);
    // A truncated body: the very error `request` gives for it.
    const streamed = await client
      .requestStreamed("/v2/prediction/historical", params, keeping)
      .catch((caught: unknown) => caught);
    const usual = await client
      .request("/v2/prediction/historical", params)
      .catch((caught: unknown) => caught);
    expect(streamed).toBeInstanceOf(ResponseDecodeError);
    expect((streamed as ResponseDecodeError).kind).toBe("json");
    expect((streamed as Error).message).toBe((usual as Error).message);
  });

  it("keeps the key out of the body's excerpt where the excerpt's end cuts it, and out of a finish error", async () => {
    // The key starts 5 bytes before the end of the excerpt's 512 bytes.
    const body = `${"x".repeat(507)}${testApiKey}${"y".repeat(100)}`;
    const { client } = await serveAndConnect([{ body }]);
    const decoder: StreamedDecoder<never> = {
      start: () => ({
        push: () => {},
        finish: () => {
          throw new RangeError(`cannot make the record: near ${testApiKey}`);
        },
      }),
    };
    const error = (await client
      .requestStreamed("/v2/prediction/historical", params, decoder)
      .catch((caught: unknown) => caught)) as ResponseDecodeError;
    expect(error).toBeInstanceOf(ResponseDecodeError);
    expect(error.message).toContain("cannot make the record: near [REDACTED]");
    const shown = [
      error.message,
      error.stack,
      error.bodyText,
      JSON.stringify(error),
      (error.cause as Error).message,
      (error.cause as Error).stack,
    ].join("\n");
    expect(shown).not.toContain(testApiKey);
    expect(shown).not.toContain(testApiKey.slice(0, 5));
  });

  it("a decoder that cannot start fails the call at once, not as a connection error", async () => {
    const { client, server, events } = await serveAndConnect([{ body: "[]" }], {
      maxRetries: 3,
    });
    const decoder: StreamedDecoder<never> = {
      start: () => {
        throw new RangeError("no decoding for this prompt");
      },
    };
    const error = await client
      .requestStreamed("/v2/prediction/historical", params, decoder)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseDecodeError);
    expect((error as ResponseDecodeError).kind).toBe("shape");
    expect(server.requests).toHaveLength(1);
    // The response arrived: it is reported as any response is.
    expect(events.filter((event) => event.type === "response")).toHaveLength(1);
  });

  it("cuts off a body over the operation's limit", async () => {
    const { client } = await serveAndConnect([{ body: "7".repeat(300_000) }], {
      maxBodyBytes: 100_000,
    });
    const { decoder } = collectingDecoder();
    const error = await client
      .requestStreamed("/v2/prediction/historical", params, decoder)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limitBytes: 100_000, status: 200 });
  });

  it("with a recording, records the whole body and decodes it in one chunk", async () => {
    const body = JSON.stringify([{ miner_uid: 47, start_time: 1, predictions: [[1.5, 2.25]] }]);
    const exchanges: ClientExchange[] = [];
    const { client } = await serveAndConnect([{ body }], {
      onExchange: (exchange) => exchanges.push(exchange),
    });
    const { decoder, starts } = collectingDecoder();
    expect(await client.requestStreamed("/v2/prediction/historical", params, decoder)).toBe(body);
    expect(starts).toEqual([{ chunks: 1, text: body }]);
    expect(exchanges.map((exchange) => exchange.bodyText)).toEqual([body]);
  });
});
