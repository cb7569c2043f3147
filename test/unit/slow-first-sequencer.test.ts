import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { projectRoot } from '../../src/base/paths/index.js';
import SlowFirstSequencer, { SLOW_FILES } from '../helpers/slow-first-sequencer.js';

const root = projectRoot();

/** What the sequencer reads of a test file: its project (root, name, order) and its path. */
function spec(path: string): TestSpecification {
  return {
    moduleId: join(root, path),
    project: {
      name: path.split('/')[1],
      config: { root, isolate: true, sequence: { groupOrder: 0 } },
    },
  } as unknown as TestSpecification;
}

/** Vitest with no timings of earlier runs, as on a clean clone. */
const cleanClone = {
  config: { root },
  cache: { getFileTestResults: () => undefined, getFileStats: () => undefined },
} as unknown as Vitest;

describe('slow integration files first', () => {
  it('names only files that exist, so a renamed one is noticed', () => {
    expect(SLOW_FILES.length).toBeGreaterThan(0);
    expect(SLOW_FILES.filter((f) => !existsSync(join(root, f)))).toEqual([]);
  });

  it('starts them first, slowest first, and keeps the order of the others', async () => {
    const others = ['test/unit/fill.test.ts', 'test/integration/http-auth.test.ts'];
    const [slowest, next] = SLOW_FILES as [string, string];
    const sorted = await new SlowFirstSequencer(cleanClone).sort(
      [others[0]!, next, others[1]!, slowest].map(spec),
    );
    expect(sorted.map((s) => s.moduleId.slice(root.length + 1))).toEqual([
      slowest,
      next,
      'test/integration/http-auth.test.ts',
      'test/unit/fill.test.ts',
    ]);
  });
});
