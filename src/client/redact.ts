/**
 * Redaction of the API key from text and errors. The client runs every message, body excerpt and
 * foreign error it reports through these helpers, so the key never reaches a message, a `cause`
 * chain, `JSON.stringify`, `util.inspect` or an event.
 */

/** What a redacted secret is replaced with. @example redactedMark // => "[REDACTED]" */
export const redactedMark = "[REDACTED]";

/** Secrets shorter than this are not searched for: replacing every "a" in a message helps nobody. */
const minimumSecretLength = 4;

/**
 * `Apikey <token>` / `Bearer <token>` as they would appear in a logged header, unless already
 * redacted. The token runs to the next space, quote, comma or semicolon: redacting a trailing
 * bracket too is better than leaving part of a key.
 */
const credentialPattern = /\b(Apikey|Bearer)(\s+)(?!\[REDACTED\])[^\s"',;]+/gi;

/**
 * Replaces every occurrence of each secret, as written and URL-encoded, with `[REDACTED]`, and
 * nothing else. For data such as a response body, where a pattern could hit real content.
 * @example
 * redactSecrets('{"echo":"sk-test-SECRET-123"}', ["sk-test-SECRET-123"]) // => '{"echo":"[REDACTED]"}'
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (let i = 0; i < secrets.length; ++i) {
    const secret = secrets[i];
    if (secret.length < minimumSecretLength) continue;
    if (result.includes(secret)) result = result.split(secret).join(redactedMark);
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret && result.includes(encoded)) {
      result = result.split(encoded).join(redactedMark);
    }
  }
  return result;
}

/**
 * `redactSecrets`, then any `Apikey <token>` / `Bearer <token>` credential replaced too.
 * For messages, stacks and logs.
 * @param text - a message, stack or log line.
 * @param secrets - the secrets to replace, as written (their URL-encoded form is replaced too); one
 *   shorter than 4 characters is left alone.
 * @example
 * redact("key sk-test-SECRET-123 refused", ["sk-test-SECRET-123"]) // => "key [REDACTED] refused"
 * redact("Authorization: Apikey abc123", []) // => "Authorization: Apikey [REDACTED]"
 */
export function redact(text: string, secrets: readonly string[]): string {
  return redactSecrets(text, secrets).replace(credentialPattern, `$1$2${redactedMark}`);
}

/** Error properties worth keeping on a redacted copy: they describe the failure, not the request. */
const keptProperties = ["code", "errno", "syscall"] as const;

/** How deep a `cause` chain is copied; deeper links are dropped. */
const maximumCauseDepth = 8;

/**
 * A redacted copy of a foreign error (such as an undici error, which may carry request options or
 * a socket): a plain `Error` with the same `name`, redacted `message` and `stack`, the `code`,
 * `errno` and `syscall` if present, and a redacted copy of its `cause` chain. Nothing else of the
 * original survives, so no property can carry the key. Non-errors become an `Error` of their text.
 * @example
 * const copy = redactError(new Error("Apikey sk-test-SECRET-123 rejected"), ["sk-test-SECRET-123"]);
 * copy.message // => "Apikey [REDACTED] rejected"
 */
export function redactError(error: unknown, secrets: readonly string[]): Error {
  return copyRedacted(error, secrets, 0);
}

function copyRedacted(error: unknown, secrets: readonly string[], depth: number): Error {
  if (!(error instanceof Error)) return new Error(redact(String(error), secrets));
  const hasCause = error.cause !== undefined && depth < maximumCauseDepth;
  const copy = hasCause
    ? new Error(redact(error.message, secrets), {
        cause: copyRedacted(error.cause, secrets, depth + 1),
      })
    : new Error(redact(error.message, secrets));
  copy.name = error.name;
  copy.stack = error.stack === undefined ? undefined : redact(error.stack, secrets);
  const source = error as unknown as Record<string, unknown>;
  const target = copy as unknown as Record<string, unknown>;
  for (const property of keptProperties) {
    const value = source[property];
    if (typeof value === "string" || typeof value === "number") {
      target[property] = typeof value === "string" ? redact(value, secrets) : value;
    }
  }
  return copy;
}
