import { appendFileSync, cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { checkLayers } from '../../scripts/layers.js';
import { testDir } from '../helpers/test-dir.js';

const src = join(projectRoot(), 'src');

/** A copy of src/ to break on purpose, removed after the test. */
function copyOfSrc(): string {
  const dir = testDir('layers');
  cpSync(src, join(dir, 'src'), { recursive: true });
  return join(dir, 'src');
}

describe('layers of src/', () => {
  it('src/ imports only down its layers, with no cycle between folders or files', () => {
    expect(checkLayers(src)).toEqual([]);
  });

  it('names an import up a layer, and the folder cycle it makes', () => {
    const copy = copyOfSrc();
    appendFileSync(join(copy, 'errors', 'registry.ts'), "\nimport '../queue/index.js';\n");
    const found = checkLayers(copy);
    expect(found).toContainEqual({
      file: join('errors', 'registry.ts'),
      imports: join('queue', 'index.ts'),
      why: 'errors (layer 8) imports queue, a higher layer (3)',
    });
    expect(found.filter((v) => v.why === 'folders import each other')).toHaveLength(1);
  });

  it('names an import out of src/, a folder in no layer, and files that import each other', () => {
    const copy = copyOfSrc();
    appendFileSync(
      join(copy, 'zip', 'zip-reader.ts'),
      "\nimport '../../workers/engine-task.js';\n",
    );
    mkdirSync(join(copy, 'misc'));
    writeFileSync(join(copy, 'misc', 'a.ts'), "import './b.js';\nimport '../errors/index.js';\n");
    writeFileSync(join(copy, 'misc', 'b.ts'), "import './a.js';\n");
    const found = checkLayers(copy);
    expect(found.map((v) => v.why).sort()).toEqual([
      'files import each other',
      'imports from outside src/ (workers/ and tests import src/, never the reverse)',
      'src/misc is in no layer: add it to LAYERS in scripts/layers.ts',
    ]);
  });
});
