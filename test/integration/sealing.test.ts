import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  SELF_SIGNED_P12_FILE,
  SELF_SIGNED_PASSWORD_FILE,
  loadSealingConfig,
} from '../../src/app/config/index.js';
import {
  appendAuditTrail,
  appendSignaturePage,
  stampPlaces,
  type AuditTrail,
  type SignaturePlace,
  type Stamp,
} from '../../src/document/stamp/index.js';
import {
  SealerError,
  loadSealer,
  makeSelfSignedP12,
  openPdf,
  sealPdf,
  type Sealer,
} from '../../src/formats/pades/index.js';
import { pdfText } from '../helpers/pdf-text.js';
import { testDir } from '../helpers/test-dir.js';
import { startTsaServer, type TsaServer } from '../helpers/tsa-server.js';

/**
 * Sealing as the worker does it: stamp two signatures and the names and dates, append the audit
 * trail, sign as PAdES; checked with poppler (pdfsig, pdftotext, pdftoppm) and openssl, never
 * with the library that wrote it.
 */

const A4 = { width: 595.28, height: 841.89 };
const SIGNED_AT = new Date('2026-03-04T05:06:07Z');

/**
 * Two pages of body text in the upper half only, so the lower half is blank for the stamps. Made
 * once: pdf-lib writes the time of saving into the file, and the same input must seal the same.
 */
let twoPages: Promise<Uint8Array> | undefined;
function twoPagePdf(): Promise<Uint8Array> {
  twoPages ??= makeTwoPagePdf();
  return twoPages;
}

async function makeTwoPagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= 2; p++) {
    const page = doc.addPage([A4.width, A4.height]);
    for (let l = 0; l < 20; l++)
      page.drawText(`Page ${p}, clause ${l + 1}: the parties agree.`, {
        x: 56,
        y: 780 - l * 16,
        size: 11,
        font,
      });
  }
  return doc.save();
}

/** A drawn signature: a dark wave on a transparent background, 600 x 200 pixels. */
function signaturePng(): Uint8Array {
  const png = new PNG({ width: 600, height: 200 });
  for (let y = 0; y < 200; y++)
    for (let x = 0; x < 600; x++) {
      const i = (y * 600 + x) * 4;
      const ink = Math.abs(y - 100 - 70 * Math.sin(x / 45)) < 6;
      png.data[i] = 10;
      png.data[i + 1] = 20;
      png.data[i + 2] = 90;
      png.data[i + 3] = ink ? 255 : 0;
    }
  return PNG.sync.write(png);
}

const signPlace1: SignaturePlace = {
  kind: 'sign',
  recipient: 1,
  page: 2,
  rect: { x: 60, y: 150, width: 200, height: 60 },
};
const signPlace2: SignaturePlace = {
  kind: 'sign',
  recipient: 2,
  page: 2,
  rect: { x: 330, y: 150, width: 200, height: 60 },
};

function stamps(png: Uint8Array): Stamp[] {
  return [
    { place: signPlace1, png },
    {
      place: { ...signPlace1, kind: 'name', rect: { x: 60, y: 120, width: 200, height: 14 } },
      text: 'Søren Ærø Østergård',
    },
    {
      place: { ...signPlace1, kind: 'date', rect: { x: 60, y: 100, width: 120, height: 14 } },
      text: '2026-03-04',
    },
    // The second signer typed their name: drawn in italic at the sign place.
    { place: signPlace2, text: 'Åsa Öberg-Müßig' },
    {
      place: { ...signPlace2, kind: 'name', rect: { x: 330, y: 120, width: 200, height: 14 } },
      text: 'Åsa Öberg-Müßig',
    },
  ];
}

