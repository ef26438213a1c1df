#!/usr/bin/env node
// `npm run readme`: runs every example of README.md and docs/*.md and writes what a stale one now
// prints into its block; `--check` instead fails when a document no longer shows what its examples
// print (test/readmeExamples.test.ts runs it). docs/architecture.md is not read.
//
// What a document may hold, and how each kind is checked:
//
// - ```console after a `<!-- example: NAME -->` line: a terminal session. Each `$ ` line is a
//   command (a line ending in `\`, or the `> ` lines after it, continue it), the lines up to the
//   next `$ ` are what it prints. The commands run in bash, in a temp folder, as a user would type
//   them in a clone: `npx pathlab` is this checkout's dist/cli/main.js, `npx tsx` the tsx of its
//   node_modules, `examples/` the repository's examples. What they print (stdout and stderr, in
//   order) is compared with what the block shows. A command that exits non-zero fails the check
//   unless it shows its exit code (`$?`). A command ending in `&` runs in the background (only
//   `pathlab serve`: the block shows its banner) until the example's folder is done with.
// - `<!-- example: NAME in FOLDER -->`: the example runs in the shared folder FOLDER, one shell
//   session for every example that names it (README.md first, then docs/ by name, each top to
//   bottom), after FOLDER's setup commands (SHARED below). An example may show a setup command:
//   it is not run again, the block shows what the setup printed.
// - ```sh: commands that cannot run here (npm install, a live service, Redis): `npm run X` must be
//   a script of package.json, and every `npx pathlab …` names a command and options that its
//   `--help` lists. So does every inline `npx pathlab …` of a document (the CLI cheat-sheet).
// - ```ts: the examples/ file that the console example right after it runs (`npx tsx
//   examples/NAME.ts`), verbatim less its first line (a note); `npm run readme` writes it there.
//   Each examples/ file is shown and run by some document.
// - ```text and ```json: no commands (a layout, a record); json must parse.
//
// Not compared, since they vary from run to run by nature: seconds taken (and the table widths
// they change), a port the system chose, how many requests a loaded machine retried, and the order
// in which concurrent units finish (a run of `[i/n]` lines is compared as a set). A line `…` in a
// block stands for any number of lines. `npm run readme` leaves a block that matches as it is
// and writes the whole of what a stale one prints (elide it again by hand).
//
// Options: example names (run only the folders that hold them, without the checks that run
// nothing), `--static` (only those checks, no example), `--check`, `--jobs N` (examples' folders
// run at once, default 2).
import { spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cli = path.join(root, "dist", "cli", "main.js");
const tsx = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");

/**
 * Folders shared by several examples, and the commands that prepare each (run once, quietly,
 * before its examples). The smallest sync that shows the point: one asset, one horizon.
 */
const SHARED = {
  btc: ["npx pathlab sync --assets BTC --horizons 1h --now 2026-11-21T10:00:00Z"],
};

/** The documents read, README.md first. */
function documents() {
  const docs = readdirSync(path.join(root, "docs"))
    .filter((name) => name.endsWith(".md") && name !== "architecture.md")
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", ...docs];
}

const MARKER = /^<!-- example: ([\w-]+)(?: in ([\w-]+))? -->$/;
const COMMANDS = /^(?:[A-Z_]+=\S* )*npx pathlab\b/;

/** Every fenced block of a document, with the example marker above it if any. */
function blocksOf(file, text) {
  const lines = text.split("\n");
  const blocks = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^```(\S*)$/.exec(lines[index]);
    if (open === null) continue;
    const close = lines.indexOf("```", index + 1);
    if (close === -1) throw new Error(`${file}:${index + 1}: a code block that never closes`);
    let above = index - 1;
    while (above >= 0 && lines[above].trim() === "") above--;
    const marker = above >= 0 ? MARKER.exec(lines[above]) : null;
    blocks.push({
      file,
      line: index + 1,
      lang: open[1],
      body: lines.slice(index + 1, close),
      name: marker?.[1],
      folder: marker?.[2],
    });
    index = close;
  }
  return blocks;
}

