/**
 * `pathlab lake compact` (the lake's partitions merged, one folder each) and `pathlab lake reduce`
 * (what spans units, computed from the units a lake holds).
 */
import { Command } from "commander";
import { counted } from "../domain/counted.ts";
import { integerOption } from "./optionParsers.ts";
import type { ProgramIo, ProgramStatus } from "./io.ts";
import {
  addDeploymentOptions,
  addPromptRangeOptions,
  addServiceOptions,
  deploymentOf,
  rethrowAsUsage,
  serviceRequest,
  type DeploymentCommandOptions,
  type ServiceCommandOptions,
} from "./serviceOptions.ts";

/**
 * `pathlab lake compact` and `pathlab lake reduce` (exit 1 when a competition's smoothed scores
 * could not be compared with the service's).
 * @example program.addCommand(lakeCommand(io, status));
 */
export function lakeCommand(io: ProgramIo, status: ProgramStatus): Command {
  const compact = new Command("compact")
    .description(
      "merge the unit folders of each partition of a lake into one (readers and workers may keep running)",
    )
    .requiredOption("--lake <dir>", "the lake")
    .option(
      "--min-files <n>",
      "only partitions with at least this many folders (units' or merged ones)",
      integerOption("--min-files", 2, 1_000_000),
      2,
    );
  compact.action(async (options: { lake: string; minFiles: number }) => {
    const { compactLake } = await import("../store/lakeCompact.ts");
    const done = await compactLake(options.lake, { minFiles: options.minFiles });
    const merged = done.reduce((sum, partition) => sum + partition.merged, 0);
    io.stdout(
      `compacted: ${counted(done.length, "partition")}, ${counted(merged, "folder")} merged\n`,
    );
  });
  const reduce = addDeploymentOptions(
    addServiceOptions(
      addPromptRangeOptions(new Command("reduce"), false)
        .description(
          "rank history from the score units a lake holds: every miner's smoothed score, reward weight and rank at each validator update of the range (uid holders read from the service, as `score` reads them)",
        )
        .requiredOption("--lake <dir>", "the lake"),
    ),
  ).addHelpText(
    "after",
    "\nThe rows go into the lake as one unit per update (rank.<competition>.<time>, and\n" +
      "smoothed.<competition>.<time>): a later reduce replaces the updates it computes again.\n" +
      "Give the range `score` ran over to get its rows; without --from/--to the range is the\n" +
      "lake's first to last prompt start. A candidate of `score --lake --candidate` is ranked\n" +
      "among the miners, as `score` ranks it.",
  );
  reduce.action(
    async (
      options: ServiceCommandOptions &
        DeploymentCommandOptions & { lake: string; from?: string; to?: string },
    ) => {
      const { runLakeReduce, reducedLine } = await import("../jobs/score/lakeReduce.ts");
      let reduced;
      try {
        reduced = await runLakeReduce({
          lake: options.lake,
          ...(options.from !== undefined && { from: options.from }),
          ...(options.to !== undefined && { to: options.to }),
          ...deploymentOf(options),
          ...serviceRequest(reduce, options, io.stderr),
        });
      } catch (error) {
        rethrowAsUsage(reduce, error);
      }
      if (reduced.length === 0) io.stdout("reduced: the lake holds no prompt of the range\n");
      for (const competition of reduced) io.stdout(`reduced: ${reducedLine(competition)}\n`);
      if (reduced.some((competition) => "failure" in competition.smoothed)) status.exitCode = 1;
    },
  );
  return new Command("lake")
    .description("the Parquet lake that workers write")
    .addCommand(compact)
    .addCommand(reduce);
}
