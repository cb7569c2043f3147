import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * A template author runs sniff, fields and lint many times an hour: the built CLI loads, for
 * `--help` and `sniff`, none of the packages the queue, the HTTP service, storage, fill or the
 * PDF checks need. Counted with a module hook that writes down every file the CLI loads (the
 * time it takes is `npm run bench`'s, measured against `node -e 0`).
 */

const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');

/** Writes each resolved URL, one a line, to the file named by DOCPIPE_TEST_LOADED. */
const hooks = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.DOCPIPE_TEST_LOADED, result.url + '\\n');
  return result;
}`;
const register = `import { register } from 'node:module'; register(${JSON.stringify(
  `data:text/javascript,${encodeURIComponent(hooks)}`,
)});`;

const HEAVY = [
  'bullmq',
  'ioredis',
  'fastify',
  '@aws-sdk',
  'pdf-lib',
  'docxtemplater',
  'pizzip',
  'typebox',
  'pino',
  'piscina',
  'prom-client',
  'file-type',
  'libreoffice-convert',
];

/** The npm packages the CLI loads for `args`, and its output. */
function packagesLoaded(args: string[]): {
  packages: Set<string>;
  stdout: string;
  status: number | null;
} {
  const log = join(testDir('docpipe-startup-'), 'loaded.txt');
  const r = spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(register)}`, cli, ...args],
    { cwd: root, encoding: 'utf8', env: { ...process.env, DOCPIPE_TEST_LOADED: log } },
  );
  const packages = new Set(
    readFileSync(log, 'utf8')
      .split('\n')
      .map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
      .filter((name): name is string => name !== undefined)
      .map((name) => (name.startsWith('@aws-sdk/') ? '@aws-sdk' : name)),
  );
  return { packages, stdout: r.stdout, status: r.status };
}

describe("the CLI's start-up", () => {
  it('--help loads commander and none of the heavy packages', () => {
    const { packages, stdout, status } = packagesLoaded(['--help']);
    expect(status).toBe(0);
    expect(stdout).toContain('sniff [options] <files...>');
    expect([...packages]).toEqual(['commander']);
  });

  it('sniff of a .docx loads none of the heavy packages', () => {
    const { packages, stdout, status } = packagesLoaded(['sniff', 'templates/lease/template.docx']);
    expect(status).toBe(0);
    expect(stdout).toBe('templates/lease/template.docx\tdocx\n');
    expect(HEAVY.filter((name) => packages.has(name))).toEqual([]);
  });

  it('fields and lint load neither the queue, the HTTP service nor storage', () => {
    for (const args of [
      ['fields', 'templates/lease/template.docx'],
      ['lint', 'templates/lease'],
    ]) {
      const { packages, status } = packagesLoaded(args);
      expect(status, args.join(' ')).toBe(0);
      expect(packages.has('docxtemplater'), args.join(' ')).toBe(true);
      expect(
        ['fastify', '@aws-sdk', 'prom-client', 'libreoffice-convert'].filter((name) =>
          packages.has(name),
        ),
        args.join(' '),
      ).toEqual([]);
    }
  });
});
