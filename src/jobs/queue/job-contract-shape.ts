import { Compile } from 'typebox/compile';
import type { TLocalizedValidationError } from 'typebox/error';
import { Settings } from 'typebox/system';
import { fieldPathOf, joinField } from '../../base/errors/index.js';
import { COMPANY_ID_RULE } from '../../base/tenancy/index.js';
import {
  DocumentJobDataSchema,
  InlineSourceSchema,
  JOB_SCHEMA_VERSION,
  LibrarySourceSchema,
  MAX_JOB_NAME_CHARS,
  StorageKeySourceSchema,
  UrlSourceSchema,
  type DocumentJobData,
} from './job-contract-schema.js';

/** A problem at a path inside the job data (`source.inline`), before the job's own prefix. */
export interface ShapeProblem {
  path: string;
  message: string;
}

/** Compiled once: the check runs on every job, on both sides of the queue. */
const JOB = Compile(DocumentJobDataSchema);

/** The source's branches by the member that names them: the union's own members. */
const SOURCES = {
  inline: Compile(InlineSourceSchema),
  storageKey: Compile(StorageKeySourceSchema),
  url: Compile(UrlSourceSchema),
  documentId: Compile(LibrarySourceSchema),
} as const;
const SOURCE_KINDS = Object.keys(SOURCES) as (keyof typeof SOURCES)[];

/**
 * TypeBox stops collecting at a global `maxErrors` (8), and it counts each unknown member twice
 * before the finding that names them all: with a cap, a job with many unknown members would be
 * reported with none. A job's every problem is reported at once, so the cap is lifted for one
 * synchronous call and put back; the job's size is bounded before it gets here (the HTTP body
 * limit, the client's own input).
 */
const UNCAPPED = Number.MAX_SAFE_INTEGER;

/** Whether the data has the contract's shape: the fast path, taken by every good job. */
export function hasJobShape(data: unknown): data is DocumentJobData {
  return JOB.Check(data);
}

/**
 * Every structural problem of job data (an object), in the order of the contract's members.
 * The source is checked against the one branch its members name, so that a bad inline document
 * is called bad base64 rather than also not a URL, not a storage key and not a library document.
 */
export function shapeProblems(data: Record<string, unknown>): ShapeProblem[] {
  const found = allErrors(JOB, data)
    .filter((e) => e.instancePath !== '/source' && !e.instancePath.startsWith('/source/'))
    .flatMap((e) => problemsOf(e, data));
  found.push(...sourceProblems(data.source));
  // The check said no: whatever the findings say, the job is refused.
  if (found.length === 0)
    found.push({ path: '', message: 'does not match the job contract (DocumentJobDataSchema)' });
  return inContractOrder(unique(found));
}

function sourceProblems(source: unknown): ShapeProblem[] {
  if (typeof source !== 'object' || source === null || Array.isArray(source))
    return [problem('source', 'source')];
  const kinds = SOURCE_KINDS.filter((k) => k in source);
  if (kinds.length !== 1) {
    const got = kinds.join(', ') || 'none';
    return [
      {
        path: 'source',
        message: `exactly one source: inline, storageKey, url or documentId (got ${got})`,
      },
    ];
  }
  return allErrors(SOURCES[kinds[0]!], source).flatMap((e) =>
    problemsOf({ ...e, instancePath: `/source${e.instancePath}` }, {}),
  );
}

function allErrors(
  validator: { Errors(value: unknown): TLocalizedValidationError[] },
  value: unknown,
): TLocalizedValidationError[] {
  const { maxErrors } = Settings.Get();
  Settings.Set({ maxErrors: UNCAPPED });
  try {
    return validator.Errors(value);
  } finally {
    Settings.Set({ maxErrors });
  }
}

