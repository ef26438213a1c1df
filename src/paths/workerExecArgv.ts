/**
 * The Node options of pathlab's worker threads (`ScoringThreads`, `InsightThreads`).
 */

/**
 * The Node options a worker gets: `undefined` (inherit the parent's, Node's default, which also
 * drops process-wide V8 flags a worker may not take) unless the parent has options a worker
 * rejects (`--input-type`, `--eval`, `--print`, as with `node -e`): then the parent's options
 * without those and their values.
 * @example workerExecArgv(["--input-type=module", "--conditions", "node"]) // => ["--conditions", "node"]
 */
export function workerExecArgv(execArgv: readonly string[]): string[] | undefined {
  const withValue = new Set(["--input-type", "--eval", "-e", "--print", "-p"]);
  const rejected = (argument: string) =>
    withValue.has(argument) ||
    argument.startsWith("--input-type=") ||
    argument.startsWith("--eval=") ||
    argument.startsWith("--print=");
  if (!execArgv.some(rejected)) return undefined;
  const kept: string[] = [];
  for (let index = 0; index < execArgv.length; index++) {
    const argument = execArgv[index];
    if (withValue.has(argument)) index++;
    else if (!rejected(argument)) kept.push(argument);
  }
  return kept;
}
