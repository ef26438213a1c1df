/**
 * A recording is input like any other: what `replay.ts` reads of it is checked here first. Only
 * regular files of the recording's folder are read (a link, a FIFO or a device is refused by
 * name), and every exchange file's fields are checked before a request is served.
 */
import { validateHeaderName, validateHeaderValue } from "node:http";
import { lstat, readFile } from "node:fs/promises";
import { join } from "node:path";
import { bodyFileName, type RecordedExchange } from "./record.ts";
import { UsageError } from "./usageError.ts";

/**
 * An exchange as the replay serves it: its body is a file streamed from disk (version 2), or text
 * held in memory (version 1).
 * @example const exchange: LoadedExchange = { sequence: 1, operation: "/x", method: "GET", path: "/x", query: "", status: 200, headers: {}, bodyBytes: 2, bodyFile: "rec/000001-x.body" };
 */
export interface LoadedExchange extends RecordedExchange {
  /** Version 2: the body file's path. */
  readonly bodyFile?: string;
  /** Version 1: the body, read from the exchange file. */
  readonly bodyText?: string;
}

/**
 * The size of `file` when it is a regular file (never a link out of the folder, nor a FIFO or a
 * device, whose read could block for ever). Throws `UsageError` naming the file otherwise.
 * @example await regularFileSize("rec/recording.json", "sync") // => 412
 */
export async function regularFileSize(file: string, command: string): Promise<number> {
  let size: number;
  try {
    const stats = await lstat(file);
    if (!stats.isFile()) size = -1;
    else size = stats.size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(
      `${command}: --replay: cannot read ${JSON.stringify(file)} (${code}); is it a directory made by --record?`,
    );
  }
  if (size < 0) {
    throw new UsageError(
      `${command}: --replay: ${JSON.stringify(file)} is not a regular file (a link, FIFO or device); a recording holds only the files --record wrote`,
    );
  }
  return size;
}

/**
 * The JSON of the regular file `file`. Throws `UsageError` naming the file when it is not a regular
 * file, cannot be read or is not JSON.
 * @example const info = await readRecordingJson("rec/recording.json", "sync");
 */
export async function readRecordingJson(file: string, command: string): Promise<unknown> {
  await regularFileSize(file, command);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(`${command}: --replay: cannot read ${JSON.stringify(file)} (${code})`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `${command}: --replay: ${JSON.stringify(file)} is not JSON (${(error as Error).message})`,
    );
  }
}

/**
 * Reads and checks the exchange file `name` of the recording in `directory`, of layout `version`
 * (1 or 2). In version 2 its body file must be a regular file of exactly `bodyBytes` bytes. Throws
 * `UsageError` naming the file and the field that is wrong.
 * @example const exchange = await loadExchange("rec", "000001-v2-meta-leaderboard-latest.json", 2, "sync");
 */
export async function loadExchange(
  directory: string,
  name: string,
  version: number,
  command: string,
): Promise<LoadedExchange> {
  const file = join(directory, name);
  const exchange = (await readRecordingJson(file, command)) as Partial<
    RecordedExchange & { body: unknown }
  > | null;
  const status = exchange?.status;
  const bodyField: [string, string, boolean] =
    version === 1
      ? ["body", "a string", typeof exchange?.body === "string"]
      : [
          "bodyBytes",
          "a whole number of bytes",
          Number.isInteger(exchange?.bodyBytes) && exchange!.bodyBytes! >= 0,
        ];
  const fields: [string, string, boolean][] = [
    ["sequence", "a whole number", Number.isInteger(exchange?.sequence)],
    ["method", '"GET"', exchange?.method === "GET"],
    [
      "path",
      'a path starting with "/"',
      typeof exchange?.path === "string" && exchange.path.startsWith("/"),
    ],
    ["query", "a string", typeof exchange?.query === "string"],
    [
      "status",
      "an HTTP status from 100 to 599",
      Number.isInteger(status) && status! >= 100 && status! <= 599,
    ],
    [
      "headers",
      "an object of legal header names and values (no line breaks, no framing header such as content-length)",
      legalHeaders(exchange?.headers),
    ],
    bodyField,
  ];
  const wrong = fields.find(([, , ok]) => !ok);
  if (wrong !== undefined) {
    const [field, expected] = wrong;
    const got = JSON.stringify((exchange as Record<string, unknown> | null)?.[field]);
    throw new UsageError(
      `${command}: --replay: ${JSON.stringify(file)}: ${field}: expected ${expected}, got ${got ?? "nothing"}`,
    );
  }
  const { body, ...meta } = exchange as RecordedExchange & { body?: string };
  if (version === 1) {
    return { ...meta, bodyBytes: Buffer.byteLength(body!), bodyText: body! };
  }
  const bodyFile = join(directory, bodyFileName(name));
  const size = await regularFileSize(bodyFile, command);
  if (size !== meta.bodyBytes) {
    throw new UsageError(
      `${command}: --replay: ${JSON.stringify(bodyFile)}: expected ${meta.bodyBytes} bytes (bodyBytes of ${JSON.stringify(name)}), found ${size}`,
    );
  }
  return { ...meta, bodyFile };
}

/** Headers that frame the response: the replay sets them itself, and a recording never holds them. */
const FRAMING_HEADERS = new Set([
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
]);

/**
 * Headers node:http can send as they are: legal names, string values without line breaks, and no
 * header that frames the response.
 */
function legalHeaders(headers: unknown): boolean {
  if (typeof headers !== "object" || headers === null || Array.isArray(headers)) return false;
  try {
    for (const [name, value] of Object.entries(headers)) {
      if (FRAMING_HEADERS.has(name.toLowerCase())) return false;
      validateHeaderName(name);
      for (const item of Array.isArray(value) ? value : [value]) {
        if (typeof item !== "string") return false;
        validateHeaderValue(name, item);
      }
    }
    return true;
  } catch {
    return false;
  }
}
