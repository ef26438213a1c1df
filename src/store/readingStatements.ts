/**
 * The statements a `locked` store runs: those that only read, as DuckDB itself classifies them
 * after parsing and binding.
 */

import {
  StatementType,
  type DuckDBConnection,
  type DuckDBPreparedStatement,
} from "@duckdb/node-api";
import { StoreError } from "./storeError.ts";

/**
 * DuckDB's statement types that read. DESCRIBE, SHOW, SUMMARIZE, FROM-first, VALUES and the
 * PRAGMAs that return information (`pragma table_info('runs')`) are bound as SELECT; PRAGMAs that
 * change something (`pragma enable_profiling`) keep the type PRAGMA and are refused, as are CALL
 * (`checkpoint`), SET/USE/RESET, ATTACH/DETACH, COPY, EXPORT, INSTALL/LOAD, CREATE, INSERT…
 * @example READING_STATEMENT_TYPES.includes(StatementType.SELECT) // => true
 */
export const READING_STATEMENT_TYPES: readonly StatementType[] = [
  StatementType.SELECT,
  StatementType.EXPLAIN,
];

/**
 * A statement that a `locked` store refuses to run, because it does not only read. The message
 * names the statement's place and DuckDB's type: `statement 4 of 4 is a DROP statement; …`.
 * @example
 * new StatementRefusedError("./pathlab.duckdb", 3, 4, "DROP").statementKind // => "DROP"
 */
export class StatementRefusedError extends StoreError {
  /** DuckDB's name of the statement's type (`DROP`, `ATTACH`, `SET`…). */
  readonly statementKind: string;
  /** The statement's place in the SQL, from 0. */
  readonly statementIndex: number;
  /** How many statements the SQL holds. */
  readonly statementCount: number;

  /**
   * @param databasePath - the database file.
   * @param index - the refused statement's place in the SQL, from 0.
   * @param count - how many statements the SQL holds.
   * @param kind - DuckDB's name of the statement's type (`DROP`, `ATTACH`, `SET`…).
   */
  constructor(databasePath: string, index: number, count: number, kind: string) {
    super(
      "query",
      databasePath,
      `statement ${index + 1} of ${count} is a ${kind} statement; only statements that read run ` +
        `here (SELECT, WITH, FROM, VALUES, EXPLAIN, DESCRIBE, SHOW, SUMMARIZE, informational PRAGMAs)`,
    );
    this.name = "StatementRefusedError";
    this.statementKind = kind;
    this.statementIndex = index;
    this.statementCount = count;
  }
}

/**
 * Parses `sql` into its statements and prepares each with DuckDB, which binds it and gives its
 * type; resolves to the prepared statements, in order, when every one reads (its type is one of
 * {@link READING_STATEMENT_TYPES}), and throws a {@link StatementRefusedError} for the first that
 * does not (the statements prepared so far are destroyed); SQL of only comments gives none.
 * Nothing runs here: the caller runs the
 * statements it got (and destroys them), so exactly what was checked is what runs. DuckDB's parse
 * and bind errors pass through as they are.
 * @param connection - the connection that prepares the statements.
 * @param sql - one or more SQL statements.
 * @param databasePath - the database file, for the error's message.
 * @example
 * const [statement] = await readingStatements(connection, "select 1", "./pathlab.duckdb");
 * statement.statementType // => StatementType.SELECT
 */
export async function readingStatements(
  connection: DuckDBConnection,
  sql: string,
  databasePath: string,
): Promise<DuckDBPreparedStatement[]> {
  let extracted;
  try {
    extracted = await connection.extractStatements(sql);
  } catch (error) {
    // DuckDB extracts no statement from SQL of only comments or semicolons, and the binding then
    // throws this generic error (a parse error says "Parser Error: …")
    if ((error as Error).message === "Error in native callback") return [];
    throw error;
  }
  const statements: DuckDBPreparedStatement[] = [];
  try {
    for (let index = 0; index < extracted.count; index++) {
      const statement = await extracted.prepare(index);
      statements.push(statement);
      const type = statement.statementType;
      if (!READING_STATEMENT_TYPES.includes(type)) {
        const kind = (StatementType as unknown as Record<number, string>)[type] ?? `type ${type}`;
        throw new StatementRefusedError(databasePath, index, extracted.count, kind);
      }
    }
    return statements;
  } catch (error) {
    for (const statement of statements) statement.destroySync();
    throw error;
  }
}
