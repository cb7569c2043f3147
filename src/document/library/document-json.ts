import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Compile } from 'typebox/compile';
import type { TLocalizedValidationError } from 'typebox/error';
import { Settings } from 'typebox/system';
import { parseDelimiters, resolveFillOptions, type FillOptions } from '../fill/index.js';
import { DocumentJsonSchema, FIELD_TYPES, type DocumentJson } from './document-json-schema.js';

/** The fill options a library document sets for itself. */
export type DocumentFillOptions = Pick<
  FillOptions,
  'locale' | 'timeZone' | 'delimiters' | 'fields'
>;

/** A document folder's settings: what `document.json` says, and the fill options it makes. */
export interface DocumentSettings {
  meta: DocumentJson;
  options: DocumentFillOptions;
}

/** `document.json` is there but wrong; every problem at once, each naming its member. */
export class DocumentJsonError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`${file}: ${problems.join('; ')}`);
    this.name = 'DocumentJsonError';
  }
}

export const DOCUMENT_JSON = 'document.json';

/** A document.json is a few kilobytes; a larger one is a mistake, not worth parsing. */
const MAX_DOCUMENT_JSON_BYTES = 1024 * 1024;

const CHECK = Compile(DocumentJsonSchema);

/**
 * Reads a document folder's `document.json`: the one reader, used by the library, `render`,
 * `fields`, `check`, `lint` and `preview`. A folder without one has no settings; a file that is
 * not valid JSON, breaks the schema, or names a locale, time zone or delimiters fill would refuse
 * is a {@link DocumentJsonError} listing every problem.
 */
export async function readDocumentJson(dir: string): Promise<DocumentSettings> {
  const file = join(dir, DOCUMENT_JSON);
  if (!existsSync(file)) return { meta: {}, options: {} };
  const bytes = await readFile(file);
  if (bytes.length > MAX_DOCUMENT_JSON_BYTES)
    throw new DocumentJsonError(file, [`is ${bytes.length} bytes; at most 1 MiB`]);
  return parseDocumentJson(bytes.toString('utf8'), file);
}

/**
 * The settings for a template file: its folder's `document.json` when the folder has one (a
 * library document, any version), else none.
 */
export async function settingsForTemplate(template: string): Promise<DocumentSettings> {
  return readDocumentJson(dirname(template));
}

/** Parses and checks the text of a `document.json`; `file` names it in messages. */
export function parseDocumentJson(text: string, file: string): DocumentSettings {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new DocumentJsonError(file, [`is not valid JSON: ${(err as Error).message}`]);
  }
  const shaped = CHECK.Check(data);
  // Every problem at once: the members the schema refuses, and what fill would refuse in the
  // members that have their right shape.
  const problems = shaped ? [] : schemaProblems(data);
  const meta = (isObject(data) ? data : {}) as DocumentJson;
  const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const delimiters =
    str(meta.delimiters) === undefined ? undefined : parseDelimiters(meta.delimiters!);
  if (str(meta.delimiters) !== undefined && !delimiters)
    problems.push(`delimiters must be start and end separated by a space, such as "{{ }}"`);
  // Fill's own checks, so that what it would refuse at every render is refused here once: the
  // locale, the time zone, and declared formats that do not compile for their type (only once
  // the declarations have their shape, or each problem would be named twice).
  const { problems: optionProblems } = resolveFillOptions({
    locale: str(meta.locale),
    timeZone: str(meta.timeZone),
    fields: shaped ? meta.fields : undefined,
  });
  for (const p of optionProblems) problems.push(`${p.field}: ${p.message}`);
  if (Array.isArray(meta.signers))
    meta.signers.forEach((signer, i) => {
      if (isObject(signer) && signer.list !== undefined && i !== meta.signers!.length - 1)
        problems.push(
          `signers.${i}.list: only the last signer may be a list (its rows come after the others)`,
        );
    });
  const versions = isObject(meta.versions) ? meta.versions : { '1': '' };
  if (str(meta.current) !== undefined && !Object.hasOwn(versions, meta.current!))
    problems.push(`current: "${meta.current}" is not one of the versions`);
  if (problems.length > 0) throw new DocumentJsonError(file, problems);
  const options: DocumentFillOptions = {};
  if (meta.locale !== undefined) options.locale = meta.locale;
  if (meta.timeZone !== undefined) options.timeZone = meta.timeZone;
  if (delimiters) options.delimiters = delimiters;
  if (meta.fields !== undefined) options.fields = meta.fields;
  return { meta, options };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The .docx a library folder serves when no version is asked for: `current`, else the last
 * version listed, else template.docx. (The library itself also skips versions whose file is
 * missing: there a folder is being served, here a command names one.)
 */
export function currentTemplateFile(meta: DocumentJson): string {
  const versions = meta.versions ?? {};
  if (meta.current !== undefined && Object.hasOwn(versions, meta.current))
    return versions[meta.current]!;
  return Object.values(versions).at(-1) ?? LIBRARY_TEMPLATE;
}

/** The file name of a library document's template when document.json lists no versions. */
export const LIBRARY_TEMPLATE = 'template.docx';

/** TypeBox's findings said as a template author reads them, one per member. */
function schemaProblems(data: unknown): string[] {
  const saved = Settings.Get().maxErrors;
  Settings.Set({ maxErrors: Number.MAX_SAFE_INTEGER });
  let errors: TLocalizedValidationError[];
  try {
    errors = [...CHECK.Errors(data)];
  } finally {
    Settings.Set({ maxErrors: saved });
  }
  const byPath = new Map<string, string>();
  for (const e of errors) {
    const path = memberPath(e.instancePath);
    const message = describe(e, path);
    if (message && !byPath.has(message)) byPath.set(message, path);
  }
  const problems = [...byPath.keys()];
  return problems.length > 0 ? problems : ['does not match the document.json schema'];
}

function memberPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function describe(e: TLocalizedValidationError, path: string): string | undefined {
  const at = path || 'document.json';
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties': {
      const extra = (params.additionalProperties as string[] | undefined) ?? [];
      return extra
        .map((m) => `${path ? `${path}.` : ''}${m}: unknown member${hint(path, m)}`)
        .join('; ');
    }
    case 'const':
    case 'anyOf':
      return basename(path.replace(/\./g, '/')) === 'type'
        ? `${at} must be one of ${FIELD_TYPES.join(', ')}`
        : `${at} ${e.message}`;
    case 'boolean':
      // The additionalProperties finding names the member; this one repeats it.
      return undefined;
    case 'type':
      return `${at} must be ${TYPE_NAMES[String(params.type)] ?? String(params.type)}`;
    case 'pattern':
      return /versions\./.test(path)
        ? `${at} must name a .docx file in this folder`
        : `${at} has a form it may not have`;
    case 'propertyNames':
      return `${at}: version ids are lower-case letters, digits, ".", "_" and "-"`;
    default:
      return `${at} ${e.message}`;
  }
}

const TYPE_NAMES: Record<string, string> = {
  object: 'an object',
  string: 'a string',
  array: 'an array',
  number: 'a number',
};

/** The members people misspell most, said right. */
function hint(path: string, member: string): string {
  const known: Record<string, string> = {
    timezone: 'timeZone',
    time_zone: 'timeZone',
    tz: 'timeZone',
    local: 'locale',
    language: 'locale',
    delimiter: 'delimiters',
    field: 'fields',
    tags: 'fields',
    version: 'versions',
    title: 'name',
  };
  const suggestion = path === '' ? known[member.toLowerCase()] : undefined;
  return suggestion ? ` (did you mean "${suggestion}"?)` : '';
}
