import type { FillOptions } from '../../document/fill/index.js';
import { parseDelimiters } from '../../document/fill/index.js';
import type { DocpipeConfig } from '../../app/config/index.js';
import { InputError } from '../../base/files/index.js';
import {
  DocumentJsonError,
  locateTemplate,
  type DocumentFillOptions,
} from '../../document/library/index.js';
import { UsageError } from './exit-codes.js';

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

export function fillOptionsFrom(
  flags: TemplateFlags,
  config: DocpipeConfig,
  settings: DocumentFillOptions = {},
): FillOptions {
  return {
    delimiters: config.delimiters,
    locale: config.locale,
    timeZone: config.timeZone,
    strict: config.strictTags,
    limits: config.limits,
    ...settings,
    ...templateFlagsFrom(flags),
  };
}

/** A template argument resolved: the file to read, its document's settings, and its name. */
export interface TemplateArgument {
  file: string;
  options: DocumentFillOptions;
  /** The library document's name, when a folder was given. */
  name?: string;
}

/**
 * A template argument, found as every door finds one (locateTemplate): a .docx (its folder's
 * document.json, when there is one, sets its locale, time zone, delimiters and declared fields)
 * or a library document's folder (its current version). The settings sit between the
 * configured defaults and the command's flags. A broken document.json is bad input (exit 2),
 * named with every problem.
 */
export async function templateArgument(path: string): Promise<TemplateArgument> {
  try {
    const { file, settings, name } = await locateTemplate(path);
    return { file, options: settings, ...(name === undefined ? {} : { name }) };
  } catch (err) {
    if (err instanceof DocumentJsonError) throw new InputError(err.message);
    throw err;
  }
}
