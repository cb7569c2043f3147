import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { checkLayers, GROUPS } from '../../scripts/layers.js';
import { testDir } from '../helpers/test-dir.js';

const src = join(projectRoot(), 'src');

/**
 * A small sound src/ to break on purpose (removed after the test): three folders of two groups
 * and the package entry, each reached through its index.ts.
 */
function smallSrc(): string {
  const copy = join(testDir('layers'), 'src');
  put(copy, 'index.ts', "export * from './jobs/queue/index.js';\n");
  put(copy, join('jobs', 'queue', 'index.ts'), "export * from '../../base/log/index.js';\n");
  put(
    copy,
    join('base', 'log', 'index.ts'),
    "import '../errors/index.js';\nexport const log = 1;\n",
  );
  put(copy, join('base', 'errors', 'index.ts'), "export * from './registry.js';\n");
  put(copy, join('base', 'errors', 'registry.ts'), 'export const registry = 1;\n');
  return copy;
}

/** Writes a source file, its folder made as needed. */
function put(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

const rank = (group: string) => GROUPS.findIndex((g) => g.group === group);

describe('layers of src/', () => {
  it('src/ imports only down its groups, through barrels, with no cycle', () => {
    expect(checkLayers(src)).toEqual([]);
  });

  it('finds nothing in a small sound tree, the package entry included', () => {
    expect(checkLayers(smallSrc())).toEqual([]);
  });

  it('lists the groups top-down', () => {
    expect(GROUPS.map((g) => g.group)).toEqual([
      'surfaces',
      'app',
      'service',
      'jobs',
      'authoring',
      'render',
      'document',
      'formats',
      'platform',
      'base',
    ]);
  });

  it('names an import up a group, and the folder cycle it makes', () => {
    const copy = smallSrc();
    appendFileSync(
      join(copy, 'base', 'errors', 'registry.ts'),
      "\nimport '../../jobs/queue/index.js';\n",
    );
    const found = checkLayers(copy);
    expect(found).toContainEqual({
      file: join('base', 'errors', 'registry.ts'),
      imports: join('jobs', 'queue', 'index.ts'),
      why: `base (group ${rank('base')}) imports jobs, a higher group (${rank('jobs')})`,
    });
    expect(found.filter((v) => v.why === 'folders import each other')).toHaveLength(1);
  });

  it('names an import into another folder past its index.ts, in the same group or below', () => {
    const copy = smallSrc();
    put(copy, join('base', 'log', 'inner.ts'), 'export const inner = 1;\n');
    put(copy, join('base', 'cache', 'reach.ts'), "import '../log/inner.js';\n");
    put(copy, join('jobs', 'batch', 'reach.ts'), "import '../../base/log/inner.js';\n");
    const found = checkLayers(copy);
    const why =
      'reaches into base/log past its index.ts: import base/log/index.ts (export what is needed from it)';
    expect(found).toEqual([
      { file: join('base', 'cache', 'reach.ts'), imports: join('base', 'log', 'inner.ts'), why },
      { file: join('jobs', 'batch', 'reach.ts'), imports: join('base', 'log', 'inner.ts'), why },
    ]);
  });

  it('names folders of one group that import each other, and files that do', () => {
    const copy = smallSrc();
    put(copy, join('base', 'paths', 'uses-util.ts'), "import '../util/index.js';\n");
    put(copy, join('base', 'util', 'uses-paths.ts'), "import '../paths/index.js';\n");
    put(copy, join('base', 'cache', 'a.ts'), "import './b.js';\n");
    put(copy, join('base', 'cache', 'b.ts'), "import './a.js';\n");
    const found = checkLayers(copy);
    expect(found).toEqual([
      {
        file: 'base/paths',
        imports: 'base/paths -> base/util',
        why: 'folders import each other',
      },
      {
        file: join('base', 'cache', 'a.ts'),
        imports: `${join('base', 'cache', 'a.ts')} -> ${join('base', 'cache', 'b.ts')}`,
        why: 'files import each other',
      },
    ]);
  });

  it('names a folder, a group and a loose file it does not know, and an import out of src/', () => {
    const copy = smallSrc();
    put(copy, join('base', 'misc', 'a.ts'), "import '../errors/index.js';\n");
    put(copy, join('extras', 'thing', 'a.ts'), 'export {};\n');
    put(copy, join('base', 'loose.ts'), 'export {};\n');
    put(copy, join('formats', 'zip', 'outside.ts'), "import '../../../workers/prepare-task.js';\n");
    const found = checkLayers(copy);
    expect(found.map((v) => v.why).sort()).toEqual([
      'imports from outside src/ (workers/ and tests import src/, never the reverse)',
      'src/base holds files only in its folders: move it into one (src/base/<folder>/)',
      'src/base/misc is not a folder of base: add it to GROUPS in scripts/layers.ts',
      'src/extras is in no group: add it to GROUPS in scripts/layers.ts',
    ]);
  });
});