const audit: AuditTrail = {
  case: {
    id: 'case_01HXYZ',
    title: 'Lejekontrakt (Nørrebrogade 1) <b>not markup</b>',
    sender: 'Jens Hansen <jens@example.dk>',
    createdAt: new Date('2026-03-01T09:00:00Z'),
  },
  recipients: [
    {
      position: 1,
      name: 'Søren Ærø Østergård',
      email: 'soren@example.dk',
      status: 'signed',
      method: {
        kind: 'eid',
        scheme: 'urn:grn:authn:dk:mitid:substantial',
        claims: [
          { name: 'sub', value: 'mitid-7f3c9a' },
          { name: 'name', value: 'Søren Østergård' },
          { name: 'dk:cpr', value: '0101701234' },
          { name: 'nin', value: '010170-1234' },
        ],
      },
      at: new Date('2026-03-04T05:00:00Z'),
      ip: '203.0.113.7',
      userAgent:
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 ' +
        'ExtraLongTokenWithoutAnySpacesAtAllThatMustBeBrokenBetweenCharactersToFitTheColumnOfThePage',
    },
    {
      position: 2,
      name: 'Åsa Öberg-Müßig\u202e evil',
      status: 'signed',
      method: { kind: 'typed' },
      at: SIGNED_AT,
      ip: '2001:db8::1',
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)',
    },
  ],
  documents: [
    {
      name: 'Lejekontrakt.pdf',
      sha256: 'c0ffee00112233445566778899aabbccddeeff00112233445566778899aabbcc',
    },
  ],
};

