/**
 * Sealing (issue 23): CPU per sealed document — open a 2-page PDF, stamp two drawn signatures
 * with names and dates, append the audit trail page, sign as PAdES B-B — through docpipe
 * (@libpdf/core, one parse) against pdf-lib + @signpdf (the other way JavaScript does it: pdf-lib
 * draws and adds the placeholder, @signpdf signs with node-forge). Both embed Liberation Sans as a
 * subset and sign with the same RSA 3072 key. CPU is process.cpuUsage over each round, so
 * WebCrypto's work on libuv's threads counts too; no TSA (its round trip is excluded by the target).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fontkit from '@pdf-lib/fontkit';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { P12Signer as ForgeP12Signer } from '@signpdf/signer-p12';
import { SignPdf } from '@signpdf/signpdf';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { PNG } from 'pngjs';
import {
  appendAuditTrail,
  stampPlaces,
  STAMP_FONT_DIR,
  type AuditTrail,
  type Stamp,
} from '../src/document/stamp/index.js';
import { loadSealer, makeSelfSignedP12, openPdf, sealPdf } from '../src/formats/pades/index.js';
import type { Stats } from './stats.js';

export interface SealingRow {
  name: string;
  docpipe: Stats;
  baseline?: { name: string; stats: Stats };
  target?: string;
}

const SIGNED_AT = new Date('2026-03-04T05:06:07Z');

async function twoPagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= 2; p++) {
    const page = doc.addPage([595.28, 841.89]);
    for (let l = 0; l < 40; l++)
      page.drawText(`Page ${p}, clause ${l + 1}: the parties agree to the terms set out here.`, {
        x: 56,
        y: 790 - l * 16,
        size: 10,
        font,
      });
  }
  return doc.save();
}

/** A drawn signature as the signing page sends it, re-encoded: 600 x 200 pixels. */
function signaturePng(): Uint8Array {
  const png = new PNG({ width: 600, height: 200 });
  for (let y = 0; y < 200; y++)
    for (let x = 0; x < 600; x++) {
      const i = (y * 600 + x) * 4;
      png.data[i + 2] = 90;
      png.data[i + 3] = Math.abs(y - 100 - 70 * Math.sin(x / 45)) < 6 ? 255 : 0;
    }
  return PNG.sync.write(png);
}

const AUDIT: AuditTrail = {
  case: {
    id: 'case_01HXYZ',
    title: 'Lejekontrakt, Nørrebrogade 1',
    sender: 'Jens Hansen <jens@example.dk>',
    createdAt: new Date('2026-03-01T09:00:00Z'),
  },
  recipients: [1, 2].map((position) => ({
    position,
    name: position === 1 ? 'Søren Ærø Østergård' : 'Åsa Öberg-Müßig',
    email: `signer${position}@example.dk`,
    status: 'signed' as const,
    method: { kind: 'draw' as const },
    at: SIGNED_AT,
    ip: '203.0.113.7',
    userAgent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  })),
  documents: [{ name: 'Lejekontrakt.pdf', sha256: 'c0ffee'.padEnd(64, '0') }],
};

function stamps(png: Uint8Array): Stamp[] {
  return [1, 2].flatMap((recipient) => {
    const x = recipient === 1 ? 60 : 330;
    return [
      {
        place: { kind: 'sign', recipient, page: 2, rect: { x, y: 150, width: 200, height: 60 } },
        png,
      },
      {
        place: { kind: 'name', recipient, page: 2, rect: { x, y: 120, width: 200, height: 14 } },
        text: AUDIT.recipients[recipient - 1]!.name,
      },
      {
        place: { kind: 'date', recipient, page: 2, rect: { x, y: 100, width: 120, height: 14 } },
        text: '2026-03-04',
      },
    ] satisfies Stamp[];
  });
}

/** CPU milliseconds of each round (after a warm-up), as Stats. */
async function measureCpu(n: number, fn: () => Promise<unknown>, warmup: number): Promise<Stats> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = process.cpuUsage();
    await fn();
    const used = process.cpuUsage(started);
    times.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { n, p50: at(0.5), p95: at(0.95), mean: times.reduce((a, b) => a + b, 0) / n };
}