/** One validator finding as the problems it means: an unknown member named by its own path. */
function problemsOf(e: TLocalizedValidationError, data: Record<string, unknown>): ShapeProblem[] {
  const at = fieldPathOf(e.instancePath);
  if (e.keyword === 'additionalProperties')
    return e.params.additionalProperties.map((key) => ({
      path: joinField(at, key),
      message: 'unknown field',
    }));
  // The same unknown member again, as the `false` schema it failed: said once, above.
  if (e.keyword === 'boolean' && e.schemaPath.endsWith('/additionalProperties')) return [];
  if (e.keyword === 'required')
    return e.params.requiredProperties.map((key) => problem(joinField(at, key), e.keyword, data));
  return [problem(at, e.keyword, data)];
}

/**
 * The contract's own words for a problem at a path (indices generalised: `tags[]`), so that a
 * message says what is wanted rather than which JSON Schema keyword failed.
 */
function problem(path: string, keyword: string, data: Record<string, unknown> = {}): ShapeProblem {
  const general = path.replace(/\[\d+\]/g, '[]');
  switch (general) {
    case 'v':
      return {
        path,
        message: `job schema version must be ${JOB_SCHEMA_VERSION} (got ${JSON.stringify(data.v)})`,
      };
    case 'name':
      return {
        path,
        message:
          keyword === 'maxLength'
            ? `at most ${MAX_JOB_NAME_CHARS} characters`
            : 'required: a non-empty string',
      };
    case 'options.delimiters.start':
    case 'options.delimiters.end':
      return { path: 'options.delimiters', message: MESSAGES['options.delimiters']! };
  }
  // A declared field nests (a list's columns are fields too): one message for any depth.
  if (general.startsWith('options.fields.'))
    return { path, message: MESSAGES['options.fields.*']! };
  return { path, message: MESSAGES[general] ?? `is invalid (${keyword})` };
}

const MESSAGES: Readonly<Record<string, string>> = {
  field: 'required: a field path such as documents[0]',
  source: 'required: one of {inline}, {storageKey}, {url}, {documentId, versionId}',
  'source.inline': 'must be base64',
  'source.storageKey': 'must be a storage key',
  'source.url': 'must be an http or https URL',
  'source.documentId': 'must be a non-empty string',
  'source.versionId': 'must be a non-empty string',
  requestId: 'must be 1 to 128 letters, digits, _ . : or -',
  company: COMPANY_ID_RULE,
  waitUntil: 'must be a time in milliseconds since 1970 (an integer)',
  tags: 'must be an array of {tag, value, type, format}',
  'tags[]': 'not a TagInput; send an object {tag, value, type, format}',
  'tags[].tag': 'required: a non-empty string, the tag as written in the template',
  'tags[].value': 'required: the value (null for an empty text)',
  'tags[].type': 'required: one of text, number, date, boolean, list',
  'tags[].format': 'must be a string or null',
  options: 'must be an object',
  'options.locale': 'must be a string',
  'options.timeZone': 'must be a string',
  'options.strict': 'must be a boolean',
  'options.pdfa': 'must be a boolean',
  'options.fidelity': 'must be report or strict',
  'options.places': 'must be a boolean',
  'options.delimiters': 'must be {start, end} strings',
  'options.fields': "must be an object of declared fields by tag (a document.json's `fields`)",
  'options.fields.*':
    'must be a declared field: {type: text, number, date, boolean or list, format?, columns?, description?}',
};

/** The contract's top-level members in order; an unknown member comes before them all. */
const ORDER = Object.keys(DocumentJobDataSchema.properties);

/** Sorted by top-level member, stable within one: the validator's own order otherwise. */
export function inContractOrder<T extends ShapeProblem>(problems: T[]): T[] {
  const rank = (p: ShapeProblem) => ORDER.indexOf(/^[^.[]*/.exec(p.path)![0]) + 1;
  return problems
    .map((p, i) => ({ p, i, r: rank(p) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map(({ p }) => p);
}

/** A union's failing branches may name one problem more than once: each is said once. */
function unique(problems: ShapeProblem[]): ShapeProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\n${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
