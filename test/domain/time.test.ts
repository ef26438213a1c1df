import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parseIsoTimeMs } from "../../src/domain/time.ts";

const SAMPLES = [
  "2026-02-25T23:45:17.526606+00:00",
  "2026-03-27 08:00:00Z",
  "2026-02-25T23:27:00Z",
  "2026-02-25T23:27:00",
  "2026-02-25T23:27+02:00",
  "2026-02-25T23:27:05-05:30",
  "2026-02-25T23:27:05.5+0100",
  "2026-02-25",
  "2024-02-29T12:00:00Z",
  "2023-02-29T12:00:00Z",
  "2026-02-30",
  "2026-13-01",
  "2026-02-25T24:00:00Z",
  "2026-02-25T23:60:00Z",
  "25/02/2026",
  "2026-2-5",
];

/** Milliseconds per sample from Python's datetime.fromisoformat (naive read as UTC), null if it refuses. */
function pythonMilliseconds(samples: readonly string[]): (number | null)[] {
  const script = `
import datetime, json, sys
out = []
for text in json.loads(sys.stdin.read()):
    try:
        value = datetime.datetime.fromisoformat(text)
    except ValueError:
        out.append(None)
        continue
    if value.tzinfo is None:
        value = value.replace(tzinfo=datetime.timezone.utc)
    delta = value - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
    out.append(delta.days * 86400000 + delta.seconds * 1000 + delta.microseconds // 1000)
print(json.dumps(out))
`;
  const output = execFileSync("python3", ["-c", script], { input: JSON.stringify(samples) });
  return JSON.parse(output.toString()) as (number | null)[];
}

describe("parseIsoTimeMs", () => {
  it("parseIsoTimeMs agrees with Python's datetime.fromisoformat on accepted and refused forms", () => {
    const expected = pythonMilliseconds(SAMPLES);
    const got = SAMPLES.map((text) => {
      const ms = parseIsoTimeMs(text);
      return Number.isNaN(ms) ? null : ms;
    });
    expect(got).toEqual(expected);
    expect(expected.filter((value) => value !== null).length).toBe(9);
  });
});
