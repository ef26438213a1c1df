// Shown and run in docs/library.md: scripts/docs.mjs checks both; tsc checks the types.
import { crossCheck } from "pathlab/crosscheck";
import { contextFromServiceRecord, recompute } from "pathlab/insights";
import { ensembleOf } from "pathlab/paths";
import { openStore, queryRows, readPathSets } from "pathlab/store";

// The service's latest BTC 1h liquidation record, as `pathlab sync` stored it
const store = await openStore(process.argv[2] ?? "pathlab.duckdb", { readOnly: true });
const { rows } = await queryRows(
  store,
  `select epoch(forecast_start_time)::double, record from insights
   where operation = '/insights/liquidation' and source = 'service' and asset = 'BTC'
     and horizon = '1h' order by forecast_start_time desc limit 1`,
);
const [startTime, text] = rows[0] as [number, string];
const serviceRecord = JSON.parse(text);
// and the path sets of the miners the service pooled for it
const pathSets = await readPathSets(store, { asset: "BTC", startTime, timeIncrement: 60 });
await store.close();

// Recomputed from those paths, then compared value by value
const operation = "/insights/liquidation";
const ensemble = ensembleOf(pathSets);
const context = {
  asset: "BTC",
  horizon: "1h" as const,
  currentPrice: serviceRecord.current_price,
  forecastStartTime: serviceRecord.forecast_start_time,
  ...contextFromServiceRecord(operation, serviceRecord),
};
const { record, standardErrors } = recompute(operation, ensemble, context);
const check = crossCheck(operation, serviceRecord, record, {
  nPaths: ensemble.nPaths,
  standardErrors,
});

console.log(`${pathSets.length} path sets, ${ensemble.nPaths} paths from ${context.currentPrice}`);
console.log(`verdict: ${check.summary.verdict}, ${JSON.stringify(check.summary.counts)}`);
for (const row of check.rows.filter((row) => row.path.startsWith("data[0].long")).slice(0, 4)) {
  console.log(
    `${row.path}: service ${row.serviceValue}, pathlab ${row.recomputedValue} ± ${row.standardError.toFixed(4)}`,
  );
}
