import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config/index.js';
import { projectRoot } from '../../src/base/paths/index.js';

/**
 * Parity between the environment variables the configuration reads and the configuration table
 * the README points users at: a variable added to the code and not to the page, or a documented
 * one nothing reads any more, fails here.
 */
const root = projectRoot();
const NAME = /^(DOCPIPE_[A-Z0-9_]+|REDIS_URL|DATABASE_URL)$/;

/**
 * Names read in src/app/config/*.ts and src/app/env/*.ts (the readers config shares with the
 * CLI): `env.X`, `process.env.X`, `env['X']` and quoted 'DOCPIPE_X'.
 */
function namesInConfigSource(): Set<string> {
  const files = ['config', 'env'].flatMap((folder) => {
    const dir = join(root, 'src', 'app', folder);
    return readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(dir, f));
  });
  const names = new Set<string>();
  for (const file of files) {
    // Comments name variables too; only code counts as reading one.
    const code = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    const patterns = [
      /\benv\.([A-Z][A-Z0-9_]*)\b/g,
      /\benv\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\]/g,
      /['"](DOCPIPE_[A-Z0-9_]+|REDIS_URL|DATABASE_URL)['"]/g,
    ];
    for (const pattern of patterns) for (const m of code.matchAll(pattern)) names.add(m[1]!);
  }
  return names;
}

/** Names `loadConfig` looks up when it runs, including those it takes from other modules. */
function namesLoadConfigReads(): Set<string> {
  const read = new Set<string>();
  const env = new Proxy(
    {},
    {
      get(_target, key) {
        if (typeof key === 'string') read.add(key);
        return undefined;
      },
    },
  );
  loadConfig(env);
  return read;
}

/** The page the README's configuration pointer links to, and the variables its tables name. */
function documentedNames(): { page: string; names: Set<string> } {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const link = /\[Configuration\]\(([^)#\s]+)[^)]*\)/.exec(readme);
  expect(link, 'README.md links to the configuration page').not.toBeNull();
  const page = link![1]!;
  const names = new Set<string>();
  const text = readFileSync(join(root, page), 'utf8');
  for (const row of text.split('\n').filter((l) => l.startsWith('|'))) {
    const firstCell = row.split('|')[1] ?? '';
    for (const m of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1]!);
    // A family (`DOCPIPE_LOGIN_OIDC_<NAME>_ISSUER`) documents its prefix.
    for (const m of firstCell.matchAll(/`([A-Z][A-Z0-9_]*_)<[A-Z]+>[A-Z0-9_]*`/g)) names.add(m[1]!);
  }
  return { page, names };
}

/** Known variables, so an extraction that silently found nothing cannot pass. */
const KNOWN = [
  'DOCPIPE_DATA_DIR',
  'DOCPIPE_TEMPLATES_DIR',
  'DOCPIPE_LOCALE',
  'DOCPIPE_DELIMITERS',
  'DOCPIPE_MAX_INPUT_BYTES',
  'DOCPIPE_LOG_LEVEL',
  'DOCPIPE_OFFICE_PROCESSES',
  'DOCPIPE_QUEUE_PREFIX',
  'DOCPIPE_SIGNING_SECRET',
  'REDIS_URL',
  'DATABASE_URL',
];
/** Read through names another module declares (the value limits, src/document/fill), not in the source. */
const KNOWN_READ_ONLY = ['DOCPIPE_MAX_VALUE_CHARS', 'DOCPIPE_ALLOW_BIDI_CONTROLS'];

describe('configuration parity', () => {
  const source = namesInConfigSource();
  const read = namesLoadConfigReads();
  const code = [...new Set([...source, ...read])].filter((n) => NAME.test(n)).sort();

  it('finds the known variables both in the source and in what loadConfig reads', () => {
    for (const name of KNOWN) {
      expect(source, name).toContain(name);
      expect(read, name).toContain(name);
    }
    for (const name of KNOWN_READ_ONLY) expect(read, name).toContain(name);
  });

  it('reads every variable its source names', () => {
    // A name ending in `_` is a family's prefix (DOCPIPE_LOGIN_OIDC_<NAME>_...), found by going
    // through the environment's names rather than by asking for one.
    expect([...source].filter((n) => !read.has(n) && !n.endsWith('_'))).toEqual([]);
  });

  it("documents every variable it reads in the README's configuration page, and only those", () => {
    const { page, names } = documentedNames();
    expect([...names].sort(), page).toEqual(code);
  });
});
