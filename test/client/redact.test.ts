import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { redact, redactError, redactedMark } from "../../src/client/redact.ts";

const key = "sk-test-SECRET-123";

describe("redact", () => {
  it("redact replaces every occurrence of the key, as written and URL-encoded", () => {
    const text = `a ${key} b ${key} c ${encodeURIComponent("k y+/=secret")}`;
    expect(redact(text, [key, "k y+/=secret"])).toBe(
      `a ${redactedMark} b ${redactedMark} c ${redactedMark}`,
    );
  });

  it("redact hides Apikey and Bearer credentials even when the key is not known", () => {
    expect(redact('{"authorization":"Apikey other-key-42"}', [])).toBe(
      '{"authorization":"Apikey [REDACTED]"}',
    );
    expect(redact("authorization: bearer abc.def", [])).toBe("authorization: bearer [REDACTED]");
  });

  it("redact leaves text without secrets unchanged and ignores very short secrets", () => {
    expect(redact("nothing to hide", [key])).toBe("nothing to hide");
    expect(redact("a b c", ["a", ""])).toBe("a b c");
  });
});

describe("redactError", () => {
  it("redactError copies name, message, stack, code and the cause chain, without the key", () => {
    const inner = Object.assign(new Error(`socket to host with Apikey ${key}`), {
      code: "ECONNRESET",
      headers: { authorization: `Apikey ${key}` },
    });
    const outer = Object.assign(new Error(`request failed for ${key}`, { cause: inner }), {
      name: "SocketError",
      code: "UND_ERR_SOCKET",
      options: { headers: { authorization: `Apikey ${key}` } },
    });
    const copy = redactError(outer, [key]);
    expect(copy.name).toBe("SocketError");
    expect(copy.message).toBe(`request failed for ${redactedMark}`);
    expect((copy as { code?: string }).code).toBe("UND_ERR_SOCKET");
    const cause = copy.cause as Error & { code?: string };
    expect(cause.message).toBe(`socket to host with Apikey ${redactedMark}`);
    expect(cause.code).toBe("ECONNRESET");
    const renderings = [
      copy.message,
      String(copy.stack),
      String(copy),
      JSON.stringify(copy),
      inspect(copy, { depth: 10, showHidden: true }),
    ];
    for (const rendering of renderings) expect(rendering).not.toContain(key);
    // The original really did carry the key, so the check above can fail.
    expect(inspect(outer, { depth: 10 })).toContain(key);
  });

  it("redactError turns a thrown non-error into an Error of its redacted text", () => {
    const copy = redactError(`boom ${key}`, [key]);
    expect(copy).toBeInstanceOf(Error);
    expect(copy.message).toBe(`boom ${redactedMark}`);
  });

  it("redactError stops copying a cyclic cause chain", () => {
    const cyclic = new Error("loop");
    (cyclic as { cause?: unknown }).cause = cyclic;
    let depth = 0;
    for (let link: unknown = redactError(cyclic, []); link instanceof Error; link = link.cause) {
      depth += 1;
    }
    expect(depth).toBe(9);
  });
});