function pdfsig(pdf: Uint8Array, dir: string): string {
  const file = join(dir, `sig-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  const result = spawnSync('pdfsig', [file], { encoding: 'utf8' });
  return `${result.stdout}${result.stderr}`;
}

/** The last signature's /ByteRange and its CMS (DER), as the bytes say. */
function lastSignature(pdf: Uint8Array): { byteRange: number[]; cms: Buffer } {
  const text = Buffer.from(pdf).toString('latin1');
  const ranges = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  const last = ranges.at(-1);
  if (!last) throw new Error('no /ByteRange');
  const byteRange = last.slice(1, 5).map(Number);
  const hex = text.slice(byteRange[1]! + 1, byteRange[2]! - 1);
  const der = Buffer.from(hex, 'hex');
  // The placeholder is padded with zeros after the DER: cut at the outer SEQUENCE's length.
  const lengthBytes = der[1]! & 0x7f;
  const length = 2 + lengthBytes + der.subarray(2, 2 + lengthBytes).readUIntBE(0, lengthBytes);
  return { byteRange, cms: der.subarray(0, length) };
}

function cmsPrint(cms: Buffer, dir: string): string {
  const file = join(dir, `cms-${Math.random().toString(36).slice(2)}.der`);
  writeFileSync(file, cms);
  return execFileSync('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', file], {
    encoding: 'utf8',
  });
}

/** Pixels of page `page` at 72 dpi (1 px = 1 pt) through pdftoppm. */
function pagePixels(pdf: Uint8Array, page: number, dir: string): PNG {
  const file = join(dir, 'render.pdf');
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', [
    '-r',
    '72',
    '-f',
    String(page),
    '-l',
    String(page),
    '-png',
    '-singlefile',
    file,
    join(dir, 'page'),
  ]);
  return PNG.sync.read(readFileSync(join(dir, 'page.png')));
}

/** How many pixels in the rectangle (PDF points, y up) are not near white. */
function inkIn(png: PNG, rect: { x: number; y: number; width: number; height: number }): number {
  let ink = 0;
  for (
    let py = Math.floor(png.height - rect.y - rect.height);
    py < Math.ceil(png.height - rect.y);
    py++
  )
    for (let px = Math.floor(rect.x); px < Math.ceil(rect.x + rect.width); px++) {
      if (px < 0 || py < 0 || px >= png.width || py >= png.height) continue;
      const i = (py * png.width + px) * 4;
      if (png.data[i]! + png.data[i + 1]! + png.data[i + 2]! < 600) ink++;
    }
  return ink;
}

let sealer: Sealer;
let tsa: TsaServer;

beforeAll(async () => {
  const { p12, password } = await makeSelfSignedP12({
    commonName: 'docpipe test seal',
    organization: 'Prøve ApS',
  });
  sealer = await loadSealer(p12, password);
  tsa = await startTsaServer();
});

afterAll(async () => {
  await tsa?.close();
});

async function sealedCase(options: { tsaUrl?: string } = {}): Promise<Uint8Array> {
  const doc = await openPdf(await twoPagePdf());
  stampPlaces(doc, stamps(signaturePng()));
  appendAuditTrail(doc, audit, 'da', 'Europe/Copenhagen');
  return sealPdf(doc, sealer, {
    reason: 'Underskrevet af alle parter (docpipe)',
    location: 'København',
    name: 'docpipe',
    signingTime: SIGNED_AT,
    ...options,
  });
}

describe('a sealed case document (B-B)', () => {
  it('verifies with pdfsig, covers the whole file, and carries the PAdES attributes', async () => {
    const dir = testDir('docpipe-seal-');
    const sealed = await sealedCase();
    const report = pdfsig(sealed, dir);
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Total document signed');
    expect(report).toContain('Signature Type: ETSI.CAdES.detached');
    expect(report).toContain('Signer Certificate Common Name: docpipe test seal');
    const { byteRange, cms } = lastSignature(sealed);
    expect(byteRange[0]).toBe(0);
    expect(byteRange[2]! + byteRange[3]!).toBe(sealed.length);
    const printed = cmsPrint(cms, dir);
    expect(printed).toMatch(/signingCertificateV2|1\.2\.840\.113549\.1\.9\.16\.2\.47/);
    expect(printed).toMatch(/signingTime/);
    expect(printed).not.toMatch(/timeStampToken|1\.2\.840\.113549\.1\.9\.16\.2\.14/);
    // The signature dictionary's text entries, written once each and readable.
    const raw = Buffer.from(sealed).toString('latin1');
    expect(raw).toContain('/Name (docpipe)');
    expect(raw).toContain('/Reason (Underskrevet af alle parter \\(docpipe\\))');
    expect(raw).toContain('/Location (K\xf8benhavn)');
  });

  it('breaks when one byte inside the signed range changes', async () => {
    const dir = testDir('docpipe-seal-');
    const sealed = await sealedCase();
    const { byteRange } = lastSignature(sealed);
    // A byte of the page content, well inside the first signed range.
    const changed = Uint8Array.from(sealed);
    const at = Math.floor(byteRange[1]! / 2);
    changed[at] = changed[at] === 0x41 ? 0x42 : 0x41;
    const report = pdfsig(changed, dir);
    expect(report).not.toContain('Signature is Valid.');
    expect(report).toMatch(/Signature Validation: (Digest Mismatch|Signature is Invalid)/);
  });

  it('is the same bytes when sealed again with the same inputs', async () => {
    const first = await sealedCase();
    const second = await sealedCase();
    expect(Buffer.compare(Buffer.from(first), Buffer.from(second))).toBe(0);
  });

  it('draws the names, dates and audit trail as text, and never a CPR number', async () => {
    const text = pdfText(await sealedCase());
    for (const expected of [
      'Søren Ærø Østergård',
      'Åsa Öberg-Müßig',
      '2026-03-04',
      'Revisionsspor',
      'Lejekontrakt (Nørrebrogade 1) <b>not markup</b>',
      'case_01HXYZ',
      'urn:grn:authn:dk:mitid:substantial',
      'sub: mitid-7f3c9a',
      'name: Søren Østergård',
      // The signer's time as the e-mails and the page write one, its zone said.
      '4. marts 2026 kl. 06.06.07 (UTC+1)',
      '1. marts 2026 kl. 10.00.00 (UTC+1)',
      '2001:db8::1',
      'c0ffee00112233445566778899aabbccddeeff00112233445566778899aabbcc',
      'Filens digitale segl (PAdES)',
    ])
      expect(text).toContain(expected);
    expect(text).not.toMatch(/0101701234|010170-1234/);
    expect(text).not.toContain('\u202e');
    // The unbroken token was broken between characters, and all of it is there.
    expect(text.replace(/\s+/g, '')).toContain(
      'ExtraLongTokenWithoutAnySpacesAtAllThatMustBeBrokenBetweenCharactersToFitTheColumnOfThePage',
    );
  });

  it('puts the drawn signature inside its place and nothing around it', async () => {
    const dir = testDir('docpipe-seal-');
    const png = pagePixels(await sealedCase(), 2, dir);
    expect(png.width).toBe(Math.ceil(A4.width));
    const rect = signPlace1.rect;
    expect(inkIn(png, rect)).toBeGreaterThan(500);
    // A band of 15 pt around the place, above and to the left (the name and date are below).
    expect(
      inkIn(png, { x: rect.x - 15, y: rect.y + rect.height, width: rect.width + 30, height: 15 }),
    ).toBe(0);
    expect(inkIn(png, { x: rect.x - 15, y: rect.y, width: 15, height: rect.height })).toBe(0);
    // The typed signature is inside its own place too.
    expect(inkIn(png, signPlace2.rect)).toBeGreaterThan(50);
    expect(
      inkIn(png, {
        x: signPlace2.rect.x,
        y: signPlace2.rect.y + signPlace2.rect.height,
        width: signPlace2.rect.width,
        height: 15,
      }),
    ).toBe(0);
  });
});

describe('a sealed document with a timestamp (B-T)', () => {
  it('carries a token from the RFC 3161 authority and still verifies', async () => {
    const dir = testDir('docpipe-seal-');
    const before = tsa.answered;
    const sealed = await sealedCase({ tsaUrl: tsa.url });
    expect(tsa.answered).toBe(before + 1);
    const report = pdfsig(sealed, dir);
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Total document signed');
    const printed = cmsPrint(lastSignature(sealed).cms, dir);
    expect(printed).toMatch(/id-smime-aa-timeStampToken|1\.2\.840\.113549\.1\.9\.16\.2\.14/);
    expect(printed).toContain('docpipe test TSA');
  });
});

describe('the certificate', () => {
  it('refuses a wrong password with a typed error', async () => {
    const { p12 } = await makeSelfSignedP12({ commonName: 'x' });
    const err = await loadSealer(p12, 'not the password').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SealerError);
    expect((err as SealerError).problem).toBe('wrong-password');
  });

  it('refuses an expired certificate with a typed error', async () => {
    const { p12, password } = await makeSelfSignedP12({
      commonName: 'x',
      days: 1,
      now: new Date('2020-01-01T00:00:00Z'),
    });
    const err = await loadSealer(p12, password).catch((e: unknown) => e);
    expect((err as SealerError).problem).toBe('expired');
  });

  it('names the variable when the configured PKCS#12 does not open', async () => {
    const dir = testDir('docpipe-seal-config-');
    const { p12 } = await makeSelfSignedP12({ commonName: 'x' });
    writeFileSync(join(dir, 'operator.p12'), p12);
    const err = await loadSealingConfig(
      {
        DOCPIPE_SEAL_P12: join(dir, 'operator.p12'),
        DOCPIPE_SEAL_P12_PASSWORD: 'wrong',
        DOCPIPE_TSA_URL: 'ftp://x',
      },
      dir,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems.join('\n');
    expect(problems).toContain('DOCPIPE_SEAL_P12');
    expect(problems).toContain('password does not open');
    expect(problems).toContain('DOCPIPE_TSA_URL');
  });

  it('makes a self-signed certificate on the first start, keeps it, and warns it is untrusted', async () => {
    const dataDir = testDir('docpipe-seal-data-');
    const warnings: string[] = [];
    const logger = {
      debug() {},
      info() {},
      warn(_: object, msg?: string) {
        warnings.push(msg ?? '');
      },
      error() {},
    };
    const first = await loadSealingConfig({ DOCPIPE_TSA_URL: tsa.url }, dataDir, { logger });
    expect(first.source).toEqual({
      kind: 'self-signed',
      path: join(dataDir, SELF_SIGNED_P12_FILE),
      made: true,
    });
    expect(first.tsaUrl).toBe(tsa.url);
    expect(first.sealer.selfSigned).toBe(true);
    expect(statSync(join(dataDir, SELF_SIGNED_P12_FILE)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, SELF_SIGNED_PASSWORD_FILE)).mode & 0o777).toBe(0o600);
    const second = await loadSealingConfig({}, dataDir, { logger });
    expect(second.source).toMatchObject({ kind: 'self-signed', made: false });
    expect(second.sealer.fingerprint).toBe(first.sealer.fingerprint);
    expect(second.tsaUrl).toBeUndefined();
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('untrusted');
    // openssl reads the file with the kept password: an operator can inspect or reuse it.
    const password = readFileSync(join(dataDir, SELF_SIGNED_PASSWORD_FILE), 'utf8').trim();
    const subject = execFileSync(
      'openssl',
      [
        'pkcs12',
        '-in',
        join(dataDir, SELF_SIGNED_P12_FILE),
        '-passin',
        `pass:${password}`,
        '-nokeys',
        '-clcerts',
      ],
      { encoding: 'utf8' },
    );
    expect(subject).toContain('docpipe seal (self-signed)');
  });
});

describe('a document without anchors', () => {
  it('gets a signature page whose places the stamps fill', async () => {
    const dir = testDir('docpipe-seal-');
    const signers = [{ name: 'Søren Ærø' }, { name: 'Åsa Öberg' }, { name: 'Jörg Müßig' }];
    const { pdf, places } = await appendSignaturePage(await twoPagePdf(), signers, 'en');
    expect(places).toHaveLength(9);
    expect(places.map((p) => `${p.kind}:${p.recipient}:${p.page}`)).toEqual([
      'sign:1:3',
      'name:1:3',
      'date:1:3',
      'sign:2:3',
      'name:2:3',
      'date:2:3',
      'sign:3:3',
      'name:3:3',
      'date:3:3',
    ]);
    const doc = await openPdf(pdf);
    stampPlaces(
      doc,
      places.map((place) =>
        place.kind === 'sign'
          ? { place, png: signaturePng() }
          : {
              place,
              text: place.kind === 'name' ? signers[place.recipient - 1]!.name : '2026-03-04',
            },
      ),
    );
    const sealed = await sealPdf(doc, sealer, { signingTime: SIGNED_AT });
    expect(pdfsig(sealed, dir)).toContain('Signature is Valid.');
    const text = pdfText(sealed);
    expect(text).toContain('Signatures');
    expect(text).toContain('Signer 3: Jörg Müßig');
    const png = pagePixels(sealed, 3, dir);
    for (const place of places.filter((p) => p.kind === 'sign'))
      expect(inkIn(png, place.rect)).toBeGreaterThan(500);
  });
});

describe('an audit trail of many recipients', () => {
  it('flows onto further pages with every recipient on one of them', async () => {
    const recipients = Array.from({ length: 40 }, (_, i) => ({
      position: i + 1,
      name: `Recipient Number ${i + 1} Ærøskøbing`,
      status: 'signed' as const,
      method: { kind: 'draw' as const },
      at: SIGNED_AT,
      ip: '198.51.100.1',
      userAgent: 'Mozilla/5.0',
    }));
    const doc = await openPdf(await twoPagePdf());
    const added = appendAuditTrail(doc, { ...audit, recipients }, 'en', 'Europe/Copenhagen');
    expect(added).toBeGreaterThan(1);
    expect(doc.getPageCount()).toBe(2 + added);
    const text = pdfText(await sealPdf(doc, sealer, { signingTime: SIGNED_AT }));
    for (const r of recipients) expect(text).toContain(`${r.position}. ${r.name}`);
    expect(text).toContain(`Audit trail page ${added} of ${added}`);
    expect(text).toContain('Audit trail (continued)');
  });
});
