/**
 * The queue commands' usage and connection errors, as a user meets them: one line each, the
 * password of the Redis URL masked, and no wait for a Redis that is not there.
 */

import { describe, expect, it } from "vitest";
import { freePort } from "../freePort.ts";
import { runPathlab } from "./runPathlab.ts";

describe("the queue commands", () => {
  it("a Redis that is not there is one line naming it, the password masked, exit 1", async () => {
    const url = `redis://user:hunter2@127.0.0.1:${await freePort()}`;
    const commands = [
      ["queue", "status", "--redis", url],
      ["worker", "--redis", url, "--lake", "unused-lake", "--until-idle"],
      [
        "enqueue",
        "score",
        "--redis",
        url,
        "--from",
        "2026-11-19T06:00:00Z",
        "--to",
        "2026-11-19T07:00:00Z",
        "--now",
        "2026-11-20T12:00:00Z",
      ],
    ];
    // the three at once: each is a process of its own
    const results = await Promise.all(commands.map((args) => runPathlab(args)));
    for (const [index, result] of results.entries()) {
      expect(result.code, commands[index].join(" ")).toBe(1);
      expect(result.stderr).toMatch(
        /^pathlab: cannot reach Redis at redis:\/\/user:\*\*\*@127\.0\.0\.1:\d+ \(ECONNREFUSED\); is redis-server running there\?\n$/,
      );
      expect(result.stderr + result.stdout).not.toContain("hunter2");
    }
    // It does not wait for the server: one that kept retrying would meet the test's timeout.
  }, 60_000);

  it("a URL that is not Redis's and a missing --redis are usage errors (exit 2)", async () => {
    const wrong = await runPathlab(["queue", "status", "--redis", "http://127.0.0.1:6379"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe(
      "pathlab: --redis: expected a redis:// or rediss:// URL, got http://…\n(run 'npx pathlab queue status --help' for usage)\n",
    );
    const missing = await runPathlab(["worker", "--lake", "x"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("pathlab: required option '--redis <url>' not specified");
  });
});
