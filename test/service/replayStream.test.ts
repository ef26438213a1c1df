/**
 * The replay server streams a body from its file (layout version 2): the bytes sent are the file's,
 * with its length as `Content-Length`; a body file swapped for a link or a FIFO after the recording
 * was checked is neither followed nor read: the answer is cut off. Real files in a temp folder, the server over real HTTP on 127.0.0.1.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRecording, startReplayServer } from "../../src/service/replay.ts";
import { temporaryFolder } from "../store/helpers.ts";
import { writeHandRecording } from "./handRecording.ts";

let folder: string;
let remove: () => void;
/** 3 MiB of JSON text: a string of hex digits. */
const body = Buffer.from(JSON.stringify(randomBytes(3 * 2 ** 19).toString("hex")));

beforeAll(() => {
  ({ folder, remove } = temporaryFolder());
  writeHandRecording(
    folder,
    (["big", "swapped", "piped", "cut"] as const).map((name) => ({
      name,
      path: `/${name}`,
      query: "",
      body,
    })),
  );
});
afterAll(() => remove?.());

describe("replay of layout version 2", () => {
  it("sends each body file's bytes with its length, and follows no link nor reads a FIFO put in its place", async () => {
    const recording = await loadRecording(folder, "sync");
    expect(recording.exchanges.map((exchange) => exchange.bodyText)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    writeFileSync(join(folder, "000004-cut.body"), body.subarray(0, body.length - 1));
    rmSync(join(folder, "000003-piped.body"));
    execFileSync("mkfifo", [join(folder, "000003-piped.body")]);
    const outside = join(folder, "..", `${folder.split("/").at(-1)}-outside.body`);
    // the target has the recorded length: only O_NOFOLLOW keeps it from being served
    writeFileSync(outside, body);
    rmSync(join(folder, "000002-swapped.body"));
    symlinkSync(outside, join(folder, "000002-swapped.body"));
    const server = await startReplayServer(recording);
    try {
      const response = await fetch(`${server.url}/big`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-length")).toBe(String(body.length));
      expect(Buffer.from(await response.arrayBuffer()).equals(body)).toBe(true);
      const failedOrText = (path: string) =>
        fetch(`${server.url}${path}`)
          .then((answer) => answer.text())
          .catch((error: Error) => `failed: ${error.message}`);
      expect(await failedOrText("/swapped")).toMatch(/^failed: /);
      // no writer ever opens the FIFO: the answer is cut off at once, nothing read from it
      expect(await failedOrText("/piped")).toMatch(/^failed: /);
      // a file cut short since it was checked: a failure, never a short body
      expect(await failedOrText("/cut")).toMatch(/^failed: /);
      expect((await server.report()).answered).toBe(4);
    } finally {
      await server.close();
      rmSync(outside);
    }
  });
});
