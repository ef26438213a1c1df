// The module loader's hook of loadRecorder.mjs: appends each resolved URL to PATHLAB_LOADS_FILE.
import { appendFileSync } from "node:fs";

const target = process.env.PATHLAB_LOADS_FILE;

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (target) appendFileSync(target, `${resolved.url}\n`);
  return resolved;
}
