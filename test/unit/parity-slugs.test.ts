import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAILURES } from '../../src/base/errors/registry.js';
import { projectRoot } from '../../src/base/paths/index.js';

/**
 * Parity between the failure registry and the slug table of the service spec (section 7.2), as
 * Fastify pins that every error code is documented: a slug added on one side only fails here.
 */
const SPEC = join(projectRoot(), '..', 'shared', 'spec', 'service-api.md');

/** Each slug of section 7.2's table with every status the spec gives it. */
function specSlugs(): Map<string, number[]> {
  const text = readFileSync(SPEC, 'utf8');
  const start = text.indexOf('\n### 7.2 ');
  expect(start, `section 7.2 in ${SPEC}`).toBeGreaterThan(-1);
  const end = text.indexOf('\n### ', start + 1);
  const section = text.slice(start, end === -1 ? undefined : end);
  const slugs = new Map<string, number[]>();
  for (const m of section.matchAll(/^\| `([a-z0-9-]+)` \| (\d{3}) \|/gm)) {
    const statuses = slugs.get(m[1]!) ?? [];
    slugs.set(m[1]!, [...statuses, Number(m[2])]);
  }
  return slugs;
}

describe('failure slug parity with the spec (section 7.2)', () => {
  const spec = specSlugs();
  const registry = Object.keys(FAILURES).sort();

  it('reads the whole slug table: 22 slugs, document-not-found with two statuses', () => {
    expect(spec.size).toBe(22);
    expect(spec.get('document-not-found')).toEqual([404, 400]);
    expect(spec.get('missing-token')).toEqual([401]);
  });

  it('has every registry slug in the spec, with a status the spec gives it', () => {
    expect(registry).toHaveLength(spec.size);
    for (const slug of registry) {
      expect(spec.has(slug), slug).toBe(true);
      expect(spec.get(slug), slug).toContain(FAILURES[slug as keyof typeof FAILURES].status);
    }
  });

  it('has every spec slug in the registry', () => {
    const missing = [...spec.keys()].filter((s) => !Object.hasOwn(FAILURES, s));
    expect(missing).toEqual([]);
  });
});
