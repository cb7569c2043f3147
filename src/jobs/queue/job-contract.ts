import type { FailureDetail } from '../../base/errors/index.js';
import {
  DEFAULT_VALUE_LIMITS,
  tagListBoundProblems,
  type ValueLimits,
} from '../../document/values/index.js';
import type { RenderResult } from '../../render/pipeline/index.js';
import { FIELD_PATH } from './job-contract-schema.js';
import {
  hasJobShape,
  inContractOrder,
  shapeProblems,
  type ShapeProblem,
} from './job-contract-shape.js';

export {
  JOB_SCHEMA_VERSION,
  REQUEST_ID,
  DocumentJobDataSchema,
  DocumentSourceSchema,
  JobRenderOptionsSchema,
  type DocumentJobData,
  type DocumentSource,
  type JobRenderOptions,
} from './job-contract-schema.js';

/** What a finished job returns. */
export type DocumentJobResult =
  | { field: string; kind: 'rendered'; result: RenderResult }
  | { field: string; kind: 'url'; url: string };

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
 * Checks job data on either side of the queue against `DocumentJobDataSchema`, then the limits
 * a schema does not say (inline bytes, tag list sizes and nesting, a URL's scheme), reporting
 * every problem with a field path under the document's own path (`documents[2].source`).
 * Unknown fields are refused, as the v3 API does.
 */
export function jobDataProblems(
  data: unknown,
  limits: ContractLimits = DEFAULT_CONTRACT_LIMITS,
): FailureDetail[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return [{ field: 'job', message: 'job data must be an object' }];
  }
  const d = data as Record<string, unknown>;
  const shaped = hasJobShape(d);
  const at =
    shaped || (typeof d.field === 'string' && FIELD_PATH.test(d.field))
      ? (d.field as string)
      : 'job';
  const found = shaped ? [] : shapeProblems(d);
  if (!found.some((p) => p.path === 'source' || p.path.startsWith('source.')))
    found.push(...sourceLimitProblems(d.source as Record<string, unknown>, limits));
  // Before anything recurses into the values (JSON for Redis, the cache key, the copy to an
  // prepare thread): a value nested 100,000 levels deep would overflow their stacks. The schema
  // leaves `value` alone, so the structural check does not recurse either.
  const bounds = tagListBoundProblems(d.tags, limits.values ?? DEFAULT_VALUE_LIMITS, `${at}.tags`);
  for (const p of bounds) found.push({ path: p.field.slice(at.length + 1), message: p.message });
  return inContractOrder(found).map((p) => ({
    field: p.path ? `${at}.${p.path}` : at,
    message: p.message,
  }));
}

/** What the schema cannot say of a well-formed source: its size in bytes, a URL's scheme. */
function sourceLimitProblems(s: Record<string, unknown>, limits: ContractLimits): ShapeProblem[] {
  if (typeof s.inline === 'string' && inlineBytes(s.inline) > limits.maxInlineBytes)
    return [
      {
        path: 'source.inline',
        message: `inline documents are limited to ${limits.maxInlineBytes} bytes; put larger ones in storage and send storageKey`,
      },
    ];
  if (typeof s.url === 'string' && !isHttpUrl(s.url))
    return [{ path: 'source.url', message: 'must be an http or https URL' }];
  return [];
}

/** The bytes base64 text decodes to, padding counted exactly. */
function inlineBytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return (base64.length * 3) / 4 - padding;
}

function isHttpUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
}
