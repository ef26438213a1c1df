// Shown and run in docs/notebooks.md: scripts/docs.mjs checks both; test/package runs it too.
import { writeFile } from "node:fs/promises";
import { HORIZON_LAYOUTS } from "pathlab/domain";
import { percentileFanChart, renderPng, renderSvg } from "pathlab/plots";
import { openStore, queryRows } from "pathlab/store";

const store = await openStore(process.argv[2] ?? "pathlab.duckdb", { readOnly: true });
const { rows } = await queryRows(
  store,
  `select asset, horizon, epoch(forecast_start_time)::double, record from insights
   where operation = '/insights/prediction-percentiles' and source = 'service'
   order by forecast_start_time desc limit 1`,
);
await store.close();
const [asset, horizon, startUnix, record] = rows[0] as [string, "24h" | "1h", number, string];

const chart = percentileFanChart({
  asset,
  startUnix,
  timeIncrement: HORIZON_LAYOUTS[horizon].timeIncrement,
  percentiles: JSON.parse(record).forecast_future.percentiles,
});
await writeFile("fan.svg", await renderSvg(chart)); // no browser: vega draws, resvg rasterizes
await writeFile("fan.png", await renderPng(chart)); // twice the size; DejaVu Sans by default
console.log(chart.title);
