/** Helpers that build the entries of the operations table (`operations.ts`). */
import { decodeWith, type Codec } from "./decode.ts";
import type { Operation } from "./operation.ts";

/**
 * Freezes one operation and keeps its literal path type (`const Path`), so the table's entries stay
 * distinguishable by path at the type level.
 * @example
 * const ping = defineOperation<"/ping", Record<string, never>, string>({ path: "/ping", ...rest });
 * ping.path // type "/ping"
 */
export function defineOperation<const Path extends string, P, R>(
  operation: Operation<Path, P, R>,
): Operation<Path, P, R> {
  return Object.freeze(operation);
}

/** An operation's description with a {@link Codec} in place of `decode`/`encode`. */
export type CodecOperationDefinition<Path extends string, R> = Omit<
  Operation<Path, unknown, R>,
  "decode" | "encode" | "__params"
> & { readonly codec: Codec<R> };

/**
 * Builds an operation whose `decode`/`encode` run a codec, with the parameter type `P` given
 * explicitly (it cannot be inferred from the run-time description). Curried so that `Path` and `R`
 * are still inferred from the definition.
 * @example
 * const latest = codecOperation<NoParams>()({ path: "/leaderboard/latest", codec: leaderboardV1RowsCodec, ...rest });
 */
export function codecOperation<P>() {
  return <const Path extends string, R>(
    definition: CodecOperationDefinition<Path, R>,
  ): Operation<Path, P, R> => {
    const { codec, ...description } = definition;
    return defineOperation<Path, P, R>({
      ...description,
      decode: (json, context) => decodeWith(definition.path, codec, json, context.naming),
      encode: (record, context) => codec.encode(record, context.naming),
    });
  };
}
