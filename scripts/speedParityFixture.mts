/**
 * Makes test/jobs/fixtures/speedParity.json from the code of a commit before a speed change:
 *
 *   git worktree add /tmp/before <commit> && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   ln -s "$PWD/../shared" /tmp/shared   # only if the old code reads ../shared
 *   npx tsx scripts/speedParityFixture.mts /tmp/before <commit>
 *
 * The runs are those of test/jobs/speedParityRuns.ts, executed with the jobs of the given checkout.
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SPEED_PARITY_FIXTURE, runSpeedParity } from "../test/jobs/speedParityRuns.ts";

const [root, commit] = process.argv.slice(2);
if (root === undefined || commit === undefined) {
  throw new Error("usage: npx tsx scripts/speedParityFixture.mts <checkout folder> <its commit>");
}
const folder = mkdtempSync(join(tmpdir(), "pathlab-parity-"));
try {
  const digests = await runSpeedParity(root, folder);
  writeFileSync(
    SPEED_PARITY_FIXTURE,
    `${JSON.stringify({ madeBy: commit, ...digests }, null, 2)}\n`,
  );
  console.log(`wrote ${SPEED_PARITY_FIXTURE} from ${commit}`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
