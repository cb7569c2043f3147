import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isDocpipeError } from '../../src/base/errors/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { DEFAULT_SNIFF_LIMITS } from '../../src/formats/sniff/index.js';
import { prepareDocument } from '../../src/render/prepare/index.js';
import { corpusRows } from '../helpers/corpus.js';
import { MUTATION_KINDS, mutantsOf, type Mutant } from '../helpers/mutants.js';

/**
 * Seeded mutants of the library templates and of the corpus's real .docx files, through every
 * step before conversion (sniff, harden, the font scan, fill): each ends prepared or as a typed
 * permanent failure, never as an internal one. The seed is fixed, so a failure names a mutant
 * that can be made again (its label says how). test/integration/damaged-mutants.test.ts sends a
 * few dozen through the real office.
 */
const SEED = 20;
const root = projectRoot();
const library = readdirSync(join(root, 'templates')).map((name) => ({
  name: `templates/${name}`,
  bytes: readFileSync(join(root, 'templates', name, 'template.docx')),
}));
const corpus = corpusRows()
  .filter((r) => r.expectedKind === 'docx')
  .map((r) => ({ name: r.file, bytes: readFileSync(r.path) }));
/** Values for a tag most templates do not have: fill runs, and strict mode is off. */
const TAGS = [{ tag: 'mutant_probe', value: 'x', type: 'text' }];

type Outcome = 'prepared' | 'refused' | `internal: ${string}`;

function outcomeOf(mutant: Mutant): Outcome {
  try {
    prepareDocument(mutant.bytes, TAGS, { limits: DEFAULT_SNIFF_LIMITS, field: 'documents[0]' });
    return 'prepared';
  } catch (err) {
    if (isDocpipeError(err) && !err.retryable) return 'refused';
    return `internal: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`;
  }
}

function internalOnes(mutants: Mutant[]): Record<string, string> {
  const found: Record<string, string> = {};
  for (const m of mutants) {
    const outcome = outcomeOf(m);
    if (outcome.startsWith('internal')) found[m.label] = outcome;
  }
  return found;
}

describe('seeded mutants end prepared or as a typed permanent failure', () => {
  it(`library templates: ${library.length} x 24 mutants`, () => {
    const mutants = mutantsOf(library, { seed: SEED, count: 24 });
    expect(mutants).toHaveLength(library.length * 24);
    expect(internalOnes(mutants)).toEqual({});
  });

  it(`corpus .docx files: one mutant each, ${corpus.length} in all`, () => {
    const mutants = mutantsOf(corpus, { seed: SEED, count: 1 });
    expect(mutants).toHaveLength(corpus.length);
    // The kinds are taken in turn across files: every kind is made, about as often.
    expect(new Set(mutants.map((m) => m.label.split(' ')[2]))).toEqual(new Set(MUTATION_KINDS));
    expect(internalOnes(mutants)).toEqual({});
  });
});
