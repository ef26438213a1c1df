/**
 * Decoding a response body from its bytes as they arrive (`PathlabClient.requestStreamed`).
 */

/**
 * One body's decoding, as a {@link StreamedDecoder} starts it: `push` takes the chunks in order as
 * they arrive, `finish` gives the result once the body is complete, or a {@link DecodeAsUsual} to
 * have the body decoded as `request` decodes it. Either may throw: a `SyntaxError` for a body that
 * is not the JSON it should be, any other error for one that does not make the result; the call
 * then fails with a `ResponseDecodeError`. A chunk is only valid during `push`: copy what must
 * outlive it.
 * @example const decoding: StreamedDecoding<number> = { push: (chunk) => {}, finish: () => 0 };
 */
export interface StreamedDecoding<Result> {
  push(chunk: Uint8Array): void;
  finish(): Result | DecodeAsUsual;
}

/**
 * Decodes the successful responses of a call from their bytes as they arrive, instead of the
 * operation's own decoder: one {@link StreamedDecoding} per attempt that gets a 2xx status.
 * @example const counter: StreamedDecoder<number> = { start: () => { let n = 0; return { push: (c) => void (n += c.byteLength), finish: () => n }; } };
 */
export interface StreamedDecoder<Result> {
  start(): StreamedDecoding<Result>;
}

/**
 * What a {@link StreamedDecoding} ends with to have its body decoded the general way
 * (`JSON.parse` and the operation's decoder, with the errors `request` gives): for a body the
 * fast reading does not take as it is. It carries the whole body, which the decoding kept.
 * @example return new DecodeAsUsual(Buffer.concat(chunks));
 */
export class DecodeAsUsual {
  readonly body: Uint8Array;
  /**
   * @param body - the whole body, every chunk the decoding kept, in order.
   */
  constructor(body: Uint8Array) {
    this.body = body;
  }
}
