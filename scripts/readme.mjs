#!/usr/bin/env node
// `npm run readme`: runs the README's console examples with the compiled command (fixed seeds and
// clocks) and writes what they print into README.md; `--check` instead fails when the README no
// longer shows what they print (test/readmeExamples.test.ts runs it in CI).
//
// An example is the ```console block that follows a `<!-- example: NAME -->` line. Each runs its
// commands in one fresh folder, as `npx pathlab …` from that folder would (the compiled
// dist/cli/main.js of this checkout, stdout and stderr together). Only what differs from run to
// run by nature is not compared: seconds taken (and the table widths they change), a port the
// system chose, the order in which concurrent units finish, and how many requests a loaded
// machine had to retry.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cli = path.join(root, "dist", "cli", "main.js");
const readmePath = path.join(root, "README.md");
const PORT = 8799;
const SCORE_NOW = "2026-11-21T10:49:00Z";
/** The prompts of the candidate flow (baseline → validate → score): scored by SCORE_NOW. */
const CANDIDATE_RANGE = [
  "--from",
  "2026-11-21T09:20:00Z",
  "--to",
  "2026-11-21T09:45:00Z",
  "--competition",
  "crypto-1h",
];

/** The examples, by name: each a list of steps run in order in one folder. */
const EXAMPLES = {
  serve: [{ serve: ["serve", "--port", String(PORT), "--now", "2026-11-21T10:00:00Z"] }],
  sync: [{ pathlab: ["sync", "--assets", "BTC,ETH", "--now", "2026-02-25T23:47:00Z"] }],
  query: [
    { quiet: ["sync", "--assets", "BTC,ETH", "--now", "2026-02-25T23:47:00Z"] },
    {
      pathlab: [
        "query",
        "select horizon, count(*) as records from insights group by all order by all",
      ],
    },
  ],
  candidate: [
    {
      pathlab: [
        "baseline",
        ...CANDIDATE_RANGE,
        "--model",
        "gbm",
        "--out",
        "./my-model",
        "--now",
        SCORE_NOW,
      ],
    },
    { pathlab: ["validate", "./my-model"] },
    {
      pathlab: ["score", "--candidate", "./my-model", ...CANDIDATE_RANGE, "--now", SCORE_NOW],
    },
  ],
  score: [
    { prepare: writeCandidate },
    {
      pathlab: [
        "score",
        "--from",
        "2026-11-20T10:00:00Z",
        "--to",
        SCORE_NOW,
        "--now",
        SCORE_NOW,
        "--competition",
        "crypto-24h",
        "--miners",
        "top:8",
        "--candidate",
        "./my-model",
      ],
    },
  ],
};

/** `npx pathlab …args` as the README shows it (arguments quoted for a POSIX shell). */
function shown(args) {
  const quoted = args.map((arg) => (/^[\w./:@=,+-]+$/.test(arg) ? arg : `"${arg}"`));
  return `$ npx pathlab ${quoted.join(" ")}`;
}

function runPathlab(args, cwd) {
  const result = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, PATHLAB_BASE_URL: "", PATHLAB_API_KEY: "", NO_COLOR: "1" },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    throw new Error(`pathlab ${args.join(" ")} exited ${result.status}:\n${result.stderr}`);
  }
  return result.stderr + result.stdout;
}

