/**
 * pathlab/store: the DuckDB store and the Parquet lake: a database created and migrated on first
 * use, SQL that only reads (`queryRows`, `streamRows`, refused otherwise by DuckDB itself), path
 * sets read back as Float64Arrays, the lake's files, and Parquet export.
 *
 * The only layer that talks to DuckDB. The root entry `pathlab` re-exports what a user calls first.
 * @module pathlab/store
 */
export * from "./openStore.ts";
export * from "./storeError.ts";
export * from "./writeUnit.ts";
export * from "./readPathSets.ts";
export type { PathSetEntry } from "./pathSets.ts";
export type { InsightEntry } from "./insights.ts";
export * from "./insightLeaves.ts";
export type { CrosscheckEntry } from "./crosschecks.ts";
export type { TradableEdge, VenueComparisonEntry, VenueEdges } from "./venueComparisons.ts";
export { runVenueEdges } from "./venueComparisons.ts";
export type { LeaderboardEntry } from "./leaderboardRows.ts";
export type { Run, RunStatus } from "./runs.ts";
export type { Migration } from "./migrations.ts";
export * from "./exportParquet.ts";
export { EXPORT_MANIFEST, ExportFolderError } from "./exportFolder.ts";
export type { ExportManifest } from "./exportFolder.ts";
export * from "./queryRows.ts";
export * from "./readingStatements.ts";
export { migratedTables, schemaTables } from "./schemaTables.ts";
export type { SchemaTable } from "./schemaTables.ts";
export type { ScoredPromptEntry, MinerScoreEntry, CalibrationRow } from "./scoredPrompts.ts";
export type { SmoothedScoreEntry } from "./smoothedScoreRows.ts";
export { LAKE_MARKER, lakeFiles, openLake, prepareLake } from "./lake.ts";
export { writeLakeUnit } from "./lakeWrite.ts";
export type { LakeUnit } from "./lake.ts";
export { SCORED_PROMPT_TABLES } from "./scoredPrompts.ts";
export { latestRows } from "./lakeLayout.ts";
export * from "./lakeCompact.ts";
