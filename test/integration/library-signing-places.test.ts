import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { loadSealer, makeSelfSignedP12 } from '../../src/formats/pades/index.js';
import { CaseService } from '../../src/service/cases/index.js';
import { CompanyRepository, UserRepository } from '../../src/service/companies/index.js';
import { sealCase, type SealDeps } from '../../src/service/sealing/index.js';
import { signRecipient } from '../../src/service/signing/index.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * A case from a library contract, signed and sealed on the real stack (LibreOffice, PostgreSQL,
 * Redis): the signatures, names and dates are drawn at the contract's own signature block (its
 * anchors), not on an appended page, and the signers its block cannot hold (a list's rows: the
 * tenants) sign on a signature page of their own (issue 32, item 2).
 */

const PUBLIC = 'http://127.0.0.1:9';
const templates = join(projectRoot(), 'templates');
const library = new FolderLibrary(templates);
let t: TestDatabase;
let stack: QueueStack;
let userId = '';
let deps: SealDeps;

beforeAll(async () => {
  [t, stack] = await Promise.all([testDatabase(), startQueueStack()]);
  await new CompanyRepository(t.db).create({ id: 'acme', name: 'Acme', defaultLanguage: 'en' });
  userId = (await new UserRepository(t.db).add('acme', { email: 'ann@acme.example', name: 'Ann' }))
    .id;
  const { p12, password } = await makeSelfSignedP12({ commonName: 'docpipe library seal test' });
  deps = {
    db: t.db,
    storage: stack.storage,
    sealer: await loadSealer(p12, password),
    version: '0',
  };
}, 120_000);

afterAll(async () => {
  await Promise.all([t?.close(), stack?.close()]);
});

interface Place {
  kind: string;
  recipient: number;
  page: number;
  rect: { x: number; y: number; width: number; height: number };
}

interface Word {
  page: number;
  text: string;
  /** The word's middle, in PDF points from the page's lower-left corner. */
  x: number;
  y: number;
}

/** Every word of the PDF with its page and middle, as poppler's pdftotext -bbox reads them. */
function words(pdf: Uint8Array): Word[] {
  const file = join(testDir('docpipe-library-seal-'), 'sealed.pdf');
  writeFileSync(file, pdf);
  const html = spawnSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' }).stdout;
  const out: Word[] = [];
  let page = 0;
  let height = 0;
  for (const line of html.split('\n')) {
    const p = /<page width="([\d.]+)" height="([\d.]+)"/.exec(line);
    if (p) {
      page++;
      height = Number(p[2]);
      continue;
    }
    const w = /xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</.exec(line);
    if (w) {
      const [xMin, yMin, xMax, yMax] = w.slice(1, 5).map(Number) as [
        number,
        number,
        number,
        number,
      ];
      out.push({ page, text: w[5]!, x: (xMin + xMax) / 2, y: height - (yMin + yMax) / 2 });
    }
  }
  return out;
}

/** The words drawn inside a place, in reading order. */
function textAt(all: Word[], place: Place): string {
  const { x, y, width, height } = place.rect;
  return all
    .filter((w) => w.page === place.page)
    .filter((w) => w.x >= x && w.x <= x + width && w.y >= y && w.y <= y + height)
    .map((w) => w.text)
    .join(' ');
}

describe('a case from a library contract, signed and sealed', () => {
  it('draws each signature, name and date at the contract’s signature block; list rows sign on a page of their own', async () => {
    const tags = JSON.parse(
      readFileSync(
        join(templates, 'tenancy-agreement/fixtures/furnished-with-break.tags.json'),
        'utf8',
      ),
    ) as { tag: string; type: string; value: unknown }[];
    const lane = await stack.lane();
    const cases = new CaseService({
      db: t.db,
      client: lane.client,
      storage: stack.storage,
      library,
      documentUrl: (key) => `${PUBLIC}/files/${key}`,
    });
    // document.json: recipient 1 is the landlord, then one recipient per tenant, in list order.
    const recipients = ['Helen Ashworth', 'Emily Carter', 'Tomasz Nowak'];
    const { case: made } = await cases.createCase(
      'acme',
      { id: 'k1', userId },
      {
        title: 'Tenancy',
        recipients: recipients.map((name, i) => ({ name, email: `r${i}@example.com` })),
        documents: [{ name: 'Tenancy', documentId: 'tenancy-agreement' }],
        tags,
      },
      { publicUrl: PUBLIC },
    );
    const stored = await t.db
      .selectFrom('case_documents')
      .select(['places', 'pages'])
      .where('case_id', '=', made.id)
      .executeTakeFirstOrThrow();
    const places = stored.places as Place[];
    expect(places.map((p) => `${p.kind}:${p.recipient}`)).toEqual(['sign:1', 'name:1', 'date:1']);
    for (const [i, r] of made.recipients.entries()) {
      const token = new URL(r.signingUrl).pathname.split('/')[2]!;
      const context = { ip: '192.0.2.7', userAgent: 'library seal test', now: new Date() };
      await signRecipient(t.db, { token }, { method: 'typed', name: recipients[i]! }, context);
    }
    expect(await sealCase(deps, 'acme', made.id)).toEqual({ kind: 'sealed', documents: 1 });
    const doc = await t.db
      .selectFrom('case_documents')
      .select('sealed_storage_key')
      .where('case_id', '=', made.id)
      .executeTakeFirstOrThrow();
    const sealed = await stack.storage.get(doc.sealed_storage_key!);
    const all = words(sealed!);

    const at = (kind: string) =>
      textAt(
        all,
        places.find((p) => p.kind === kind)!,
      );
    expect(at('sign')).toBe('Helen Ashworth');
    expect(at('name')).toBe('Helen Ashworth');
    expect(at('date')).toMatch(/2\d{3}/);
    // The page after the contract is the tenants' signature page: theirs only, not the
    // landlord's, who signed in the contract.
    const signaturePage = all.filter((w) => w.page === stored.pages! + 1).map((w) => w.text);
    expect(signaturePage).toEqual(expect.arrayContaining(['Emily', 'Carter', 'Tomasz', 'Nowak']));
    expect(signaturePage).not.toContain('Ashworth');
  }, 120_000);
});
