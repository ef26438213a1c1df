/**
 * `readConfig` on real folders: where the settings are found, and each config that cannot be used
 * refused with the file and the field named (and a key's value never shown).
 */

import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigFileError, readConfig } from "../../src/cli/config.ts";
import { temporaryFolder } from "../store/helpers.ts";
import { runPathlab } from "./runPathlab.ts";

let folder: string;
let remove: () => void;
beforeEach(() => ({ folder, remove } = temporaryFolder()));
afterEach(() => remove());

const write = (name: string, value: unknown) =>
  writeFileSync(join(folder, name), typeof value === "string" ? value : JSON.stringify(value));

describe("readConfig", () => {
  it("reads pathlab.config.json first, else package.json's pathlab section, else nothing", () => {
    expect(readConfig(folder, {})).toBeUndefined();
    write("package.json", { name: "mine", pathlab: { naming: "live" } });
    expect(readConfig(folder, {})).toEqual({
      file: "package.json#pathlab",
      config: { naming: "live" },
    });
    write("pathlab.config.json", { baseUrl: "https://api.example.com", naming: "neutral" });
    expect(readConfig(folder, {})).toEqual({
      file: "pathlab.config.json",
      config: { baseUrl: "https://api.example.com", naming: "neutral" },
    });
    write("elsewhere.json", { paths: { "/validation/smoothed-scores": "/rewards/scores" } });
    expect(readConfig(folder, { PATHLAB_CONFIG: "elsewhere.json" })).toEqual({
      file: "elsewhere.json",
      config: { paths: { "/validation/smoothed-scores": "/rewards/scores" } },
    });
  });

  it("a package.json without a pathlab section is no config", () => {
    write("package.json", { name: "mine" });
    expect(readConfig(folder, {})).toBeUndefined();
  });

  it.each([
    [
      { naming: "LIVE" },
      'pathlab.config.json: naming: expected "neutral", "live" or "auto", got "LIVE"',
    ],
    [
      { baseUrl: "api.example.com" },
      'pathlab.config.json: baseUrl: expected an http(s) URL, got "api.example.com"',
    ],
    [
      { database: "x.duckdb" },
      "pathlab.config.json: database: expected one of baseUrl, naming, paths, got an unknown field",
    ],
    [
      { paths: { "/insights/nowhere": "/x" } },
      'pathlab.config.json: paths["/insights/nowhere"]: expected a spec path of an operation (as `pathlab operations` lists them), got another path',
    ],
    [
      { paths: { "/validation/smoothed-scores": "rewards/scores" } },
      'pathlab.config.json: paths["/validation/smoothed-scores"]: expected a path starting with "/", got "rewards/scores"',
    ],
    [[1], "pathlab.config.json: the settings: expected an object, got [1]"],
  ])("refuses %j", (config, message) => {
    write("pathlab.config.json", config);
    expect(() => readConfig(folder, {})).toThrow(
      new ConfigFileError("x", "y", "z", "w").constructor,
    );
    expect(() => readConfig(folder, {})).toThrow(message);
  });

  it("refuses a key field without showing its value, and a file that is not JSON", () => {
    for (const field of ["apiKey", "api_key", "token"]) {
      write("pathlab.config.json", { [field]: "sk-live-secret-77" });
      const error = (() => {
        try {
          readConfig(folder, {});
        } catch (caught) {
          return caught as Error;
        }
        throw new Error("accepted");
      })();
      expect(error.message).toContain(`pathlab.config.json: ${field}: expected no API key`);
      expect(error.message).not.toContain("sk-live-secret-77");
    }
    write("pathlab.config.json", "{ naming: live }");
    expect(() => readConfig(folder, {})).toThrow(
      /^pathlab\.config\.json: the file: expected JSON, got /,
    );
    expect(() => readConfig(folder, { PATHLAB_CONFIG: "missing.json" })).toThrow(
      "missing.json: the file: expected a readable JSON file, got an error (ENOENT)",
    );
  });
});

describe("a config file that does not parse", () => {
  const secret = "sk-live-LEAKCHECK-2f9c71";
  it.each([
    ["a single-quoted key", `{\n  "apiKey": '${secret}'\n}`],
    ["an unquoted key", `{"apiKey": ${secret}}`],
    ["a key before a missing comma", `{"apiKey": "${secret}" "naming": "live"}`],
    ["a key in a string that never ends", `{"naming": "live",\n "token": "${secret}`],
    ["a key after a trailing comma", `{"apiKey": "${secret}",}`],
    ["a key in a field name", `{"${secret}" 1}`],
    ["a key after the object", `{"naming": "live"} ${secret}`],
  ])("never shows the text around the error: %s", (_case, text) => {
    write("pathlab.config.json", text);
    const message = (() => {
      try {
        readConfig(folder, {});
      } catch (caught) {
        return (caught as Error).message;
      }
      throw new Error("accepted");
    })();
    expect(message).toMatch(/^pathlab\.config\.json: the file: expected JSON, got /);
    // no 4 characters of the key in a row
    for (let start = 0; start + 4 <= secret.length; start++) {
      expect(message).not.toContain(secret.slice(start, start + 4));
    }
  });

  it("names the line and column where V8 gives a position", () => {
    write("pathlab.config.json", `{\n  "naming": "live",\n}`);
    expect(() => readConfig(folder, {})).toThrow(
      "pathlab.config.json: the file: expected JSON, got Expected double-quoted property name at line 3, column 1",
    );
  });
});

describe("--paths and PATHLAB_PATHS on the command", () => {
  it("refuses a path that is no spec path of an operation before the command does anything: exit 2, one line", async () => {
    const database = join(folder, "never.duckdb");
    const line =
      'pathlab: --paths: expected spec paths of operations (as `pathlab operations` lists them), got "/insights/nowhere"';
    const paths = JSON.stringify({ "/insights/nowhere": "/x" });
    for (const [args, env] of [
      [["--paths", paths], {}],
      [[], { PATHLAB_PATHS: paths }],
    ] as [string[], Record<string, string>][]) {
      const finished = await runPathlab(["sync", "--db", database, ...args], { cwd: folder, env });
      expect(finished.code, finished.stderr).toBe(2);
      expect(finished.stderr).toBe(`${line}\n(run 'npx pathlab sync --help' for usage)\n`);
      expect(existsSync(database)).toBe(false);
    }
  }, 60_000);
});
