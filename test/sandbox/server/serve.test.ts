/** `pathlab serve` as a child process: prints the URL and key, answers, stops cleanly on SIGTERM. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/program.ts";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

async function runInProcess(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const exitCode = await runCli(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { exitCode, stdout, stderr };
}

describe("pathlab serve", () => {
  it("starts, prints the URL and the API key, answers from its compute threads, and exits 0 on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      [
        "dist/cli/main.js",
        "serve",
        "--port",
        "0",
        "--seed",
        "7",
        "--now",
        "2026-11-20T12:00:00Z",
        "--naming",
        "live",
        "--faults",
        "latency=1ms,path=/validation/*",
        "--compute-threads",
        "2",
      ],
      { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.on("exit", (code) => resolve(code)),
    );
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes("Press Ctrl+C")) resolve();
        });
        child.on("exit", () => reject(new Error(`serve exited early: ${stderr}`)));
      });
      const url =
        /listening on (http:\/\/127\.0\.0\.1:\d+) \(seed 7, now 2026-11-20T12:00:00\.000Z, naming live\)/.exec(
          stdout,
        )?.[1];
      const apiKey = /API key: (\S+)/.exec(stdout)?.[1];
      expect(url, stdout).toBeDefined();
      expect(apiKey).toMatch(/^sk-sandbox-[0-9a-f]{16}$/);
      expect(stdout).toContain(`export PATHLAB_BASE_URL=${url} PATHLAB_API_KEY=${apiKey}`);
      const realized = await fetch(
        `${url}/validation/realized-path?asset=BTC&start_time=2026-11-20T10:00:00Z&time_increment=60&time_length=3600`,
      );
      expect(realized.status).toBe(200);
      expect(((await realized.json()) as { real_prices: unknown[] }).real_prices).toHaveLength(61);
      const predictions = `${url}/v2/prediction/latest?asset=BTC&time_increment=60&time_length=3600&miner=1`;
      expect((await fetch(predictions)).status).toBe(401);
      const authorized = await fetch(predictions, {
        headers: { authorization: `Apikey ${apiKey}` },
      });
      expect(authorized.status).toBe(200);
      expect(Array.isArray(await authorized.json())).toBe(true);
      expect((await fetch(`${url}/insights/venuea/range`)).status).toBe(404); // live naming
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(stdout).toContain("pathlab sandbox stopped (SIGTERM)");
    } finally {
      child.kill("SIGKILL");
    }
  }, 60_000);

  it("exits 2 with a clear line for options it cannot use", async () => {
    const badFaults = await runInProcess(["serve", "--faults", "5xx=2"]);
    expect(badFaults.exitCode).toBe(2);
    expect(badFaults.stderr).toContain('parseFaults: rule 1, item "5xx=2"');
    const badNow = await runInProcess(["serve", "--now", "yesterday"]);
    expect(badNow.exitCode).toBe(2);
    expect(badNow.stderr).toContain(
      '--now must be an ISO 8601 time such as 2026-02-25T23:45:00Z, got "yesterday"',
    );
    const badPort = await runInProcess(["serve", "--port", "70000"]);
    expect(badPort.exitCode).toBe(2);
    expect(badPort.stderr).toContain('--port must be a whole number from 0 to 65535, got "70000"');
    const badThreads = await runInProcess(["serve", "--compute-threads", "-1"]);
    expect(badThreads.exitCode).toBe(2);
    expect(badThreads.stderr).toContain(
      '--compute-threads must be a whole number from 0 to 64, got "-1"',
    );
  });

  it("documents the fault format in its help", async () => {
    const help = await runInProcess(["serve", "--help"]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain("--faults <rules>");
    expect(help.stdout).toContain("429burst=<n>");
  });
});
