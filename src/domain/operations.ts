/**
 * The operations table: every operation of the Market Forecast Service's interface, grouped by section,
 * each entry keeping its literal path type. The client, the sandbox, the CLI and the jobs read it.
 * Paths the spec does not show are pathlab's defaults, decided in `default-paths.ts`. The
 * insights and venue sections are the insight kinds' operations (`insightKinds.ts`).
 */
import { familyOperations } from "./insightKindLists.ts";
import type { Operation } from "./operation.ts";
import { leaderboardOperations } from "./operations/leaderboard.ts";
import { predictionOperations } from "./operations/predictions.ts";
import { validationOperations } from "./operations/validation.ts";

/**
 * Every operation, by section and client method name.
 * @example
 * operationTable.insights.liquidation.path // => "/insights/liquidation"
 * operationTable.validation.smoothedScores.pathShown // => false
 */
export const operationTable = {
  insights: familyOperations("insights"),
  venueA: familyOperations("venueA"),
  venueB: familyOperations("venueB"),
  predictions: predictionOperations,
  leaderboard: leaderboardOperations,
  validation: validationOperations,
} as const;

/** The type of {@link operationTable}. @example type Sections = keyof OperationTable; */
export type OperationTable = typeof operationTable;

/** The union of every operation's type. @example type Paths = AnyOperation["path"]; */
export type AnyOperation = {
  [Section in keyof OperationTable]: OperationTable[Section][keyof OperationTable[Section]];
}[keyof OperationTable];

/** The spec path of any operation, as a union of literals. @example const path: OperationPath = "/v2/prediction/best"; */
export type OperationPath = AnyOperation["path"];

/** The operation type for each path. @example type Liquidation = OperationsByPath["/insights/liquidation"]; */
export type OperationsByPath = { [O in AnyOperation as O["path"]]: O };

/**
 * Every operation in table order (section by section).
 * @example
 * operations.length // => 35
 */
export const operations: readonly AnyOperation[] = Object.freeze(
  Object.values(operationTable).flatMap(
    (section) => Object.values(section) as readonly AnyOperation[],
  ),
);

const operationsByPathMap: ReadonlyMap<string, AnyOperation> = new Map(
  operations.map((operation) => [operation.path, operation]),
);

/**
 * The operation of a spec path (neutral words: `/insights/venuea/range`, not a deployment's wire
 * path). Throws a `RangeError` naming the path when there is no such operation.
 * @param path - an operation's spec path, e.g. `/v2/leaderboard/latest`.
 * @example
 * operationByPath("/v2/leaderboard/latest").section // => "leaderboard"
 */
export function operationByPath<const Path extends OperationPath>(
  path: Path,
): OperationsByPath[Path];
/**
 * The operation of any string path (untyped result); throws `RangeError` when there is none.
 * @param path - any string, e.g. a path read from the command line.
 * @example
 * operationByPath(process.argv[2]).method
 */
export function operationByPath(path: string): Operation<string, unknown, unknown>;
export function operationByPath(path: string): Operation<string, unknown, unknown> {
  const operation = operationsByPathMap.get(path);
  if (operation === undefined) {
    // A venue path with a real venue name (`/insights/polymarket/range`) is a wire path.
    const segments = path.split("/");
    const hint =
      segments[1] === "insights" && segments.length > 3
        ? " (use the spec's neutral path such as /insights/venuea/range, not a wire path)"
        : "";
    throw new RangeError(
      `operationByPath: unknown operation path ${JSON.stringify(path)}${hint}; ` +
        `expected one of the ${operations.length} paths of the spec, e.g. "/insights/liquidation"`,
    );
  }
  return operation as Operation<string, unknown, unknown>;
}
