/** `pathlab lake compact`: the lake's partitions merged, one file each. */
import { Command } from "commander";
import { integerOption } from "./optionParsers.ts";
import type { ProgramIo } from "./program.ts";

/**
 * `pathlab lake compact`: merges each partition's files into one.
 * @example program.addCommand(lakeCommand(io));
 */
export function lakeCommand(io: ProgramIo): Command {
  const compact = new Command("compact")
    .description(
      "merge the files of each partition of a lake into one (readers and workers may keep running)",
    )
    .requiredOption("--lake <dir>", "the lake")
    .option(
      "--min-files <n>",
      "only partitions with at least this many files",
      integerOption("--min-files", 2, 1_000_000),
      2,
    );
  compact.action(async (options: { lake: string; minFiles: number }) => {
    const { compactLake } = await import("../store/lakeCompact.ts");
    const done = await compactLake(options.lake, { minFiles: options.minFiles });
    const merged = done.reduce((sum, partition) => sum + partition.merged, 0);
    io.stdout(`compacted: ${done.length} partitions, ${merged} files merged\n`);
  });
  return new Command("lake").description("the Parquet lake that workers write").addCommand(compact);
}
