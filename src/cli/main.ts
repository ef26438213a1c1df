#!/usr/bin/env node
/** Entry of the `pathlab` command (the package's `bin`; `npm start` runs it after the build). */
import { runCli } from "./program.ts";

// A reader that goes away (`pathlab query … | head`) is no error: the stream is destroyed, later
// writes to it are skipped (program.ts), and the command ends as it would have, closing its run
// and exiting with its own code, without an EPIPE stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
}

process.exitCode = await runCli(process.argv.slice(2));
