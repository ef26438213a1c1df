// ESLint flat config: typescript-eslint's recommended rules plus the layer rules of DESIGN.md §1.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Which layers (folders under src/) each layer may import. Imports point down only;
 * `sandbox/` and `reference/` never reach the fast core, so cross-checks stay independent.
 */
const layers = {
  domain: [],
  core: [],
  reference: ["domain"],
  sandbox: ["domain", "reference"],
  paths: ["domain", "core"],
  client: ["domain"],
  store: ["domain", "paths"],
  insights: ["domain", "paths", "core"],
  scoring: ["domain", "paths", "core"],
  crosscheck: ["domain", "core"],
  service: ["domain", "client", "sandbox"],
  jobs: ["domain", "client", "paths", "insights", "crosscheck", "scoring", "store", "service"],
  cli: ["domain", "jobs", "service", "sandbox", "store", "client"],
  plots: ["domain", "core"],
};

/** Third-party packages that only some layers may import (DESIGN.md §1, "Two rules"). */
const packageOwners = {
  undici: ["client"],
  "@duckdb/node-api": ["store"],
  "apache-arrow": ["paths", "store"],
  "simple-statistics": ["reference"],
  vega: ["plots"],
  "vega-lite": ["plots"],
  "@resvg/resvg-wasm": ["plots"],
  // Worker threads: `paths/workerThreads.ts` (for insights/ and scoring/), the unit pool, the
  // sandbox's compute threads.
  piscina: ["paths", "jobs", "sandbox"],
};

const srcRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "src");

/** The layer (first folder under src/) of an absolute path, `index` for src/index.ts, or undefined. */
function layerOf(absolutePath) {
  const relative = path.relative(srcRoot, absolutePath);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return undefined;
  const [first] = relative.split(path.sep);
  return first === "index.ts" ? "index" : first;
}

/**
 * `pathlab/layers`: resolves every relative import (static, dynamic, re-export) against the file
 * that makes it and reports one that points up or across the layers of DESIGN.md §1, or at the
 * public entry src/index.ts. Resolving the path, rather than matching the import's text, keeps
 * `../../insights/x.ts` inside src/sandbox/server/ (which is src/sandbox/insights/) apart from
 * src/insights/.
 */
