/**
 * pathlab: a local-first analytics engine for probabilistic price forecasts.
 *
 * The public API: every layer's entry, each also importable on its own as
 * `pathlab/<layer>` (`pathlab/core`, `pathlab/client`, …).
 *
 * Each layer's entry lists its explicit named exports; this root re-exports those entries whole,
 * so that the root and the layer entries cannot drift apart. A name two layers both exported
 * would be ambiguous here, and tsc rejects that (TS2308); test/package checks that the installed
 * root holds exactly the union of the layer entries.
 * @packageDocumentation
 */
export * from "./domain/index.ts";
export * from "./client/index.ts";
export * from "./paths/index.ts";
export * from "./core/index.ts";
export * from "./sandbox/index.ts";
export * from "./insights/index.ts";
export * from "./crosscheck/index.ts";
export * from "./store/index.ts";
export * from "./scoring/index.ts";
export * from "./jobs/index.ts";
export * from "./plots/index.ts";
