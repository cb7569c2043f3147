import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
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
  it('create a key, upload, convert with tags, download the PDF, get a pre-signed URL and create a case', async () => {
    const block = readmeHttpBlock();
    expect(block).toContain('DP=http://127.0.0.1:8080\n');
    const script = `set -euo pipefail\n${block.replace('DP=http://127.0.0.1:8080\n', `DP=${address}\n`)}printf '%s\\n' "$KEY"\n`;
    const r = spawnSync('bash', ['-c', script], {
      encoding: 'utf8',
      env: docpipeEnv(join(dir, 'data')),
      cwd: dir,
      timeout: 120_000,
    });
    expect(r.status, `${address}\n${r.stderr}`).toBe(0);
    // Two answers, a line each: the pre-signed URL's, then the case's; then the key.
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines, r.stdout).toHaveLength(3);
    const presigned = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(presigned).sort()).toEqual(['cached', 'key', 'signedUrl', 'type']);
    expect(presigned).toMatchObject({ type: 'docx', cached: false });
    const text = pdfText(readFileSync(join(dir, 'lease.pdf')));
    expect(text).toContain('Lejekontrakt nr. LK-2025-0042');

    // The case: an error answer ({"error", "details"}) has no case and fails here, naming it.
    const answer = JSON.parse(lines[1]!) as {
      case?: { id: string; recipients: { signingUrl: string }[]; documents: { url: string }[] };
    };
    expect(answer.case, lines[1]).toBeDefined();
    const created = answer.case!;
    expect(created.id).toMatch(/\S/);
    expect(created.recipients).toHaveLength(1);
    expect(created.recipients[0]!.signingUrl).toMatch(/\/sign\/[A-Za-z0-9_-]{43}$/);
    expect(created.documents).toHaveLength(1);
    const download = await fetch(created.documents[0]!.url);
    expect(download.status).toBe(200);
    const pdf = Buffer.from(await download.arrayBuffer());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfText(pdf)).toContain('Lejekontrakt nr. LK-2025-0042');

    // Created, not only answered: the case reads back with the README's key (the last line,
    // which the test prints after the block).
    const read = await fetch(`${address}/v3/api/cases/${created.id}`, {
      headers: { authorization: `Bearer ${lines[2]}` },
    });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { case: { id: string } }).case.id).toBe(created.id);

    // Mette's invitation: without SMTP, an .eml file in the data folder that the answer names,
    // holding the very link the answer gave.
    const delivery = (
      answer.case as unknown as { delivery: { email: { ok: boolean; location?: string } } }
    ).delivery;
    expect(delivery.email, lines[1]).toMatchObject({ ok: true });
    expect(delivery.email.location!.startsWith(join(dir, 'data', 'mail'))).toBe(true);
    const mail = await simpleParser(readFileSync(delivery.email.location!));
    expect(mail.to).toMatchObject({ value: [{ address: 'mette@example.com', name: 'Mette' }] });
    expect(mail.text).toContain(created.recipients[0]!.signingUrl);
  });
});
