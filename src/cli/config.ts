/**
 * The project's settings for the commands that talk to a deployment: `pathlab.config.json` in the
 * working folder (or the file `PATHLAB_CONFIG` names), else the `pathlab` section of its
 * `package.json`. They hold the base URL, the naming and the paths, and never the API key.
 */

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { operations } from "../domain/operations.ts";
import { EXIT_USAGE } from "./errors.ts";

/**
 * What a config may set: the defaults of `--base-url`, `--naming` and `--paths`.
 * @example const config: PathlabConfig = { baseUrl: "https://api.example.com", naming: "live" };
 */
export interface PathlabConfig {
  readonly baseUrl?: string;
  readonly naming?: "neutral" | "live" | "auto";
  readonly paths?: Readonly<Record<string, string>>;
}

/**
 * A config that cannot be used: unreadable, not JSON, an unknown field, a wrong value, or a field
 * that looks like a key. The message names the file and the field, never a key's value. The
 * command line prints it as a usage error (exit 2).
 * @example new ConfigFileError("pathlab.config.json", "naming", '"neutral", "live" or "auto"', '"LIVE"')
 */
export class ConfigFileError extends Error {
  constructor(file: string, field: string, expected: string, got: string) {
    super(`${file}: ${field}: expected ${expected}, got ${got}`);
    this.name = "ConfigFileError";
  }
}

/** The config file's name in the working folder. */
export const CONFIG_FILE = "pathlab.config.json";

const SECRET_FIELD = /key|token|secret|password/i;

/**
 * The config of `folder`: `PATHLAB_CONFIG`'s file when set, else `pathlab.config.json`, else the
 * `pathlab` section of `package.json`; undefined when there is none. Throws a
 * {@link ConfigFileError} for one that cannot be used.
 * @example readConfig(process.cwd()) // => { file: "pathlab.config.json", config: { naming: "live" } }
 */
export function readConfig(
  folder: string,
  environment: NodeJS.ProcessEnv = process.env,
): { file: string; config: PathlabConfig } | undefined {
  const named = environment.PATHLAB_CONFIG;
  if (named !== undefined && named !== "") {
    return { file: named, config: checkConfig(named, readJson(resolve(folder, named), named)) };
  }
  const own = readJson(resolve(folder, CONFIG_FILE), CONFIG_FILE, true);
  if (own !== undefined) return { file: CONFIG_FILE, config: checkConfig(CONFIG_FILE, own) };
  const manifest = readJson(resolve(folder, "package.json"), "package.json", true);
  if (typeof manifest !== "object" || manifest === null || !("pathlab" in manifest)) {
    return undefined;
  }
  const file = "package.json#pathlab";
  return { file, config: checkConfig(file, (manifest as { pathlab: unknown }).pathlab) };
}

/**
 * Sets the options of `command` that the config holds (`--base-url`, `--naming`, `--paths`) where
 * neither the command line nor the environment (a variable that is not empty) did. Returns the names of the settings it applied.
 * @example applyConfig(command, readConfig(process.cwd())?.config ?? {}) // => ["naming"]
 */
export function applyConfig(command: Command, config: PathlabConfig): string[] {
  const applied: string[] = [];
  for (const [name, value] of Object.entries(config)) {
    const known = command.options.some((option) => option.attributeName() === name);
    const source = command.getOptionValueSource(name);
    // an empty variable in the environment (PATHLAB_BASE_URL=) sets nothing
    const unset =
      source === undefined ||
      source === "default" ||
      (source === "env" && command.getOptionValue(name) === "");
    if (!known || !unset) continue;
    command.setOptionValueWithSource(name, value, "config");
    applied.push(name);
  }
  return applied;
}

/**
 * What runs before a command that talks to a deployment (the program's `preAction` hook): the
 * project's config of `folder` ({@link readConfig}) fills in the settings that neither the command
 * line nor the environment set ({@link applyConfig}), a line on `stderr` says which; then the
 * paths of `--paths` or `PATHLAB_PATHS` must be spec paths of operations (their form was checked as
 * they were parsed; the spec's operations are loaded only here, when a command runs), else a usage
 * error, exit code 2.
 * @example applyProjectSettings(command, process.cwd(), io.stderr);
 */
