/**
 * Arguments and failure reports with their secrets removed, before they reach the database.
 */

/** What a removed secret is replaced with. */
const REDACTED = "[REDACTED]";

/** Secrets shorter than this are not searched for in text: replacing every "a" helps nobody. */
const MINIMUM_SECRET_LENGTH = 4;

/**
 * Argument names that hold secrets, compared without case, `-` or `_` (`apiKey`, `--api-key`,
 * `API_KEY`, `PATHLAB_API_KEY`, `token`, `Authorization`…).
 */
const SECRET_NAME = /(apikey|token|secret|password|passwd|authorization|credential)$|^key$/;

function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name.replace(/^-+/, "").replace(/[-_]/g, "").toLowerCase());
}

/**
 * A copy of `value` (JSON-like: objects, arrays, strings, numbers…) with secrets removed:
 * properties whose name says secret (`apiKey`, `api_key`, `token`, `password`…) are dropped; in
 * an argv-like array, the value after such a flag (`--api-key KEY`) and the value of
 * `--api-key=KEY` become `[REDACTED]`; and every occurrence of each string of `secrets` (the
 * actual key, also URL-encoded) in any string becomes `[REDACTED]`.
 * @example
 * withoutSecrets({ assets: ["BTC"], apiKey: "sk-1234", baseUrl: "http://h/?key=sk-1234" }, ["sk-1234"])
 * // => { assets: ["BTC"], baseUrl: "http://h/?key=[REDACTED]" }
 * withoutSecrets(["sync", "--api-key", "sk-1234"], []) // => ["sync", "--api-key", "[REDACTED]"]
 */
export function withoutSecrets(value: unknown, secrets: readonly string[]): unknown {
  const searched = secrets.filter((secret) => secret.length >= MINIMUM_SECRET_LENGTH);
  return copy(value, searched);
}

function copy(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return redactText(value, secrets);
  if (Array.isArray(value)) {
    const result: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      const item = value[index];
      const previous = value[index - 1];
      if (typeof item === "string" && item.startsWith("-") && item.includes("=")) {
        const [flag] = item.split("=", 1);
        if (isSecretName(flag)) {
          result.push(`${flag}=${REDACTED}`);
          continue;
        }
      }
      if (typeof previous === "string" && previous.startsWith("-") && isSecretName(previous)) {
        result.push(REDACTED);
        continue;
      }
      result.push(copy(item, secrets));
    }
    return result;
  }
  if (value !== null && typeof value === "object") {
    const result: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
      if (!isSecretName(name)) result[name] = copy(item, secrets);
    }
    return result;
  }
  return value;
}

function redactText(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    result = result.split(secret).join(REDACTED);
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) result = result.split(encoded).join(REDACTED);
  }
  return result;
}
