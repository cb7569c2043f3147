import type { FailureDetail } from '../errors/index.js';
import {
  DEFAULT_VALUE_LIMITS,
  tagListBoundProblems,
  type TagInput,
  type ValueLimits,
} from '../fill/index.js';
import type { RenderResult } from '../pipeline/index.js';

/** Version of the job data; workers refuse versions they do not know. */
export const JOB_SCHEMA_VERSION = 1;

/**
 * Where a document's bytes come from (spec 2.2): inline bytes (small, so Redis stays small), a
 * key of docpipe's storage (larger uploads), a URL (kept by reference and never inspected), or a
 * library document and version.
 */
export type DocumentSource =
  | { inline: string }
  | { storageKey: string }
  | { url: string }
  | { documentId: string; versionId?: string };

export interface JobRenderOptions {
  locale?: string;
  timeZone?: string;
  delimiters?: { start: string; end: string };
  strict?: boolean;
  pdfa?: boolean;
}

/** A document job, version 1. */
export interface DocumentJobData {
  v: typeof JOB_SCHEMA_VERSION;
  /** The field path this job answers for, such as `documents[2]`. */
  field: string;
  /** The document's name: the PDF's title. */
  name: string;
  source: DocumentSource;
  tags?: TagInput[];
  options?: JobRenderOptions;
  /** The id of the HTTP request (or other caller) that asked for it: in the worker's log lines. */
  requestId?: string;
}

/** What a finished job returns. */
export type DocumentJobResult =
  | { field: string; kind: 'rendered'; result: RenderResult }
  | { field: string; kind: 'url'; url: string };

const TOP = new Set(['v', 'field', 'name', 'source', 'tags', 'options', 'requestId']);
/** What a request id may be: short and plain, for log lines. */
export const REQUEST_ID = /^[\w.:-]{1,128}$/;
const OPTIONS = new Set(['locale', 'timeZone', 'delimiters', 'strict', 'pdfa']);
const FIELD_PATH = /^[A-Za-z_][\w]*(\[\d+\])?(\.[A-Za-z_][\w]*(\[\d+\])?)*$/;

export interface ContractLimits {
  /** Largest inline document, in bytes, before base64. @defaultValue 256 KiB */
  maxInlineBytes: number;
  /**
   * Sizes of the tag list and its values, checked before a job enters Redis and again before a
   * worker does anything with it; fill checks them too, with the same limits.
   * @defaultValue DEFAULT_VALUE_LIMITS
   */
  values?: ValueLimits;
}

export const DEFAULT_CONTRACT_LIMITS: Readonly<ContractLimits> = Object.freeze({
  maxInlineBytes: 256 * 1024,
});

/**
 * Checks job data on either side of the queue, reporting every problem with a field path under
 * the document's own path (`documents[2].source`). Unknown fields are refused, as the v3 API does.
 */
