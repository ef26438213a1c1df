#!/usr/bin/env node
/** Entry of the `pathlab` command (the package's `bin`; `npm start` runs it after the build). */
import { runCli } from "./program.ts";

// A reader that goes away (`pathlab query … | head`) ends the command quietly, with the exit
// code it had so far, instead of an EPIPE stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(process.exitCode ?? 0);
  });
}

process.exitCode = await runCli(process.argv.slice(2));
