/** `pathlab operations`: the operations of the interface, as pathlab's client speaks them. */
import { Command, Option } from "commander";
import type { ParamSpec, Section } from "../domain/operation.ts";
import type { ProgramIo } from "./io.ts";
import { tableStyle } from "./tableStyle.ts";

const SECTIONS: readonly Section[] = [
  "insights",
  "venueA",
  "venueB",
  "predictions",
  "leaderboard",
  "validation",
];

function describeParam(param: ParamSpec): string {
  const name = param.repeated ? `${param.name}[]` : param.name;
  return param.required ? `${name}*` : name;
}

/** Builds the `operations` command. */
export function operationsCommand(io: ProgramIo): Command {
  return new Command("operations")
    .description("list every operation of the interface: path, client method, auth, parameters")
    .addOption(new Option("--section <name>", "only this section").choices(SECTIONS))
    .option("--json", "print JSON instead of a table")
    .addHelpText(
      "after",
      "\nParameters marked * are required; [] marks a repeated parameter (miner=1&miner=2).\n" +
        "Paths marked † are not shown by the spec: they are pathlab's defaults, overridable per client.",
    )
    .action(async (options: { section?: Section; json?: boolean }) => {
      // Loaded on use: building the program loads neither the spec's operations nor the tables.
      const [{ operations }, { default: Table }] = await Promise.all([
        import("../domain/operations.ts"),
        import("cli-table3"),
      ]);
      const selected = operations.filter(
        (operation) => options.section === undefined || operation.section === options.section,
      );
      if (options.json) {
        const rows = selected.map((operation) => ({
          path: operation.path,
          section: operation.section,
          method: operation.method,
          summary: operation.summary,
          auth: operation.auth,
          credits: operation.credits,
          pathShown: operation.pathShown,
          params: operation.params.map((param) => ({ ...param })),
          ranges: operation.ranges,
        }));
        io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      const table = new Table({
        head: ["path", "client method", "auth", "parameters"],
        style: tableStyle(io.stdoutColors === true),
      });
      for (const operation of selected) {
        table.push([
          operation.pathShown ? operation.path : `${operation.path} †`,
          `${operation.section}.${operation.method}`,
          operation.auth ? "Apikey" : "public",
          operation.params.map(describeParam).join(" "),
        ]);
      }
      io.stdout(`${table.toString()}\n`);
    });
}
