import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { docpipeEnv, StartedDocpipe } from '../helpers/docpipe-start.js';
import { pdfText } from '../helpers/pdf-text.js';

/**
 * The README's HTTP commands, run as a new user would, word for word, against a real `docpipe
 * start`: only the address line is pointed at this test's server (it takes a free port).
 */

const root = projectRoot();
let dir: string;
let start: StartedDocpipe;
let address: string;

/** The shell block of the README's HTTP section. */
function readmeHttpBlock(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## HTTP\n'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('the README has no shell block under "## HTTP"');
  return block;
}

beforeAll(async () => {
  // A folder laid out as the project is (its package, build and templates), so that the commands
  // run as written there, and what they write (lease.pdf) stays out of the project.
  dir = mkdtempSync(join(tmpdir(), 'readme-http-'));
  // The embedded PostgreSQL runs as the postgres user when the tests run as root: it must be let
  // through the folder above its data folder (docs/database.md, "As root").
  chmodSync(dir, 0o711);
  for (const name of ['package.json', 'dist', 'node_modules'])
    symlinkSync(join(root, name), join(dir, name));
  cpSync(join(root, 'templates'), join(dir, 'templates'), { recursive: true });
  start = new StartedDocpipe(docpipeEnv(join(dir, 'data'), { DOCPIPE_LOG_FORMAT: 'json' }));
  await start.waitFor('docpipe started');
  const started = start.lines().find((l) => l.msg.startsWith('docpipe started'));
  address = String(started?.http);
  expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
}, 120_000);

afterAll(async () => {
  await start?.killAll();
  rmSync(dir, { recursive: true, force: true });
});

describe("the README's HTTP commands", () => {
  it('create a key, upload, convert with tags, download the PDF and get a pre-signed URL', () => {
    const block = readmeHttpBlock();
    expect(block).toContain('DP=http://127.0.0.1:8080\n');
    const script = `set -euo pipefail\n${block.replace('DP=http://127.0.0.1:8080\n', `DP=${address}\n`)}`;
    const r = spawnSync('bash', ['-c', script], {
      encoding: 'utf8',
      env: docpipeEnv(join(dir, 'data')),
      cwd: dir,
      timeout: 120_000,
    });
    expect(r.status, `${address}\n${r.stderr}`).toBe(0);
    const presigned = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(presigned).sort()).toEqual(['cached', 'key', 'signedUrl', 'type']);
    expect(presigned).toMatchObject({ type: 'docx', cached: false });
    const text = pdfText(readFileSync(join(dir, 'lease.pdf')));
    expect(text).toContain('Lejekontrakt nr. LK-2025-0042');
  });
});
