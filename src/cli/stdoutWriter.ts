/** Writing much to stdout without buffering it all: waits for 'drain', stops when stdout closes. */
import type { ProgramIo } from "./io.ts";

/**
 * Writes a piece of text and resolves to whether the command should go on writing: false once
 * stdout is closed (the reader went away).
 * @example if (!(await write(text))) return;
 */
export type StdoutWrite = (text: string) => Promise<boolean>;

/**
 * A writer through `io.stdout` that honours backpressure: after a write that fills
 * `io.stdoutStream`'s buffer it waits for 'drain' before resolving, so a slow reader holds the
 * writer back instead of the text piling up in memory. Resolves false, without writing, once the
 * stream is destroyed or ended, and when it closes while waited on. Without `io.stdoutStream`
 * (tests) every write resolves true at once.
 * @example const write = stdoutWriter(io); await write("[]\n");
 */
export function stdoutWriter(io: ProgramIo): StdoutWrite {
  const stream = io.stdoutStream;
  return async (text) => {
    if (stream !== undefined && (stream.destroyed || stream.writableEnded)) return false;
    io.stdout(text);
    if (stream === undefined || !stream.writableNeedDrain) return true;
    return drained(stream);
  };
}

/** Resolves true on 'drain', false when the stream is (or gets) destroyed first. */
function drained(stream: NodeJS.WriteStream): Promise<boolean> {
  if (stream.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const settle = (open: boolean) => () => {
      stream.off("drain", onDrain);
      stream.off("close", onClose);
      resolve(open);
    };
    const onDrain = settle(true);
    const onClose = settle(false);
    stream.once("drain", onDrain);
    stream.once("close", onClose);
  });
}
