/**
 * pathlab: a local-first analytics engine for probabilistic price forecasts.
 *
 * The public API, grouped by layer (DESIGN.md §1). Explicit named exports only.
 * @packageDocumentation
 */

// spec: the interface as code
export type {
  Section,
  ParamType,
  ParamSpec,
  RangeRule,
  Naming,
  CodecContext,
  Operation,
  ParamsOf,
  ResultOf,
} from "./spec/operation.ts";