const layerRule = {
  meta: {
    type: "problem",
    docs: { description: "imports point down the layers of DESIGN.md §1" },
    schema: [],
  },
  create(context) {
    const fromLayer = layerOf(context.filename);
    if (fromLayer === undefined || layers[fromLayer] === undefined) return {};
    const allowed = new Set([fromLayer, ...layers[fromLayer]]);
    function check(node) {
      const source = node.source;
      if (!source || source.type !== "Literal" || typeof source.value !== "string") return;
      if (!source.value.startsWith(".")) {
        // no-restricted-imports sees static imports only; a package loaded with import() is here
        const owners = packageOwners[source.value];
        if (
          node.type === "ImportExpression" &&
          owners !== undefined &&
          !owners.includes(fromLayer)
        ) {
          context.report({
            node: source,
            message: `only src/${owners.join("/, src/")}/ may import ${source.value} (DESIGN.md §1).`,
          });
        }
        return;
      }
      const target = path.resolve(path.dirname(context.filename), source.value);
      const toLayer = layerOf(target);
      if (toLayer === undefined) {
        context.report({ node: source, message: `src/${fromLayer}/ may not import outside src/.` });
      } else if (toLayer === "index") {
        context.report({
          node: source,
          message: `src/${fromLayer}/ may not import the public entry src/index.ts; import the layer it needs.`,
        });
      } else if (!allowed.has(toLayer)) {
        context.report({
          node: source,
          message: `src/${fromLayer}/ may not import src/${toLayer}/ (layers: DESIGN.md §1).`,
        });
      }
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

/** The first words of DuckDB's statements. */
const SQL_WORDS = [
  ...["SELECT", "WITH", "FROM", "INSERT", "UPDATE", "DELETE", "CREATE", "ALTER", "DROP"],
  ...["TRUNCATE", "COPY", "ATTACH", "DETACH", "USE", "PRAGMA", "SET", "RESET", "CALL"],
  ...["INSTALL", "LOAD", "CHECKPOINT", "VACUUM", "BEGIN", "COMMIT", "ROLLBACK", "SUMMARIZE"],
  ...["DESCRIBE", "SHOW", "EXPLAIN", "EXPORT", "IMPORT"],
];

/** A statement's first word, in capitals, followed by more of it: SQL text. */
const SQL_START = new RegExp(`^\\s*(${SQL_WORDS.join("|")})\\s+\\S`);

/** A statement of one word (or `BEGIN TRANSACTION`), alone in its string. */
const SQL_ALONE = /^\s*(BEGIN( TRANSACTION)?|COMMIT|ROLLBACK|CHECKPOINT|VACUUM);?\s*$/;

/**
 * `pathlab/sql-in-store`: SQL is written in src/store/ only (the one layer that talks to DuckDB).
 * Reports a string or template literal outside it whose text starts with a statement's first word
 * in capitals and more after it: a template's parts are read with each `${…}` as a word, and a
 * string on the left of `+` as followed by what is added. A one-word statement (`COMMIT`) alone
 * is reported too. SQL a user reads in help text (lower case, after the command) is not matched,
 * nor a capital word alone (`method: "DELETE"`).
 */
const sqlRule = {
  meta: {
    type: "problem",
    docs: { description: "SQL is written in src/store/ only" },
    schema: [],
  },
  create(context) {
    const layer = layerOf(context.filename);
    if (layer === undefined || layer === "store") return {};
    const report = (node, text) => {
      if (typeof text === "string" && (SQL_START.test(text) || SQL_ALONE.test(text))) {
        context.report({
          node,
          message: `SQL outside src/store/: write it in a function of src/store/ and call that.`,
        });
      }
    };
    const continued = (node) =>
      node.parent?.type === "BinaryExpression" &&
      node.parent.operator === "+" &&
      node.parent.left === node;
    return {
      Literal: (node) =>
        report(
          node,
          continued(node) && typeof node.value === "string" ? `${node.value}x` : node.value,
        ),
      TemplateLiteral: (node) => {
        const text = node.quasis.map((quasi) => quasi.value.cooked ?? "").join("x");
        report(node, continued(node) ? `${text}x` : text);
      },
    };
  },
};

function restrictionsFor(layer) {
  const paths = Object.entries(packageOwners)
    .filter(([, owners]) => !owners.includes(layer))
    .map(([name, owners]) => ({
      name,
      message: `only src/${owners.join("/, src/")}/ may import ${name} (DESIGN.md §1).`,
    }));
  const patterns = [];
  if (layer === "core" || layer === "domain") {
    // core/ sees Float64Arrays and numbers only; domain/ is the vocabulary. Neither takes packages.
    patterns.push({
      regex: "^(?!\\.{1,2}/)",
      message: `src/${layer}/ imports nothing outside itself (DESIGN.md §1).`,
    });
  }
  return {
    files: [`src/${layer}/**/*.ts`],
    rules: { "no-restricted-imports": ["error", { paths, patterns }] },
  };
}

export default tseslint.config(
  {
    ignores: ["node_modules/", "dist/", "docs-site/", "coverage/", "notebooks/", "**/*.py"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: "readonly",
        process: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        URL: "readonly",
        URLSearchParams: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        Buffer: "readonly",
        performance: "readonly",
        TextDecoder: "readonly",
        TextEncoder: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: ["src/**/*.ts"],
    plugins: { pathlab: { rules: { layers: layerRule, "sql-in-store": sqlRule } } },
    rules: { "pathlab/layers": "error", "pathlab/sql-in-store": "error" },
  },
  {
    // A job's steps (plan, unit, reduce) are functions of their own, each read in a screen or two.
    files: ["src/jobs/**/*.ts"],
    rules: { "max-lines-per-function": ["error", { max: 120 }] },
  },
  ...Object.keys(layers).map(restrictionsFor),
);
