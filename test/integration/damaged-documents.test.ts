import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDocpipeError } from '../../src/base/errors/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import type { TagInput } from '../../src/document/values/index.js';
import { Renderer } from '../../src/render/pipeline/index.js';
import {
  EMBEDDED_WORKBOOK,
  OUT_OF_RANGE_REFERENCE,
  docxWithDamagedWorkbook,
  docxWithOutOfRangeReference,
} from '../helpers/damaged-docx.js';
import { mutantsOf, type Mutant } from '../helpers/mutants.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * The fuzzer's two mutants through the doors a user meets (the CLI with --json, the queue), and
 * seeded mutants of the library templates through the real office: a damaged part is a damaged
 * document, typed and permanent, at the first try. The CLI runs from dist/ (npm run build).
 */
const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
const workbookMessage = `damaged: part ${EMBEDDED_WORKBOOK} fails its CRC check`;
const referenceMessage = `damaged: XML part word/document.xml holds the character reference ${OUT_OF_RANGE_REFERENCE}, which names no character (past U+10FFFF): the XML is not well-formed`;
const fuzzed: [string, () => Buffer, string][] = [
  ['an embedded workbook failing its CRC check', docxWithDamagedWorkbook, workbookMessage],
  ['an out-of-range character reference', docxWithOutOfRangeReference, referenceMessage],
];

let stack: QueueStack;
beforeAll(async () => {
  stack = await startQueueStack();
});
afterAll(async () => {
  await stack.close();
});

describe.each(fuzzed)('a .docx with %s', (_what, build, message) => {
  it('fails docpipe render --json with the typed failure as JSON, and no stack trace', () => {
    const dir = testDir('docpipe-damaged-');
    const input = join(dir, 'mutant.docx');
    writeFileSync(input, build());
    const r = spawnSync(
      process.execPath,
      [cli, 'render', input, '--out', join(dir, 'out.pdf'), '--json'],
      {
        encoding: 'utf8',
        env: { ...process.env, DOCPIPE_DATA_DIR: join(dir, 'data'), DOCPIPE_ENGINE_THREADS: '1' },
      },
    );
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      error: 'unsupported-file-type',
      details: [{ field: 'document', message }],
    });
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it('fails through the queue as unsupported-file-type, permanent, at the first try', async () => {
    const { client, documents } = await stack.lane();
    const err: unknown = await client
      .render({ name: 'mutant', content: build() }, { idempotencyKey: 'mutant-1' })
      .catch((e: unknown) => e);
    expect(isDocpipeError(err) && { slug: err.slug, details: err.details }).toEqual({
      slug: 'unsupported-file-type',
      details: [{ field: 'documents[0]', message }],
    });
    const job = await documents.getJob('mutant-1');
    expect(job?.attemptsMade).toBe(1);
    expect(await job?.getState()).toBe('failed');
  });
});

/** Mutants of each library template through the real office: a few dozen, bounded in time. */
// A seed whose mutants reach both ends with the library as it is (with seed 20 every mutant of
// the templates rebuilt with signature anchors was refused); a rebuilt library may need another.
const SEED = 2;
const PER_TEMPLATE = 3;
const library = readdirSync(join(root, 'templates')).map((name) => ({
  name: `templates/${name}`,
  bytes: readFileSync(join(root, 'templates', name, 'template.docx')),
}));
/**
 * Each template's first fixture's values: a template with signature anchors is filled even
 * without values, and then needs every value (docs/signing.md), so a mutant rendered without
 * them is refused for that alone and never shows whether the damage is handled.
 */
const fixtureTags = new Map<string, TagInput[]>(
  readdirSync(join(root, 'templates')).map((name): [string, TagInput[]] => {
    const folder = join(root, 'templates', name, 'fixtures');
    const first = readdirSync(folder)
      .filter((f) => f.endsWith('.tags.json'))
      .sort()[0];
    const tags: TagInput[] = first
      ? (JSON.parse(readFileSync(join(folder, first), 'utf8')) as TagInput[])
      : [];
    return [`templates/${name}`, tags];
  }),
);

type Outcome = 'pdf' | 'refused' | `internal: ${string}`;

async function outcomeOf(renderer: Renderer, mutant: Mutant): Promise<Outcome> {
  const tags = fixtureTags.get(mutant.label.split(' #')[0]!) ?? [];
  try {
    await renderer.render({ bytes: mutant.bytes, name: mutant.label }, tags);
    return 'pdf';
  } catch (err) {
    if (isDocpipeError(err) && !err.retryable) return 'refused';
    const what = isDocpipeError(err)
      ? `${err.slug} (retryable): ${err.details[0]?.message ?? ''}`
      : `${(err as Error).name}: ${(err as Error).message}`;
    return `internal: ${what}`;
  }
}

describe('seeded mutants through the real office', () => {
  it(`each of ${library.length * PER_TEMPLATE + fuzzed.length} ends as a PDF or a typed permanent failure`, async () => {
    const renderer = new Renderer({
      preparer: stack.preparer,
      converter: stack.office,
      storage: stack.storage,
    });
    const mutants = [
      ...mutantsOf(library, { seed: SEED, count: PER_TEMPLATE }),
      ...fuzzed.map(([what, build]) => ({ label: what, bytes: build() })),
    ];
    expect(mutants).toHaveLength(library.length * PER_TEMPLATE + fuzzed.length);
    const outcomes = new Map<string, Outcome>();
    for (const m of mutants) outcomes.set(m.label, await outcomeOf(renderer, m));
    const internal = [...outcomes].filter(([, o]) => o.startsWith('internal'));
    expect(Object.fromEntries(internal)).toEqual({});
    // Both ends are reached: some mutants still render, some are refused.
    const tally = (o: Outcome) => [...outcomes.values()].filter((x) => x === o).length;
    expect(tally('pdf')).toBeGreaterThan(0);
    expect(tally('refused')).toBeGreaterThan(0);
  }, 300_000);
});
