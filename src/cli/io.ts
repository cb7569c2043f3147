import type { FillOptions } from '../fill/index.js';
import { parseDelimiters } from '../fill/index.js';
import type { DocpipeConfig } from '../config/index.js';
import { isCompanyId } from '../keys/index.js';
import { COMPANY_ID_RULE } from '../queue/index.js';
import { UsageError } from './exit-codes.js';

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

/**
 * `--company`, checked before anything else is looked for (a typo is named before a missing
 * Redis), with the message `docpipe keys create --company` gives.
 */
export function companyFlag(value: string | undefined): string | undefined {
  if (value === undefined || isCompanyId(value)) return value;
  throw new UsageError(`--company ${COMPANY_ID_RULE} (got ${JSON.stringify(value)})`);
}