/** A console block as steps: the command as shown and as bash reads it, and its output. */
function stepsOf(block) {
  const steps = [];
  let step;
  let continues = false;
  for (const line of block.body) {
    const inCommand = step !== undefined && step.output.length === 0;
    if (line.startsWith("$ ")) {
      step = { shown: [line], command: line.slice(2), output: [] };
      steps.push(step);
      continues = line.endsWith("\\");
    } else if (inCommand && (continues || line.startsWith("> "))) {
      step.shown.push(line);
      step.command += `\n${line.startsWith("> ") ? line.slice(2) : line}`;
      continues = line.endsWith("\\");
    } else if (step === undefined) {
      throw new Error(`${block.file}:${block.line}: example ${block.name} starts with output`);
    } else {
      step.output.push(line);
      continues = false;
    }
  }
  for (const each of steps) {
    while (each.output.length > 0 && each.output.at(-1).trim() === "") each.output.pop();
    each.background = /\s&$/.test(each.command);
  }
  return steps;
}

/** What varies from run to run by nature, masked in a step's output lines. */
function comparable(lines) {
  const masked = lines.map((line) =>
    line
      .replace(/\d+(\.\d+)? s\b/g, "#s")
      .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:#")
      .replace(/ \(\d+ retried\)/g, "")
      .replace(/[ ─┬┼┴]+/g, " ")
      .trimEnd(),
  );
  // units finish in an order of their own: each run of `[i/n]` lines compared as a set
  const out = [];
  for (let index = 0; index < masked.length;) {
    if (!/^\[ *\d+\/\d+\]/.test(masked[index])) {
      out.push(masked[index++]);
      continue;
    }
    const run = [];
    while (index < masked.length && /^\[ *\d+\/\d+\]/.test(masked[index])) {
      run.push(masked[index++].replace(/^\[ *\d+\//, "[/"));
    }
    out.push(...run.sort());
  }
  return out;
}

/** Whether fresh lines match shown ones, a shown line `…` standing for any number of lines. */
function matches(shown, fresh) {
  const want = comparable(shown);
  const got = comparable(fresh);
  const memo = new Map();
  const from = (i, j) => {
    const key = i * (got.length + 1) + j;
    if (memo.has(key)) return memo.get(key);
    let result;
    if (i === want.length) result = j === got.length;
    else if (want[i].trim() === "…") result = from(i + 1, j) || (j < got.length && from(i, j + 1));
    else result = j < got.length && want[i] === got[j] && from(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return from(0, 0);
}

/** A bash session in a temp folder, which runs the commands of the examples that share it. */
class Session {
  constructor(label) {
    this.label = label;
    this.folder = mkdtempSync(path.join(tmpdir(), `pathlab-docs-${label}-`));
    this.aside = mkdtempSync(path.join(tmpdir(), `pathlab-docs-aside-`));
    this.background = [];
    this.cpu = 0;
    this.sentinel = `@@docs-${process.pid}-${Math.random().toString(36).slice(2)}@@`;
    symlinkSync(path.join(root, "examples"), path.join(this.folder, "examples"));
    // `npx pathlab` and `npx tsx` as in a clone, whatever the folder
    const bin = path.join(this.aside, "bin");
    mkdirSync(bin);
    writeFileSync(
      path.join(bin, "npx"),
      "#!/bin/sh\n" +
        'case "$1" in\n' +
        `  pathlab) shift; exec "${process.execPath}" "${cli}" "$@" ;;\n` +
        `  tsx) shift; exec "${process.execPath}" "${tsx}" "$@" ;;\n` +
        '  *) echo "docs check: npx $1 is not available to examples" >&2; exit 127 ;;\n' +
        "esac\n",
    );
    chmodSync(path.join(bin, "npx"), 0o755);
    const env = Object.fromEntries(
      Object.entries(process.env).filter(
        ([key]) => !key.startsWith("PATHLAB_") && key !== "FORCE_COLOR" && key !== "COLUMNS",
      ),
    );
    this.shell = spawn("bash", ["--noprofile", "--norc"], {
      cwd: this.folder,
      env: {
        ...env,
        PATH: `${bin}:${path.dirname(process.execPath)}:${process.env.PATH}`,
        NO_COLOR: "1",
        TZ: "UTC",
      },
      stdio: ["pipe", "pipe", "inherit"],
    });
    this.buffer = "";
    this.waiting = undefined;
    this.shell.stdout.on("data", (data) => {
      this.buffer += String(data);
      this.waiting?.();
    });
    this.shell.stdin.write("exec 2>&1\n");
  }

  /** Runs one command; resolves with what it printed and its exit code. */
  run(command, timeoutMs = 300_000) {
    // after the exit code, `times`: the CPU time of the shell's children so far (its 2nd line)
    const pattern = new RegExp(
      `\\n?${this.sentinel} (\\d+)\\n.*\\n(\\d+)m([\\d.]+)s (\\d+)m([\\d.]+)s\\n`,
    );
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        reject(new Error(`no end after ${timeoutMs / 1000} s: ${command}`));
      }, timeoutMs);
      this.waiting = () => {
        const found = pattern.exec(this.buffer);
        if (found === null) return;
        clearTimeout(timer);
        this.waiting = undefined;
        const output = this.buffer.slice(0, found.index);
        this.buffer = this.buffer.slice(found.index + found[0].length);
        const [minutes, seconds, systemMinutes, systemSeconds] = found.slice(2).map(Number);
        this.cpu = 60 * (minutes + systemMinutes) + seconds + systemSeconds;
        resolve({ output, code: Number(found[1]) });
      };
      this.shell.stdin.write(
        `{ ${command}\n} < /dev/null\nprintf '\\n%s %d\\n' '${this.sentinel}' $?; times\n`,
      );
    });
  }

  /** Starts `npx pathlab serve … &` and resolves with its banner. */
  async start(command) {
    const log = path.join(this.aside, `background-${this.background.length}.log`);
    const pidFile = `${log}.pid`;
    const simple = command.replace(/\s&$/, "");
    if (!/^npx pathlab serve\b/.test(simple)) {
      throw new Error(`only \`npx pathlab serve … &\` may run in the background: ${command}`);
    }
    const started = await this.run(`${simple} > '${log}' 2>&1 & echo $! > '${pidFile}'`);
    if (started.code !== 0) throw new Error(`could not start: ${command}\n${started.output}`);
    const pid = Number(readFileSync(pidFile, "utf8"));
    this.background.push(pid);
    const deadline = Date.now() + 120_000;
    for (;;) {
      const text = existsSync(log) ? readFileSync(log, "utf8") : "";
      if (text.includes("Press Ctrl+C to stop.")) return text;
      if (!alive(pid)) throw new Error(`${command} ended before it was ready:\n${text}`);
      if (Date.now() > deadline) throw new Error(`${command} was not ready in 120 s:\n${text}`);
      await sleep(100);
    }
  }

  async close() {
    for (const pid of this.background) {
      try {
        process.kill(pid, "SIGINT");
      } catch {
        continue; // ended already
      }
      for (let waited = 0; alive(pid) && waited < 10_000; waited += 100) await sleep(100);
      if (alive(pid)) process.kill(pid, "SIGKILL");
    }
    await this.run("wait"); // the background processes' CPU time joins the children's
    this.shell.stdin.end("exit\n");
    await new Promise((resolve) => {
      if (this.shell.exitCode !== null) resolve();
      else this.shell.on("exit", resolve);
    });
    rmSync(this.folder, { recursive: true, force: true });
    rmSync(this.aside, { recursive: true, force: true });
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const normalized = (command) =>
  command
    .replace(/\\\n\s*/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/** Runs the examples that share one folder, in order; returns each step's fresh output. */
async function runFolder(label, examples, setup) {
  const session = new Session(label);
  const prepared = new Map();
  try {
    for (const command of setup) {
      const result = await session.run(command);
      if (result.code !== 0) {
        throw new Error(
          `setup of ${label}: \`${command}\` exited ${result.code}:\n${result.output}`,
        );
      }
      prepared.set(normalized(command), result.output);
    }
    for (const example of examples) {
      const started = Date.now();
      const cpu = session.cpu;
      for (const step of example.steps) {
        const key = normalized(step.command);
        if (prepared.has(key)) {
          step.fresh = prepared.get(key);
          prepared.delete(key);
        } else if (step.background) {
          step.fresh = await session.start(step.command);
        } else {
          const result = await session.run(step.command);
          if (result.code !== 0 && !step.command.includes("$?")) {
            throw new Error(
              `${example.file}:${example.line}: example ${example.name}: \`${step.command}\` ` +
                `exited ${result.code}:\n${result.output}`,
            );
          }
          step.fresh = result.output;
        }
        step.fresh = step.fresh.replace(/\s+$/, "").split("\n");
        if (step.fresh.length === 1 && step.fresh[0] === "") step.fresh = [];
      }
      example.seconds = (Date.now() - started) / 1000;
      example.cpu = session.cpu - cpu;
    }
  } finally {
    await session.close();
    cpuSeconds += session.cpu;
  }
}

/** Runs `tasks` (functions returning promises) at most `limit` at a time. */
async function pool(tasks, limit) {
  const queue = [...tasks];
  const errors = [];
  await Promise.all(
    Array.from({ length: Math.min(limit, queue.length) }, async () => {
      while (queue.length > 0) {
        await queue
          .shift()()
          .catch((error) => errors.push(error));
      }
    }),
  );
  if (errors.length > 0) throw new AggregateError(errors, errors.map(String).join("\n\n"));
}

/** CPU time of every folder's commands, background servers included. */
let cpuSeconds = 0;

// --- the checks that run nothing --------------------------------------------------------------

/** The body of each examples/ file as a document shows it (less its first line, a note). */
function exampleFiles() {
  const folder = path.join(root, "examples");
  return new Map(
    readdirSync(folder)
      .filter((name) => name.endsWith(".ts"))
      .map((name) => {
        const body = readFileSync(path.join(folder, name), "utf8").split("\n").slice(1);
        while (body.at(-1) === "") body.pop();
        return [name, body.join("\n")];
      }),
  );
}

/** The examples/ file a ```ts block shows: the one the console example right after it runs. */
function shownFile(allBlocks, block) {
  const next = allBlocks[allBlocks.indexOf(block) + 1];
  if (next === undefined || next.file !== block.file || next.lang !== "console") return undefined;
  return /^\$ .*\bexamples\/(\w+\.ts)\b/m.exec(next.body.join("\n"))?.[1];
}

/** Writes each examples/ file into the ```ts block that shows it (`npm run readme`). */
function writeShownFiles(file) {
  const examples = exampleFiles();
  let text = readFileSync(path.join(root, file), "utf8");
  const blocks = blocksOf(file, text);
  for (const block of blocks.filter((each) => each.lang === "ts").reverse()) {
    const shown = shownFile(blocks, block);
    if (shown === undefined || !examples.has(shown)) continue;
    const lines = text.split("\n");
    lines.splice(block.line, block.body.length, ...examples.get(shown).split("\n"));
    text = lines.join("\n");
  }
  writeFileSync(path.join(root, file), text);
}

/** The words of a `npx pathlab …` command up to its first option: its command path and options. */
function commandOf(text) {
  const words = text.replace(COMMANDS, "").trim().split(/\s+/).filter(Boolean);
  const path = [];
  for (const word of words) {
    if (!/^[a-z][a-z-]*$/.test(word)) break;
    path.push(word);
  }
  const options = [...text.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*/g)].map((match) => match[0]);
  return { path, options };
}

const helps = new Map();
/** `npx pathlab … --help` of a command path (the command's words, then the options it lists). */
function helpOf(words) {
  const key = words.join(" ");
  if (!helps.has(key)) {
    helps.set(
      key,
      new Promise((resolve) => {
        const child = spawn(process.execPath, [cli, ...words, "--help"], {
          env: { ...process.env, NO_COLOR: "1" },
        });
        let text = "";
        child.stdout.on("data", (data) => (text += String(data)));
        child.stderr.on("data", (data) => (text += String(data)));
        child.on("exit", (code) => resolve({ code, text }));
      }),
    );
  }
  return helps.get(key);
}

/** The subcommands a help lists under "Commands:". */
function subcommandsOf(help) {
  const section = help.split(/\nCommands:\n/)[1] ?? "";
  return new Set([...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((match) => match[1]));
}

/** Problems of one `npx pathlab …` as a document writes it (what its help does not list). */
async function checkCommandText(where, text) {
  const { path: words, options } = commandOf(text);
  if (words.length === 0 && options.length === 0) return []; // `npx pathlab …`: a placeholder
  const known = [];
  let help = await helpOf([]);
  for (const word of words) {
    if (!subcommandsOf(help.text).has(word)) break;
    known.push(word);
    help = await helpOf(known);
  }
  if (known.length === 0) return [`${where}: \`${text}\`: no such command`];
  const problems = [];
  const global = ["--help", "--version", "--verbose"];
  for (const option of options) {
    const listed = new RegExp(`(^|[\\s,])${option}(?![\\w-])`, "m").test(help.text);
    if (!listed && !global.includes(option)) {
      problems.push(
        `${where}: \`${text}\`: ${option} is not an option of pathlab ${known.join(" ")}`,
      );
    }
  }
  return problems;
}

/** The commands of a ```sh block, each with its continuation lines joined and comments cut. */
function shellCommands(block) {
  const joined = block.body.join("\n").replace(/\\\n\s*/g, " ");
  return joined
    .split("\n")
    .map((line) => line.replace(/\s+#\s.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .flatMap((line) => line.split(/\s*(?:&&|;|\|)\s*/))
    .map((command) => command.replace(/^(?:[A-Z_]+=\S*\s+)+/, "").replace(/\s&$/, ""));
}

/** Programs a ```sh block may name besides npm and `npx pathlab`, checked by hand. */
const OTHER_PROGRAMS = new Set(["apt-get", "sudo", "redis-server", "export", "cd", "git", "wait"]);

async function staticProblems(allBlocks, texts) {
  const problems = [];
  const scripts = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts;
  const examples = exampleFiles();
  const shown = new Set();
  const run = new Set();
  const pending = [];
  for (const block of allBlocks) {
    const where = `${block.file}:${block.line}`;
    if (block.lang === "console") {
      if (block.name === undefined) problems.push(`${where}: a console block without a marker`);
      for (const line of block.body.filter((each) => each.startsWith("$ "))) {
        for (const match of line.matchAll(/examples\/(\w+\.ts)/g)) run.add(match[1]);
      }
    } else if (block.name !== undefined) {
      problems.push(`${where}: example ${block.name} is not a console block`);
    } else if (block.lang === "sh") {
      for (const command of shellCommands(block)) {
        const [program, second, third] = command.split(/\s+/);
        if (program === "npm") {
          const script = second === "run" ? third : second;
          const builtIn = ["install", "ci", "test", "start", "link", "pack"].includes(second);
          if (!builtIn || ["test", "start"].includes(second)) {
            if (scripts[script] === undefined) problems.push(`${where}: no npm script ${script}`);
          }
        } else if (program === "npx" && second === "pathlab") {
          pending.push(checkCommandText(where, command));
        } else if (!OTHER_PROGRAMS.has(program)) {
          problems.push(`${where}: \`${program}\` in a sh block: run it in a console example`);
        }
      }
    } else if (block.lang === "ts") {
      const file = shownFile(allBlocks, block);
      if (file === undefined || !examples.has(file)) {
        problems.push(`${where}: a ts block must come right before the example that runs its file`);
      } else {
        shown.add(file);
        if (block.body.join("\n") !== examples.get(file)) {
          problems.push(`${where}: this block no longer shows examples/${file}`);
        }
      }
    } else if (block.lang === "json") {
      try {
        JSON.parse(block.body.join("\n"));
      } catch (error) {
        problems.push(`${where}: json that does not parse: ${error.message}`);
      }
    } else if (block.lang === "text") {
      if (block.body.some((line) => line.startsWith("$ "))) {
        problems.push(`${where}: commands in a text block: make it a console example`);
      }
    } else {
      problems.push(`${where}: a \`\`\`${block.lang} block: use console, sh, ts, json or text`);
    }
  }
  for (const name of examples.keys()) {
    if (!shown.has(name)) problems.push(`examples/${name} is shown by no document`);
    if (!run.has(name)) problems.push(`examples/${name} is run by no example`);
  }
  // inline `npx pathlab …` outside code blocks: the cheat-sheet and the prose
  for (const [file, text] of texts) {
    const outside = text.replace(/^```[\s\S]*?^```$/gm, "");
    for (const match of outside.matchAll(/`((?:[A-Z_]+=\S* )*npx pathlab [^`]+)`/g)) {
      pending.push(checkCommandText(file, match[1]));
    }
  }
  for (const found of await Promise.all(pending)) problems.push(...found);
  return problems;
}

// --- main ---------------------------------------------------------------------------------------

const started = Date.now();
const loadAtStart = loadavg()[0];
const check = process.argv.includes("--check");
const jobsAt = process.argv.indexOf("--jobs");
const jobs = jobsAt === -1 ? 2 : Number(process.argv[jobsAt + 1]);
const only = process.argv
  .slice(2)
  .filter((arg, index, all) => !arg.startsWith("--") && all[index - 1] !== "--jobs");

const texts = new Map(
  documents().map((file) => [file, readFileSync(path.join(root, file), "utf8")]),
);
const allBlocks = [...texts].flatMap(([file, text]) => blocksOf(file, text));
const examples = allBlocks.filter((block) => block.name !== undefined && block.lang === "console");
const names = new Set();
for (const example of examples) {
  if (names.has(example.name)) throw new Error(`two examples named ${example.name}`);
  names.add(example.name);
  if (example.folder !== undefined && SHARED[example.folder] === undefined) {
    throw new Error(`${example.file}:${example.line}: no shared folder ${example.folder}`);
  }
  example.steps = stepsOf(example);
}
for (const name of only) if (!names.has(name)) throw new Error(`no example named ${name}`);

// one task per shared folder, one per example of its own; the shared folders first (longest)
const groups = new Map();
for (const example of examples) {
  const label = example.folder ?? example.name;
  if (!groups.has(label)) groups.set(label, []);
  groups.get(label).push(example);
}
const onlyStatic = process.argv.includes("--static");
const chosen = [...groups].filter(
  ([, members]) =>
    !onlyStatic && (only.length === 0 || members.some((member) => only.includes(member.name))),
);
chosen.sort(([a], [b]) => Number(SHARED[b] !== undefined) - Number(SHARED[a] !== undefined));
const staticCheck = only.length === 0 ? staticProblems(allBlocks, texts) : Promise.resolve([]);
const tasks = chosen.map(
  ([label, members]) =>
    () =>
      runFolder(label, members, SHARED[label] ?? []),
);
try {
  await pool(tasks, jobs);
} catch (error) {
  for (const each of error.errors ?? [error]) process.stderr.write(`${each.message ?? each}\n`);
  process.exit(1);
}

const stale = [];
for (const [, members] of chosen) {
  for (const example of members) {
    const fine = example.steps.every((step) => matches(step.output, step.fresh));
    process.stderr.write(
      `docs: example ${example.name} ${fine ? "checked" : "STALE"} ` +
        `(${example.seconds.toFixed(1)} s, ${example.cpu.toFixed(1)} CPU-s)\n`,
    );
    if (!fine) stale.push(example);
  }
}
let problems = await staticCheck;

if (check) {
  for (const example of stale) {
    const shown = example.steps.flatMap((step) => [...step.shown, ...step.output]).join("\n");
    const fresh = example.steps.flatMap((step) => [...step.shown, ...step.fresh]).join("\n");
    process.stderr.write(
      `--- ${example.file}:${example.line}, example ${example.name}:\n${shown}\n+++ now:\n${fresh}\n\n`,
    );
  }
} else {
  // write the whole of what each stale example prints, bottom up so that line numbers hold
  for (const example of [...stale].sort((a, b) => b.line - a.line)) {
    const lines = texts.get(example.file).split("\n");
    const body = example.steps.flatMap((step) => [...step.shown, ...step.fresh]);
    lines.splice(example.line, example.body.length, ...body);
    texts.set(example.file, lines.join("\n"));
    writeFileSync(path.join(root, example.file), texts.get(example.file));
  }
}
if (!check) {
  for (const file of texts.keys()) writeShownFiles(file);
  problems = problems.filter((problem) => !problem.includes("no longer shows examples/"));
}
for (const problem of problems) process.stderr.write(`${problem}\n`);
const seconds = ((Date.now() - started) / 1000).toFixed(1);
const ran = chosen.reduce((sum, [, members]) => sum + members.length, 0);
process.stderr.write(
  `docs: ${ran} examples run in ${chosen.length} folders, ${seconds} s, ` +
    `${cpuSeconds.toFixed(1)} CPU-s (load average ${loadAtStart.toFixed(2)} at the start)\n`,
);
if (problems.length > 0 || (check && stale.length > 0)) {
  if (stale.length > 0) process.stderr.write("The documents are stale: run `npm run readme`.\n");
  process.exit(1);
}
