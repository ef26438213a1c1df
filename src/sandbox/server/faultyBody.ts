/**
 * Wrong-shape bodies for fault injection (`faults.ts`), from the JSON value of a correct body.
 * Prediction sets, which are too large to re-parse, are altered while they are written
 * (`predictionSetJson.ts`).
 */

/**
 * The text of `json` with a wrong shape:
 * - `missingField`: the first record (the body, or its first element when the body is an array)
 *   lacks its first field; an empty array becomes `[{}]`;
 * - `nanPrice`: the first number in document order is written as the literal `NaN` (not JSON);
 *   a body without numbers is returned unchanged;
 * - `shortPaths`: only prediction sets have paths, so any other body is returned unchanged.
 * `json` itself is not modified.
 * @example
 * faultyBody({ current_price: 1, data: [] }, "missingField") // => '{"data":[]}'
 * faultyBody({ current_price: 1, data: [] }, "nanPrice") // => '{"current_price":NaN,"data":[]}'
 */
export function faultyBody(
  json: unknown,
  kind: "missingField" | "nanPrice" | "shortPaths",
): string {
  if (kind === "missingField") return JSON.stringify(withoutFirstField(json));
  if (kind === "shortPaths") return JSON.stringify(json);
  const marker = "\u0000NaN\u0000"; // no record holds a NUL character
  const replaced = replaceFirstNumber(json, marker);
  if (!replaced.done) return JSON.stringify(json);
  return JSON.stringify(replaced.value).replace(JSON.stringify(marker), "NaN");
}

function withoutFirstField(json: unknown): unknown {
  if (Array.isArray(json)) {
    return json.length === 0 ? [{}] : [withoutFirstField(json[0]), ...json.slice(1)];
  }
  if (json !== null && typeof json === "object") {
    const entries = Object.entries(json);
    return Object.fromEntries(entries.slice(1));
  }
  return json;
}

/** A copy of `json` whose first number (depth first, in key order) is `marker`. */
function replaceFirstNumber(json: unknown, marker: string): { done: boolean; value: unknown } {
  if (typeof json === "number") return { done: true, value: marker };
  if (Array.isArray(json)) {
    for (let index = 0; index < json.length; ++index) {
      const inner = replaceFirstNumber(json[index], marker);
      if (inner.done) {
        const copy = json.slice();
        copy[index] = inner.value;
        return { done: true, value: copy };
      }
    }
    return { done: false, value: json };
  }
  if (json !== null && typeof json === "object") {
    const record = json as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const inner = replaceFirstNumber(record[key], marker);
      if (inner.done) return { done: true, value: { ...record, [key]: inner.value } };
    }
  }
  return { done: false, value: json };
}
