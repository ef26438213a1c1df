/** Entry of the `pathlab` command (bin/pathlab.js and `npm start` load this file). */
import { runCli } from "./program.ts";

process.exitCode = await runCli(process.argv.slice(2));