export function jobDataProblems(
  data: unknown,
  limits: ContractLimits = DEFAULT_CONTRACT_LIMITS,
): FailureDetail[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return [{ field: 'job', message: 'job data must be an object' }];
  }
  const d = data as Record<string, unknown>;
  const at = typeof d.field === 'string' && FIELD_PATH.test(d.field) ? d.field : 'job';
  const problems: FailureDetail[] = [];
  const add = (field: string, message: string) =>
    problems.push({ field: `${at}.${field}`, message });
  for (const key of Object.keys(d)) if (!TOP.has(key)) add(key, 'unknown field');
  if (d.v !== JOB_SCHEMA_VERSION)
    add('v', `job schema version must be ${JOB_SCHEMA_VERSION} (got ${JSON.stringify(d.v)})`);
  if (at === 'job')
    problems.push({ field: 'job.field', message: 'required: a field path such as documents[0]' });
  if (typeof d.name !== 'string' || d.name.trim() === '')
    add('name', 'required: a non-empty string');
  else if (d.name.length > 500) add('name', 'at most 500 characters');
  sourceProblems(d.source, limits, add);
  if (
    d.requestId !== undefined &&
    (typeof d.requestId !== 'string' || !REQUEST_ID.test(d.requestId))
  )
    add('requestId', 'must be 1 to 128 letters, digits, _ . : or -');
  if (d.tags !== undefined && !Array.isArray(d.tags))
    add('tags', 'must be an array of {tag, value, type, format}');
  // Before anything recurses into the values (JSON for Redis, the cache key, the copy to an
  // engine thread): a value nested 100,000 levels deep would overflow their stacks.
  problems.push(
    ...tagListBoundProblems(d.tags, limits.values ?? DEFAULT_VALUE_LIMITS, `${at}.tags`),
  );
  if (d.options !== undefined) {
    if (typeof d.options !== 'object' || d.options === null || Array.isArray(d.options))
      add('options', 'must be an object');
    else {
      const o = d.options as Record<string, unknown>;
      for (const key of Object.keys(o))
        if (!OPTIONS.has(key)) add(`options.${key}`, 'unknown field');
      for (const key of ['locale', 'timeZone'] as const)
        if (o[key] !== undefined && typeof o[key] !== 'string')
          add(`options.${key}`, 'must be a string');
      for (const key of ['strict', 'pdfa'] as const)
        if (o[key] !== undefined && typeof o[key] !== 'boolean')
          add(`options.${key}`, 'must be a boolean');
      const delimiters = o.delimiters as { start?: unknown; end?: unknown } | undefined;
      if (
        delimiters !== undefined &&
        (typeof delimiters !== 'object' ||
          typeof delimiters?.start !== 'string' ||
          typeof delimiters?.end !== 'string')
      ) {
        add('options.delimiters', 'must be {start, end} strings');
      }
    }
  }
  return problems;
}

function sourceProblems(
  source: unknown,
  limits: ContractLimits,
  add: (field: string, message: string) => void,
): void {
  if (typeof source !== 'object' || source === null || Array.isArray(source)) {
    add('source', 'required: one of {inline}, {storageKey}, {url}, {documentId, versionId}');
    return;
  }
  const s = source as Record<string, unknown>;
  const kinds = ['inline', 'storageKey', 'url', 'documentId'].filter((k) => k in s);
  if (kinds.length !== 1) {
    add(
      'source',
      `exactly one source: inline, storageKey, url or documentId (got ${kinds.join(', ') || 'none'})`,
    );
    return;
  }
  const allowed = kinds[0] === 'documentId' ? ['documentId', 'versionId'] : kinds;
  for (const key of Object.keys(s))
    if (!allowed.includes(key)) add(`source.${key}`, 'unknown field');
  if ('inline' in s) {
    if (typeof s.inline !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(s.inline))
      add('source.inline', 'must be base64');
    else if (
      (s.inline.length * 3) / 4 - (s.inline.endsWith('==') ? 2 : s.inline.endsWith('=') ? 1 : 0) >
      limits.maxInlineBytes
    ) {
      add(
        'source.inline',
        `inline documents are limited to ${limits.maxInlineBytes} bytes; put larger ones in storage and send storageKey`,
      );
    }
  }
  if ('storageKey' in s && (typeof s.storageKey !== 'string' || s.storageKey === ''))
    add('source.storageKey', 'must be a storage key');
  if ('url' in s) {
    let ok = false;
    try {
      ok = typeof s.url === 'string' && /^https?:$/.test(new URL(s.url).protocol);
    } catch {
      ok = false;
    }
    if (!ok) add('source.url', 'must be an http or https URL');
  }
  if ('documentId' in s) {
    if (typeof s.documentId !== 'string' || s.documentId === '')
      add('source.documentId', 'must be a non-empty string');
    if (s.versionId !== undefined && (typeof s.versionId !== 'string' || s.versionId === ''))
      add('source.versionId', 'must be a non-empty string');
  }
}