export async function sealingRows(rounds: number): Promise<SealingRow[]> {
  const pdf = await twoPagePdf();
  const png = signaturePng();
  const { p12, password } = await makeSelfSignedP12({ commonName: 'docpipe bench seal' });
  const sealer = await loadSealer(p12, password);

  const docpipe = async () => {
    const doc = await openPdf(pdf);
    stampPlaces(doc, stamps(png));
    appendAuditTrail(doc, AUDIT, 'da', 'Europe/Copenhagen');
    return sealPdf(doc, sealer, { reason: 'Sealed', name: 'docpipe', signingTime: SIGNED_AT });
  };

  const regular = readFileSync(`${STAMP_FONT_DIR}/LiberationSans-Regular.ttf`);
  const bold = readFileSync(`${STAMP_FONT_DIR}/LiberationSans-Bold.ttf`);
  const signpdf = new SignPdf();
  // node-forge refuses pkijs's constructed OCTET STRINGs (openssl and @libpdf/core read them):
  // the same key and certificate, re-exported by openssl.
  const pem = execFileSync('openssl', ['pkcs12', '-passin', 'env:P12_PASSWORD', '-nodes'], {
    input: p12,
    env: { ...process.env, P12_PASSWORD: password },
  });
  const p12Buffer = execFileSync('openssl', ['pkcs12', '-export', '-passout', 'env:P12_PASSWORD'], {
    input: pem,
    env: { ...process.env, P12_PASSWORD: password },
  });
  // The same drawing with pdf-lib: two PNGs and four texts at the places, then an audit page of
  // as many lines as docpipe's (about 40), then @signpdf's placeholder and signature.
  const baseline = async () => {
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    doc.registerFontkit(fontkit);
    const font = await doc.embedFont(regular, { subset: true });
    const heading = await doc.embedFont(bold, { subset: true });
    const page = doc.getPage(1);
    for (const stamp of stamps(png)) {
      const { x, y, width, height } = stamp.place.rect;
      if (stamp.png) {
        const image = await doc.embedPng(stamp.png);
        const scale = Math.min(width / image.width, height / image.height);
        page.drawImage(image, { x, y, width: image.width * scale, height: image.height * scale });
      } else page.drawText(stamp.text ?? '', { x, y: y + 3, size: 10, font });
    }
    const audit = doc.addPage([595.28, 841.89]);
    audit.drawText('Revisionsspor', { x: 56, y: 770, size: 16, font: heading });
    for (let l = 0; l < 40; l++)
      audit.drawText(
        `${AUDIT.recipients[l % 2]!.name}: ${AUDIT.recipients[l % 2]!.userAgent}`.slice(0, 90),
        {
          x: 56,
          y: 740 - l * 16,
          size: 9,
          font,
        },
      );
    pdflibAddPlaceholder({
      pdfDoc: doc,
      reason: 'Sealed',
      contactInfo: '',
      name: 'docpipe',
      location: '',
      signingTime: SIGNED_AT,
      signatureLength: 12288,
    });
    const bytes = Buffer.from(await doc.save({ useObjectStreams: false }));
    // @signpdf's P12 signer reads its file once: a new one for each document.
    return signpdf.sign(bytes, new ForgeP12Signer(p12Buffer, { passphrase: password }), SIGNED_AT);
  };

  const warmup = Math.min(10, rounds);
  const docpipeStats = await measureCpu(rounds, docpipe, warmup);
  const baselineStats = await measureCpu(Math.max(10, Math.floor(rounds / 2)), baseline, 3);
  return [
    {
      name: 'seal: 2-page PDF, 2 signatures, audit page, PAdES B-B (CPU ms)',
      docpipe: docpipeStats,
      baseline: { name: 'pdf-lib + @signpdf (P12, node-forge)', stats: baselineStats },
      target: 'p50 <= 150 ms',
    },
  ];
}
