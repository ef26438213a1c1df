// ESLint flat config: typescript-eslint's recommended rules plus the layer rules of DESIGN.md §1.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * Which layers (folders under src/) each layer may import. Imports point down only;
 * `sandbox/` and `reference/` never reach the fast core, so cross-checks stay independent.
 */
const layers = {
  spec: [],
  core: [],
  reference: ["spec"],
  sandbox: ["spec", "reference"],
  paths: ["spec", "core"],
  client: ["spec"],
  store: ["spec", "paths"],
  insights: ["spec", "paths", "core"],
  scoring: ["spec", "paths", "core"],
  crosscheck: ["spec", "core"],
  jobs: ["spec", "client", "paths", "insights", "crosscheck", "scoring", "store", "sandbox"],
  cli: ["spec", "jobs", "sandbox", "store", "client"],
};

/** Third-party packages that only some layers may import (DESIGN.md §1, "Two rules"). */
const packageOwners = {
  undici: ["client"],
  "@duckdb/node-api": ["store"],
  "apache-arrow": ["paths", "store"],
  "simple-statistics": ["reference"],
};

function restrictionsFor(layer) {
  const allowed = new Set([layer, ...layers[layer]]);
  const forbiddenLayers = Object.keys(layers).filter((other) => !allowed.has(other));
  const patterns = forbiddenLayers.map((other) => ({
    group: [`../${other}`, `../${other}/*`, `../../${other}`, `../../${other}/*`],
    message: `src/${layer}/ may not import src/${other}/ (layers: DESIGN.md §1).`,
  }));
  patterns.push({
    group: ["../index", "../index.ts", "../../index", "../../index.ts"],
    message: `src/${layer}/ may not import the public entry src/index.ts; import the layer it needs.`,
  });
  const paths = Object.entries(packageOwners)
    .filter(([, owners]) => !owners.includes(layer))
    .map(([name, owners]) => ({
      name,
      message: `only src/${owners.join("/, src/")}/ may import ${name} (DESIGN.md §1).`,
    }));
  if (layer === "core" || layer === "spec") {
    // core/ sees Float64Arrays and numbers only; spec/ is the vocabulary. Neither takes packages.
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
    ignores: ["node_modules/", "docs-site/", "coverage/", "notebooks/", "**/*.py"],
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
  ...Object.keys(layers).map(restrictionsFor),
);
