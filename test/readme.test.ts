import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");

describe("README", () => {
  it("shows the library example that tsc checks in examples/client.ts", () => {
    const example = read("examples/client.ts").split("\n").slice(1).join("\n");
    expect(read("README.md")).toContain("```ts\n" + example + "```");
  });

  it("documents the two quick-start commands and the configuration variables", () => {
    const readme = read("README.md");
    expect(readme).toContain("npm install && npm start");
    expect(readme).toContain("npm test");
    expect(readme).toContain("PATHLAB_BASE_URL");
    expect(readme).toContain("PATHLAB_API_KEY");
  });
});