/** Starts `pathlab serve`, shows its banner and what `curl` gets from it, then stops it. */
async function runServe(args, cwd) {
  const child = spawn(process.execPath, [cli, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let banner = "";
  await new Promise((resolve, reject) => {
    child.stdout.on("data", (data) => {
      banner += String(data);
      if (banner.includes("Press Ctrl+C")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`pathlab serve exited ${code}`)));
  });
  const key = /API key: (\S+)/.exec(banner)[1];
  const url = `http://127.0.0.1:${PORT}/insights/option-pricing?asset=XAU`;
  const curlArgs = ["-s", "-H", `Authorization: Apikey ${key}`, url];
  const curl = spawnSync("curl", curlArgs, { encoding: "utf8" });
  child.kill("SIGINT");
  return (
    `${shown(args)}\n${banner}\n` +
    `$ curl -s -H "Authorization: Apikey ${key}" "${url}"\n${curl.stdout.trimEnd()}\n`
  );
}

/**
 * The score example's candidate folder: miner 150's BTC submission at one prompt with every price
 * raised 0.1 % and rounded as miners round (a model of one's own, slightly off), and a SOL
 * submission one path short.
 */
async function writeCandidate(cwd) {
  const { startSandbox, createClient, roundPrice } = await import(
    path.join(root, "dist", "index.js")
  );
  const sandbox = await startSandbox({ seed: 42, now: SCORE_NOW });
  try {
    const client = createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
    const prompt = { time_increment: 300, time_length: 86400, start_time: "2026-11-20T10:30:00Z" };
    const fetchSet = async (asset) =>
      (await client.request("/v2/prediction/historical", { asset, miner: [150], ...prompt }))[0];
    const folder = path.join(cwd, "my-model");
    mkdirSync(folder);
    const btc = await fetchSet("BTC");
    // Rounded to 8 significant digits as miners round: unrounded prices fail the validator.
    const raised = btc.predictions.map((pathPrices) =>
      pathPrices.map((price) => roundPrice(price * 1.001)),
    );
    const write = (name, asset, set) =>
      writeFileSync(
        path.join(folder, name),
        JSON.stringify({ asset, time_increment: 300, time_length: 86400, ...set }),
      );
    write("btc.json", "BTC", { start_time: btc.start_time, predictions: raised });
    const sol = await fetchSet("SOL");
    write("sol-bad.json", "SOL", {
      start_time: sol.start_time,
      predictions: sol.predictions.slice(1),
    });
    await client.close();
  } finally {
    await sandbox.close();
  }
  return "";
}

async function runExample(steps) {
  const cwd = mkdtempSync(path.join(tmpdir(), "pathlab-readme-"));
  try {
    let text = "";
    for (const step of steps) {
      if (step.serve) text += await runServe(step.serve, cwd);
      else if (step.prepare) text += await step.prepare(cwd);
      else if (step.quiet) runPathlab(step.quiet, cwd);
      else text += `${shown(step.pathlab)}\n${runPathlab(step.pathlab, cwd)}`;
    }
    return text.trimEnd();
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** The example's text with what varies from run to run by nature masked. */
function comparable(text) {
  const masked = text
    .replace(/\d+(\.\d+)? s\b/g, "#s")
    .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:#")
    // a request that timed out on a loaded machine is retried: how many varies from run to run
    .replace(/ \(\d+ retried\)/g, "")
    .replace(/[ ─┬┼┴]+/g, " ");
  // units finish in an order of their own (two at a time): compare their lines as a set
  const lines = masked.split("\n");
  const progress = lines.filter((line) => /^\[ *\d+\/\d+\]/.test(line));
  const rest = lines.filter((line) => !/^\[ *\d+\/\d+\]/.test(line));
  return [...rest, ...progress.map((line) => line.replace(/^\[ *\d+\//, "[/")).sort()].join("\n");
}

const check = process.argv.includes("--check");
const only = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
let readme = readFileSync(readmePath, "utf8");
const stale = [];
for (const [name, steps] of Object.entries(EXAMPLES)) {
  if (only.length > 0 && !only.includes(name)) continue;
  const marker = `<!-- example: ${name} -->`;
  const start = readme.indexOf(marker);
  const fence = "```console\n";
  const fenceStart = readme.indexOf(fence, start);
  if (start === -1 || readme.slice(start + marker.length, fenceStart).trim() !== "") {
    throw new Error(`README.md: no example "${name}" (${marker} then a \`\`\`console block)`);
  }
  const bodyStart = fenceStart + fence.length;
  const bodyEnd = readme.indexOf("\n```", bodyStart);
  const fresh = await runExample(steps);
  if (check) {
    if (comparable(readme.slice(bodyStart, bodyEnd)) !== comparable(fresh)) {
      stale.push(
        `--- README.md, example "${name}":\n${readme.slice(bodyStart, bodyEnd)}\n+++ now:\n${fresh}`,
      );
    }
  } else {
    readme = readme.slice(0, bodyStart) + fresh + readme.slice(bodyEnd);
  }
  process.stderr.write(`readme: example ${name} ${check ? "checked" : "written"}\n`);
}
if (check && stale.length > 0) {
  process.stderr.write(`${stale.join("\n\n")}\n\nREADME.md is stale: run \`npm run readme\`.\n`);
  process.exit(1);
}
if (!check) writeFileSync(readmePath, readme);
