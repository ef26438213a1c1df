/** Writing the sandbox's responses: plain-text errors, and JSON bodies with the transport faults. */
import type { ServerResponse } from "node:http";

/**
 * A plain-text response (errors: the spec's 400 and 500 bodies are strings).
 * @example sendText(response, 404, "no operation at /nowhere");
 */
export function sendText(
  response: ServerResponse,
  status: number,
  text: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (response.destroyed || response.headersSent) return;
  const body = Buffer.from(text, "utf8");
  response.writeHead(status, {
    ...headers,
    "content-type": "text/plain; charset=utf-8",
    "content-length": String(body.byteLength),
  });
  response.end(body);
}

/**
 * A 200 JSON response made of `chunks`, written one after the other (a large body is never copied
 * into one buffer). Transport faults:
 * - `truncate`: the full `Content-Length` is declared, half the bytes are sent, then the socket is
 *   destroyed (the client sees the connection close early);
 * - `malformedJson`: a complete response whose last byte is cut off, so the body is not valid JSON.
 * @example sendJson(response, [Buffer.from("[]")], { "x-ratelimit-remaining": "9" }, undefined);
 */
export function sendJson(
  response: ServerResponse,
  chunks: readonly Buffer[],
  headers: Readonly<Record<string, string>>,
  fault: "truncate" | "malformedJson" | undefined,
): void {
  if (response.destroyed || response.headersSent) return;
  let parts = chunks;
  let total = 0;
  for (const chunk of chunks) total += chunk.byteLength;
  if (fault === "malformedJson" && total > 0) {
    parts = cut(chunks, total - 1);
    total -= 1;
  }
  response.writeHead(200, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": String(total),
  });
  if (fault === "truncate") {
    const sent = cut(parts, Math.floor(total / 2));
    for (let index = 0; index < sent.length - 1; ++index) response.write(sent[index]);
    const last = sent.length === 0 ? Buffer.alloc(0) : sent[sent.length - 1];
    response.write(last, () => response.socket?.destroy());
    return;
  }
  for (const part of parts) response.write(part);
  response.end();
}

/** The first `bytes` bytes of `chunks`, as views (no copy). */
function cut(chunks: readonly Buffer[], bytes: number): Buffer[] {
  const out: Buffer[] = [];
  let left = bytes;
  for (const chunk of chunks) {
    if (left <= 0) break;
    out.push(chunk.byteLength <= left ? chunk : chunk.subarray(0, left));
    left -= chunk.byteLength;
  }
  return out;
}
