import { open } from 'node:fs/promises';
import { DocpipeError } from '../errors/index.js';
import { errorWords, InputError } from './input-error.js';

/**
 * An input that passed the size limit: docpipe stopped reading it there. A base-level answer of
 * its own, so that files need nothing above base: sniff maps it to its `too-large` refusal
 * (tooLargeSniff), a command that renders to a DocpipeError (toError).
 */
export class TooLargeInput {
  constructor(
    readonly path: string,
    readonly limit: number,
  ) {}

  get message(): string {
    return `more than the limit of ${this.limit} bytes (DOCPIPE_MAX_INPUT_BYTES); docpipe stopped reading it there`;
  }

  /** As a command that renders reports it. */
  toError(field = 'document'): DocpipeError {
    return new DocpipeError('unsupported-file-type', [
      { field, message: `too-large: ${this.message}` },
    ]);
  }
}

/** Read size per call: large enough to be quick, small enough that the cap is never overshot far. */
const CHUNK = 1024 * 1024;

/**
 * Reads a file, a FIFO or a device, stopping once it passes `limit` bytes: `/dev/zero` or an
 * endless pipe costs at most the limit, never the machine's memory. A regular file whose size is
 * already over the limit is not read at all.
 */
export async function readInput(path: string, limit: number): Promise<Buffer | TooLargeInput> {
  const unreadable = (err: unknown) => new InputError(`cannot read ${path}: ${errorWords(err)}`);
  let file;
  try {
    file = await open(path, 'r');
  } catch (err) {
    throw unreadable(err);
  }
  try {
    const stats = await file.stat();
    if (stats.isDirectory()) throw new InputError(`cannot read ${path}: it is a folder`);
    if (stats.isFile() && stats.size > limit) return new TooLargeInput(path, limit);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, limit + 1 - total));
      const { bytesRead } = await file.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > limit) return new TooLargeInput(path, limit);
    }
    return Buffer.concat(chunks, total);
  } catch (err) {
    throw err instanceof InputError ? err : unreadable(err);
  } finally {
    await file.close();
  }
}

/** Reads an input that a command cannot do without: past the limit, bad usage. */
export async function readWholeInput(path: string, limit: number): Promise<Buffer> {
  const read = await readInput(path, limit);
  if (read instanceof TooLargeInput) throw new InputError(`${path} is ${read.message}`);
  return read;
}
