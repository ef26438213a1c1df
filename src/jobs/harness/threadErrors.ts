/**
 * Errors across the unit pool's threads. A thread's error reaches the job's thread by structured
 * clone, which keeps only an `Error`'s message: its class name and fields (an HTTP error's status
 * and operation) are lost. A task therefore returns its error as a plain record, and the job's
 * thread throws it again with the name and the fields it had.
 */

/** Marks a task's result that is an error. */
const THREAD_ERROR = "pathlab thread error";

/** An error as a pool thread returns it. */
interface ThreadError {
  readonly kind: typeof THREAD_ERROR;
  readonly name: string;
  readonly message: string;
  readonly fields: Readonly<Record<string, string | number | undefined>>;
}

/** The fields of an HTTP error that the job's thread reads. */
const FIELDS = ["status", "operation"] as const;

/**
 * `error` as a plain record that a pool thread returns in place of its result.
 * @example try { return await task(); } catch (error) { return threadError(error); }
 */
export function threadError(error: unknown): ThreadError {
  const source = error instanceof Error ? error : new Error(String(error));
  const record = source as unknown as Record<string, unknown>;
  const fields = Object.fromEntries(
    FIELDS.filter(
      (field) => typeof record[field] === "string" || typeof record[field] === "number",
    ).map((field) => [field, record[field] as string | number]),
  );
  return { kind: THREAD_ERROR, name: source.name, message: source.message, fields };
}

/**
 * A pool task's result, or its error thrown again on the job's thread, with the name and fields
 * it had on the pool's thread.
 * @example const pool = resultOfThread(await piscina.run(task));
 */
export function resultOfThread<Result>(result: unknown): Result {
  const error = result as Partial<ThreadError> | null;
  if (typeof error !== "object" || error === null || error.kind !== THREAD_ERROR) {
    return result as Result;
  }
  const thrown = Object.assign(new Error(error.message), error.fields);
  Object.defineProperty(thrown, "name", { value: error.name, configurable: true });
  throw thrown;
}
