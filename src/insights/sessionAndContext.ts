/** The first step of every insight: its session, and its context checked against the ensemble. */

import type { Ensemble } from "../paths/ensemble.ts";
import { resolveContext, type InsightContext, type ResolvedContext } from "./context.ts";
import { insightSessionFor, type InsightSession } from "./session.ts";

/**
 * The session of `source` for the context's price and re-base mode ({@link insightSessionFor}),
 * and `context` checked against the session's ensemble ({@link resolveContext}); throws
 * `RangeError` naming `operation` as they do.
 * @example const { session, resolved } = sessionAndContext("liquidationInsight", ensemble, context);
 */
export function sessionAndContext(
  operation: string,
  source: Ensemble | InsightSession,
  context: InsightContext,
): { readonly session: InsightSession; readonly resolved: ResolvedContext } {
  const session = insightSessionFor(source, context);
  return { session, resolved: resolveContext(operation, context, session.ensemble) };
}
