/**
 * The small pure parts of `record` and `replay`: exchange file names, the headers a recording
 * keeps, and the one-line report at the end of a job.
 */

import { describe, expect, it } from "vitest";
import { exchangeHeaders } from "../../src/client/exchange.ts";
import { exchangeFileName } from "../../src/service/record.ts";
import { recordReplayLine } from "../../src/service/recordReplay.ts";

describe("recording format", () => {
  it("exchangeFileName numbers the file and slugs the operation", () => {
    expect(exchangeFileName(7, "/v2/meta-leaderboard/latest")).toBe(
      "000007-v2-meta-leaderboard-latest.json",
    );
    expect(exchangeFileName(123456, "/")).toBe("123456-root.json");
  });

  it("exchangeHeaders keeps content type, retry and quota headers, redacted, and nothing else", () => {
    const key = "sk-test-headers-91ab2c";
    expect(
      exchangeHeaders(
        {
          "content-type": "application/json",
          "set-cookie": ["a=1", "b=2"],
          "retry-after": "3",
          "retry-after-ms": "2500",
          "x-ratelimit-remaining": "7",
          "ratelimit-policy": "100;w=60",
          "x-credits-remaining": "41",
          "x-echo": key,
          "x-credit-note": `key ${key}`,
          authorization: `Apikey ${key}`,
        },
        [key],
      ),
    ).toEqual({
      "content-type": "application/json",
      "retry-after": "3",
      "retry-after-ms": "2500",
      "x-ratelimit-remaining": "7",
      "ratelimit-policy": "100;w=60",
      "x-credits-remaining": "41",
      "x-credit-note": "key [REDACTED]",
    });
  });

  it("recordReplayLine reports a recording, a full replay and the requests a replay missed", () => {
    expect(recordReplayLine("sync", {})).toBeUndefined();
    expect(recordReplayLine("sync", { record: { directory: "rec", exchanges: 12 } })).toBe(
      'sync: recorded 12 responses into "rec"',
    );
    expect(
      recordReplayLine("score", {
        replay: { directory: "rec", exchanges: 9, answered: 9, unanswered: [] },
      }),
    ).toBe('score: replayed 9 requests from "rec"; every request was in the recording');
    expect(
      recordReplayLine("sync", {
        replay: { directory: "rec", exchanges: 9, answered: 8, unanswered: ["GET /x?a=1"] },
      }),
    ).toBe('sync: replayed 8 requests from "rec"; 1 not in the recording: GET /x?a=1');
    expect(recordReplayLine("sync", { record: { directory: "rec", exchanges: 1 } })).toBe(
      'sync: recorded 1 response into "rec"',
    );
    expect(
      recordReplayLine("score", {
        replay: { directory: "rec", exchanges: 1, answered: 1, unanswered: [] },
      }),
    ).toBe('score: replayed 1 request from "rec"; every request was in the recording');
  });
});
