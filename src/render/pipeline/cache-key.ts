import { createHash } from 'node:crypto';
import { DocpipeError } from '../../base/errors/index.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../base/files/index.js';
import type { RenderOptions } from './render-types.js';

/** Bumped when the same inputs should give a different PDF (a new engine, say). */
const PIPELINE_VERSION = 1;

/**
 * JSON with sorted keys, so that equal values always give equal text. Recursive: callers refuse
 * values nested past MAX_JSON_DEPTH first (renderCacheKey does).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The cache key of a render: the input's bytes, the tag values, every option that changes the
 * output or whether there is one (strict fidelity), the name (it becomes the title) and the
 * converter. The field path is left out: it only names the document in failures.
 */
export function renderCacheKey(
  bytes: Uint8Array,
  tags: unknown,
  options: RenderOptions,
  name: string,
  converter: string,
): string {
  const { field: _field, fidelity, ...rest } = options;
  // Strict renders are kept apart (a refusal must find nothing stored to answer with); a
  // reporting render keeps the key it had before fidelity was an option.
  const relevant = fidelity === 'strict' ? { ...rest, fidelity } : rest;
  // Hashed before anything else looks at the values, so the depth is bounded here.
  if (nestsDeeperThan(tags, MAX_JSON_DEPTH)) {
    const field = options.field ? `${options.field}.tags` : 'tags';
    throw new DocpipeError('validation-failed', [
      { field, message: `nested more than ${MAX_JSON_DEPTH} levels deep; tag values are flat` },
    ]);
  }
  const hash = createHash('sha256');
  hash.update(
    `docpipe-render-v${PIPELINE_VERSION}\n${converter}\n${name}\n${canonicalJson(relevant)}\n${canonicalJson(tags ?? [])}\n`,
  );
  hash.update(bytes);
  return hash.digest('hex');
}
