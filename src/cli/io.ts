import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { FillOptions } from '../fill/index.js';
import { parseDelimiters } from '../fill/index.js';
import type { DocpipeConfig } from '../config/index.js';
import { DocpipeError } from '../errors/index.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../pipeline/index.js';
import { unsupported, type UnsupportedSniff } from '../sniff/index.js';
import { UsageError } from './exit-codes.js';

/** What a file system error means, in words, with its code for searching. */
export function errorWords(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    ENOENT: 'no such file or folder',
    EACCES: 'permission denied',
    EPERM: 'not permitted',
    EISDIR: 'it is a folder',
    ENOTDIR: 'a part of the path is not a folder',
    ENOSPC: 'no space left on the device',
    EROFS: 'the file system is read-only',
    ENXIO: 'not a file that can be read (a socket?)',
  };
  if (code && words[code]) return `${words[code]} (${code})`;
  return code ?? (err as Error).message;
}

/** An input that passed the size limit: docpipe stopped reading it there. */
export class TooLargeInput {
  constructor(
    readonly path: string,
    readonly limit: number,
  ) {}

  get message(): string {
    return `more than the limit of ${this.limit} bytes (DOCPIPE_MAX_INPUT_BYTES); docpipe stopped reading it there`;
  }

  /** As sniff reports it. */
  toSniff(): UnsupportedSniff {
    return unsupported('too-large', this.message);
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
  const unreadable = (err: unknown) => new UsageError(`cannot read ${path}: ${errorWords(err)}`);
  let file;
  try {
    file = await open(path, 'r');
  } catch (err) {
    throw unreadable(err);
  }
  try {
    const stats = await file.stat();
    if (stats.isDirectory()) throw new UsageError(`cannot read ${path}: it is a folder`);
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
    throw err instanceof UsageError ? err : unreadable(err);
  } finally {
    await file.close();
  }
}

/** Reads an input that a command cannot do without: past the limit, bad usage. */
export async function readWholeInput(path: string, limit: number): Promise<Buffer> {
  const read = await readInput(path, limit);
  if (read instanceof TooLargeInput) throw new UsageError(`${path} is ${read.message}`);
  return read;
}

/** Values files are small; this bounds what a mistaken path (a device, a huge file) can cost. */
const MAX_JSON_BYTES = 64 * 1024 * 1024;

/** Parses a JSON file, refusing one nested past MAX_JSON_DEPTH before anything walks it. */
export async function readJson(path: string): Promise<unknown> {
  const text = (await readWholeInput(path, MAX_JSON_BYTES)).toString('utf8');
  return parseJson(text, path);
}

/** JSON text from `where` (a file, a manifest line), parsed and bounded in depth. */
export function parseJson(text: string, where: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${where} is not valid JSON: ${(err as Error).message}`);
  }
  if (nestsDeeperThan(value, MAX_JSON_DEPTH))
    throw new UsageError(
      `${where} nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep; tag values are a flat list of {tag, value, type, format}`,
    );
  return value;
}

export function printJson(value: unknown, pretty = false): void {
  process.stdout.write(`${JSON.stringify(value, null, pretty ? 2 : undefined)}\n`);
}

/** Options shared by the commands that fill templates, over the configured defaults. */
export interface TemplateFlags {
  delimiters?: string;
  locale?: string;
  timeZone?: string;
  strict?: boolean;
}

/** The template options given on the command line, and nothing else. */
export function templateFlagsFrom(
  flags: TemplateFlags,
): Pick<FillOptions, 'delimiters' | 'locale' | 'timeZone' | 'strict'> {
  const given: Pick<FillOptions, 'delimiters' | 'locale' | 'timeZone' | 'strict'> = {};
  if (flags.delimiters !== undefined) {
    const parsed = parseDelimiters(flags.delimiters);
    if (!parsed)
      throw new UsageError(
        `--delimiters must be start and end separated by a space, such as "{{ }}"`,
      );
    given.delimiters = parsed;
  }
  if (flags.locale !== undefined) given.locale = flags.locale;
  if (flags.timeZone !== undefined) given.timeZone = flags.timeZone;
  if (flags.strict !== undefined) given.strict = flags.strict;
  return given;
}

export function fillOptionsFrom(flags: TemplateFlags, config: DocpipeConfig): FillOptions {
  return {
    delimiters: config.delimiters,
    locale: config.locale,
    timeZone: config.timeZone,
    strict: config.strictTags,
    limits: config.limits,
    ...templateFlagsFrom(flags),
  };
}

/** Writes next to the target and renames, so that a reader never sees half a file. */
export async function writeAtomically(path: string, data: Uint8Array): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(temporary, data);
    await rename(temporary, path);
  } catch (err) {
    await rm(temporary, { force: true });
    throw new UsageError(`cannot write ${path}: ${errorWords(err)}`);
  }
}
