import { readFile } from 'node:fs/promises';
import type { FillOptions } from '../fill/index.js';
import { parseDelimiters } from '../fill/index.js';
import type { DocpipeConfig } from '../config/index.js';
import { UsageError } from './exit-codes.js';

export async function readInput(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (err) {
    throw new UsageError(
      `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

export async function readJson(path: string): Promise<unknown> {
  const text = (await readInput(path)).toString('utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${path} is not valid JSON: ${(err as Error).message}`);
  }
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

export function fillOptionsFrom(flags: TemplateFlags, config: DocpipeConfig): FillOptions {
  let delimiters = config.delimiters;
  if (flags.delimiters !== undefined) {
    const parsed = parseDelimiters(flags.delimiters);
    if (!parsed)
      throw new UsageError(
        `--delimiters must be start and end separated by a space, such as "{{ }}"`,
      );
    delimiters = parsed;
  }
  return {
    delimiters,
    locale: flags.locale ?? config.locale,
    timeZone: flags.timeZone ?? config.timeZone,
    strict: flags.strict ?? config.strictTags,
    limits: config.limits,
  };
}
