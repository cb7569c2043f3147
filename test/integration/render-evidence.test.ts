import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import { OfficePool } from '../../src/render/convert/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { Renderer, type RenderResult } from '../../src/render/pipeline/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { installedCoverage } from '../../src/formats/fonts/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { rejectionOf } from '../helpers/failure.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * Evidence through the real pipeline: fill, LibreOffice, the PDF check and the values check.
 * The hashes are computed here independently of the code under test.
 */

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** Canonical JSON as docs/signing.md "Evidence" defines it, written again here. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A run hidden by `w:vanish`: Word and LibreOffice lay it out as nothing. */
const hidden = (text: string) =>
  `<w:p><w:r><w:rPr><w:vanish/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

const template = buildDocx({
  body:
    para('Lease between {landlord} and {tenant}.') +
    para('Rent {rent} per month from {start}. {sign:1}') +
    para('Notes: {notes}'),
});
const tags = [
  { tag: 'tenant', value: 'Anna Jensen', type: 'text' },
  { tag: 'landlord', value: 'Bo Hansen ApS', type: 'text' },
  { tag: 'rent', value: 12500.5, type: 'number' },
  { tag: 'start', value: '2026-01-01', type: 'date' },
  { tag: 'notes', value: '', type: 'text' },
];
const hiddenTemplate = buildDocx({
  body: para('Lease for {tenant}.') + hidden('Secret clause: {clause}'),
});
const hiddenTags = [
  { tag: 'tenant', value: 'Anna Jensen', type: 'text' },
  { tag: 'clause', value: 'The tenant may keep a cat', type: 'text' },
];

let preparer: InlinePreparer;
let pool: OfficePool;
beforeAll(async () => {
  preparer = new InlinePreparer();
  pool = await OfficePool.start({ processes: 1 });
});
afterAll(async () => {
  await pool?.close();
  await preparer?.close();
});

function renderer() {
  const storage = new LocalStorage(testDir('render-evidence-'));
  return { renderer: new Renderer({ preparer, converter: pool, storage }), storage };
}

const version = (
  JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as {
    version: string;
  }
).version;

describe('render evidence', () => {
  it('lists the hashes, fonts, pages and versions, and a cached render answers the same', async () => {
    const { renderer: r, storage } = renderer();
    const first = await r.render({ bytes: template, name: 'lease' }, tags, {
      field: 'documents[0]',
    });
    expect(first.cached).toBe(false);
    const pdf = (await storage.get(first.key))!;
    const e = first.evidence!;
    expect(e.sha256).toBe(sha256(pdf));
    expect(e.sha256).toBe(first.sha256);
    expect(e.templateSha256).toBe(sha256(template));
    expect(e.valuesSha256).toBe(sha256(canonical(tags)));
    expect(e.normalizedSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(e.normalizedSha256).not.toBe(e.sha256);
    expect(e.fonts).toEqual(first.fonts);
    expect(e.fonts.length).toBeGreaterThan(0);
    expect(e.pages).toBe(first.pages);
    expect(e.officeVersion).toMatch(/^LibreOffice \d+\.\d+/);
    expect(e.docpipeVersion).toBe(version);
    // Every value shows: no notice about values.
    expect(first.notices.filter((n) => n.code === 'value-not-shown')).toEqual([]);

    const again = await r.render({ bytes: template, name: 'lease' }, tags, {
      field: 'documents[3]',
    });
    expect(again.cached).toBe(true);
    expect(again.evidence).toEqual(first.evidence);
  });

  it('gives the same normalized hash for two conversions of the same template and values', async () => {
    // Two storages: no cache hit, LibreOffice converts twice.
    const a = await renderer().renderer.render({ bytes: template, name: 'lease' }, tags);
    const b = await renderer().renderer.render({ bytes: template, name: 'lease' }, tags);
    expect(a.cached || b.cached).toBe(false);
    expect(a.sha256).not.toBe(b.sha256);
    expect(a.evidence!.normalizedSha256).toBe(b.evidence!.normalizedSha256);
  });

  it('gives a PDF input its own hash as the template and no values or office version', async () => {
    const { renderer: r, storage } = renderer();
    const made = await r.render({ bytes: template, name: 'lease' }, tags);
    const pdf = (await storage.get(made.key))!;
    const given = await r.render({ bytes: pdf, name: 'given' }, []);
    expect(given.evidence!.templateSha256).toBe(sha256(pdf));
    expect(given.evidence!.sha256).toBe(sha256(pdf));
    expect(given.evidence!.valuesSha256).toBeNull();
    expect(given.evidence!.officeVersion).toBeNull();
    expect(made.evidence!.valuesSha256).not.toBeNull();
  });
});

describe('values the PDF does not show', () => {
  it('are a notice naming the value in a case document, kept for a cached render', async () => {
    const { renderer: r } = renderer();
    // A plain convert does not read the text layer for it.
    const plain = await r.render({ bytes: hiddenTemplate, name: 'hidden' }, hiddenTags, {
      field: 'documents[0]',
    });
    expect(plain.notices.filter((n) => n.code === 'value-not-shown')).toEqual([]);
    const out: RenderResult = await r.render(
      { bytes: hiddenTemplate, name: 'hidden' },
      hiddenTags,
      { field: 'documents[1]', places: true },
    );
    const notShown = out.notices.filter((n) => n.code === 'value-not-shown');
    expect(notShown).toEqual([
      expect.objectContaining({ code: 'value-not-shown', field: 'documents[1].tags.clause' }),
    ]);
    const hit = await r.render({ bytes: hiddenTemplate, name: 'hidden' }, hiddenTags, {
      field: 'documents[2]',
      places: true,
    });
    expect(hit.cached).toBe(true);
    expect(hit.notices.filter((n) => n.code === 'value-not-shown')).toEqual([
      expect.objectContaining({ field: 'documents[2].tags.clause' }),
    ]);
  });

  it('are refused under strict fidelity, naming the value', async () => {
    const { renderer: r } = renderer();
    const err = await rejectionOf(
      r.render({ bytes: hiddenTemplate, name: 'hidden' }, hiddenTags, {
        field: 'documents[0]',
        fidelity: 'strict',
      }),
      DocpipeError,
    );
    expect(err.slug).toBe('document-production-failed');
    expect(err.details.map((d) => d.field)).toEqual(['documents[0].tags.clause']);
  });
});

describe('characters no installed font draws', () => {
  // The first of these no installed font has: private-use code points, then CJK (no CJK font is
  // installed by setup), so the test holds on a machine that adds one of them.
  const missing = ['\ue000', '\u{f0041}', '中', '\u{100041}'].find(
    (c) => !installedCoverage().has(c.codePointAt(0)!),
  );
  const boxTemplate = buildDocx({ body: para('Tenant: {tenant}. City: {city}.') });
  const boxTags = () => [
    { tag: 'tenant', value: `Li ${missing!}${missing!} Wei`, type: 'text' },
    { tag: 'city', value: 'Århus Ø', type: 'text' },
  ];

  it('are a notice naming the value on every render, kept for a cached render', async () => {
    expect(missing, 'every candidate character has a font here').toBeDefined();
    const { renderer: r } = renderer();
    const out = await r.render({ bytes: boxTemplate, name: 'boxes' }, boxTags(), {
      field: 'documents[1]',
    });
    expect(out.notices.filter((n) => n.code === 'characters-not-drawn')).toEqual([
      expect.objectContaining({ field: 'documents[1].tags.tenant', characters: [missing] }),
    ]);
    const hit = await r.render({ bytes: boxTemplate, name: 'boxes' }, boxTags(), {
      field: 'documents[4]',
    });
    expect(hit.cached).toBe(true);
    expect(hit.notices.filter((n) => n.code === 'characters-not-drawn')).toEqual([
      expect.objectContaining({ field: 'documents[4].tags.tenant', characters: [missing] }),
    ]);
  });

  it('are refused under strict fidelity, naming the value, and nothing is stored', async () => {
    const { renderer: r, storage } = renderer();
    const err = await rejectionOf(
      r.render({ bytes: boxTemplate, name: 'boxes' }, boxTags(), {
        field: 'documents[0]',
        fidelity: 'strict',
      }),
      DocpipeError,
    );
    expect(err.slug).toBe('document-production-failed');
    expect(err.details.map((d) => d.field)).toEqual(['documents[0].tags.tenant']);
    const stored: string[] = [];
    for await (const o of storage.list('')) stored.push(o.key);
    expect(stored.filter((k) => k.endsWith('.pdf'))).toEqual([]);
  });
});
