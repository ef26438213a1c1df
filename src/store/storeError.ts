/**
 * The errors of the store: what operation failed, on which database, and why (the DuckDB error as
 * `cause`), plus the lock error that says who holds the file and what to do.
 */

/**
 * A store operation that failed. The message names the operation and the database, then what was
 * expected and what happened; the underlying DuckDB error, if any, is the `cause`.
 * @example
 * new StoreError("readPathSet", "/tmp/pathlab.duckdb", "path 3 of path set 12: expected 289 prices, got 288").message
 * // => 'readPathSet on "/tmp/pathlab.duckdb": path 3 of path set 12: expected 289 prices, got 288'
 */
export class StoreError extends Error {
  /** The store operation that failed (`openStore`, `writeUnit`, `exportParquet`…). */
  readonly operation: string;
  /** The database file. */
  readonly databasePath: string;

  /**
   * @param operation - the store operation that failed (`openStore`, `writeUnit`,
   *   `exportParquet`…).
   * @param databasePath - the database file.
   * @param detail - what was expected and what happened.
   * @param options - the underlying error as `cause`, when there is one.
   */
  constructor(operation: string, databasePath: string, detail: string, options?: ErrorOptions) {
    super(`${operation} on ${JSON.stringify(databasePath)}: ${detail}`, options);
    this.name = "StoreError";
    this.operation = operation;
    this.databasePath = databasePath;
  }
}

/**
 * The database file is locked by another process (DuckDB allows one writing process, or any number
 * of read-only ones). The message says which process holds it, as DuckDB reports it, and what to do:
 * `database "./pathlab.duckdb" is locked by another process (PID 4879, /usr/bin/node) that may be
 * writing to it; close that process or wait for its job to end, then retry (read-only opens are
 * refused too while a writer holds the file)`. When the holder only reads, the advice is to open
 * read-only (`{ readOnly: true }`, as `pathlab query` does) or to close the reader before writing.
 * @example
 * try { await openStore("./pathlab.duckdb"); } catch (error) { if (error instanceof StoreLockedError) console.error(error.message); }
 */
export class StoreLockedError extends StoreError {
  /** The holder's process id, when DuckDB names it. */
  readonly pid: number | undefined;
  /** The holder's program, when DuckDB names it (`/usr/bin/node`). */
  readonly program: string | undefined;
  /** Whether DuckDB says a read-only open would succeed (the holder only reads). */
  readonly readOnlyWouldSucceed: boolean;

  /**
   * @param databasePath - the database file.
   * @param readOnly - whether the refused open was read-only, which picks the advice.
   * @param cause - DuckDB's lock error, whose message names the holder.
   */
  constructor(databasePath: string, readOnly: boolean, cause: unknown) {
    const text = cause instanceof Error ? cause.message : String(cause);
    const holder = /Conflicting lock is held in (.*?) \(PID (\d+)\)/.exec(text);
    const program = holder?.[1];
    const pid = holder === null ? undefined : Number(holder[2]);
    const readOnlyWouldSucceed = /open this database in read-only mode/.test(text);
    const who =
      pid === undefined ? "another process" : `another process (PID ${pid}, ${String(program)})`;
    const advice = readOnlyWouldSucceed
      ? `that has it open read-only; open it read-only too ({ readOnly: true }, as \`pathlab query\` does), or close that process before writing`
      : readOnly
        ? `that is writing to it; wait for its job to end or close that process, then retry (a writer excludes readers)`
        : `that may be writing to it; close that process or wait for its job to end, then retry (read-only opens are refused too while a writer holds the file)`;
    super("openStore", databasePath, `database is locked by ${who} ${advice}`, { cause });
    this.message = `database ${JSON.stringify(databasePath)} is locked by ${who} ${advice}`;
    this.name = "StoreLockedError";
    this.pid = pid;
    this.program = program;
    this.readOnlyWouldSucceed = readOnlyWouldSucceed;
  }
}

/**
 * Nothing to open where a reader looked: no database file for a read-only open, or a folder that
 * is not a pathlab lake. Nothing was created.
 * @example
 * try { await openStore("./none.duckdb", { readOnly: true }); } catch (error) { if (error instanceof StoreNotFoundError) console.error(error.message); }
 */
export class StoreNotFoundError extends StoreError {
  /**
   * @param operation - the opening that found nothing (`openStore`, `openLake`).
   * @param path - the database file or the lake's folder.
   * @param detail - what was expected there and how to make one.
   */
  constructor(operation: string, path: string, detail: string) {
    super(operation, path, detail);
    this.name = "StoreNotFoundError";
  }
}
