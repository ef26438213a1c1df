// Shown and run in README.md: scripts/docs.mjs checks both; tsc checks the types.
import { stepQuantiles, touchProbabilities } from "pathlab/core";
import { ensembleOf } from "pathlab/paths";
import { openStore, queryRows, readPathSets } from "pathlab/store";

// The miners' latest BTC 1h path sets, as `pathlab sync` stored them
const store = await openStore(process.argv[2] ?? "pathlab.duckdb", { readOnly: true });
const { rows } = await queryRows(
  store,
  "select max(epoch(start_time))::double from path_sets where asset = 'BTC' and time_increment = 60",
);
const startTime = rows[0][0] as number;
const pathSets = await readPathSets(store, { asset: "BTC", startTime, timeIncrement: 60 });
await store.close();

// pooled: 10 miners × 1,000 paths × 61 minutes in one Float64Array
const ensemble = ensembleOf(pathSets);
const { nPaths, nPoints } = ensemble;
// 5 %, 50 % and 95 % at every minute, as numpy (and DuckDB's quantile_cont) compute them
const quantiles = stepQuantiles(ensemble.stepMajor, nPaths, nPoints, {
  probabilities: [0.05, 0.5, 0.95],
});
const [p5, p50, p95] = Array.from(quantiles.subarray(3 * (nPoints - 1)), Math.round);
// the chance that BTC trades 1 % below its median start within the hour
const level = Float64Array.of(quantiles[1] * 0.99);
const end = Int32Array.of(nPoints - 1);
const touch = touchProbabilities(ensemble.values, nPaths, nPoints, {
  levels: level,
  windowEndSteps: end,
});

console.log(`${pathSets.length} miners, ${nPaths} paths; in one hour: ${p5} / ${p50} / ${p95}`);
const [p, se] = [touch.down.values[0], touch.down.standardErrors[0]];
console.log(`P(touch −1 %) = ${p.toFixed(3)} ± ${se.toFixed(3)}`);
