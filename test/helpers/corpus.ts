import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/base/paths/index.js';

export interface CorpusRow {
  file: string;
  expectedKind: 'docx' | 'pdf' | 'unsupported' | 'either' | 'data';
  notes: string;
  path: string;
}

/** The shared corpus beside the project (../shared/corpus), or DOCPIPE_CORPUS_DIR. */
export function corpusDir(): string {
  const dir = process.env.DOCPIPE_CORPUS_DIR ?? join(projectRoot(), '..', 'shared', 'corpus');
  // Missing corpus is a failure, not a skip: the corpus tests are part of done.
  if (!existsSync(join(dir, 'MANIFEST.tsv')))
    throw new Error(`corpus not found at ${dir} (set DOCPIPE_CORPUS_DIR)`);
  return dir;
}

export function corpusRows(): CorpusRow[] {
  const dir = corpusDir();
  const [header, ...lines] = readFileSync(join(dir, 'MANIFEST.tsv'), 'utf8').trimEnd().split('\n');
  const columns = header!.split('\t');
  const at = (name: string) => columns.indexOf(name);
  return lines.map((line) => {
    const cells = line.split('\t');
    const file = cells[at('file')]!;
    return {
      file,
      expectedKind: cells[at('expected_kind')] as CorpusRow['expectedKind'],
      notes: cells[at('notes')] ?? '',
      path: join(dir, file),
    };
  });
}