export function applyProjectSettings(
  command: Command,
  folder: string,
  stderr: (text: string) => void,
): void {
  const found = readConfig(folder);
  if (found !== undefined) {
    const applied = applyConfig(command, found.config);
    if (applied.length > 0) stderr(`pathlab: ${applied.join(", ")} from ${found.file}\n`);
  }
  if (command.getOptionValueSource("paths") === "config") return;
  const paths = command.getOptionValue("paths") as Record<string, string> | undefined;
  const unknown = Object.keys(paths ?? {}).find(
    (path) => !operations.some((operation) => operation.path === path),
  );
  if (unknown !== undefined) {
    command.error(
      `error: --paths: expected spec paths of operations (as \`pathlab operations\` lists them), got ${JSON.stringify(unknown)}`,
      { exitCode: EXIT_USAGE, code: "commander.invalidArgument" },
    );
  }
}

function readJson(path: string, file: string, optional = false): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (optional && code === "ENOENT") return undefined;
    throw new ConfigFileError(file, "the file", "a readable JSON file", `an error (${code})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConfigFileError(file, "the file", "JSON", syntaxErrorOf(text, error as Error));
  }
}

/**
 * A JSON syntax error without the text around it, which may hold a key: V8's message less its
 * quoted excerpt, and its position as a line and column.
 */
function syntaxErrorOf(text: string, error: Error): string {
  const message = error.message;
  if (/ is not valid JSON$/.test(message)) {
    // `Unexpected token 'x', "…excerpt…" is not valid JSON`: the token, without the excerpt
    return `${message.slice(0, message.indexOf(", "))} (the text around it is not shown: it may hold a key)`;
  }
  const position = /^(.*?)(?: in JSON)? at position (\d+)/s.exec(message);
  if (position === null) {
    return message.includes('"') ? "a syntax error (the text around it is not shown)" : message;
  }
  const before = text.slice(0, Number(position[2])).split("\n");
  return `${position[1]} at line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

function checkConfig(file: string, value: unknown): PathlabConfig {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigFileError(file, "the settings", "an object", JSON.stringify(value));
  }
  for (const [field, setting] of Object.entries(value)) {
    if (SECRET_FIELD.test(field)) {
      throw new ConfigFileError(
        file,
        field,
        "no API key in a config file (it is shared and committed); set PATHLAB_API_KEY or use --api-key-file",
        "a key field (its value is not shown)",
      );
    }
    const got = JSON.stringify(setting);
    if (field === "baseUrl") {
      if (typeof setting !== "string" || !/^https?:\/\/\S+$/.test(setting)) {
        throw new ConfigFileError(file, field, "an http(s) URL", got);
      }
    } else if (field === "naming") {
      if (setting !== "neutral" && setting !== "live" && setting !== "auto") {
        throw new ConfigFileError(file, field, '"neutral", "live" or "auto"', got);
      }
    } else if (field === "paths") {
      checkPaths(file, setting);
    } else {
      throw new ConfigFileError(file, field, "one of baseUrl, naming, paths", "an unknown field");
    }
  }
  return value as PathlabConfig;
}

function checkPaths(file: string, paths: unknown): void {
  if (typeof paths !== "object" || paths === null || Array.isArray(paths)) {
    throw new ConfigFileError(
      file,
      "paths",
      "an object of spec path → path",
      JSON.stringify(paths),
    );
  }
  for (const [specPath, served] of Object.entries(paths)) {
    if (!operations.some((operation) => operation.path === specPath)) {
      throw new ConfigFileError(
        file,
        `paths[${JSON.stringify(specPath)}]`,
        "a spec path of an operation (as `pathlab operations` lists them)",
        "another path",
      );
    }
    if (typeof served !== "string" || !served.startsWith("/")) {
      throw new ConfigFileError(
        file,
        `paths[${JSON.stringify(specPath)}]`,
        'a path starting with "/"',
        JSON.stringify(served),
      );
    }
  }
}
