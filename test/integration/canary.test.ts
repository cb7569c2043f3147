import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PerCallConverter,
  OfficePool,
  canIsolateNetwork,
  type Converter,
  type NetworkIsolation,
} from '../../src/render/convert/index.js';
import { neutralizeExternalReferences } from '../../src/document/harden/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { corpusDir } from '../helpers/corpus.js';
import { pdfText } from '../helpers/pdf-text.js';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
let server: Server;
let requests: string[] = [];
let base = '';
let dir = '';
const secret = `SECRET-CANARY-${Math.random().toString(36).slice(2)}`;

/** A 16x16 opaque red PNG, so that an embedded image would show up as an image in the PDF. */
function png(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(16, 0);
  ihdr.writeUInt32BE(16, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const rows = Buffer.concat(
    Array.from({ length: 16 }, () =>
      Buffer.concat([Buffer.from([0]), Buffer.alloc(48, 0).fill(Buffer.from([255, 0, 0]))]),
    ),
  );
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const field = (instr: string) =>
  `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ${instr} </w:instrText></w:r>` +
  `<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>cached result</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`;

const linkedImage = (rid: string) =>
  `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" distT="0" distB="0" distL="0" distR="0">` +
  `<wp:extent cx="952500" cy="952500"/><wp:docPr id="${rid.length}" name="Picture ${rid}"/>` +
  `<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">` +
  `<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="0" name="img"/><pic:cNvPicPr/></pic:nvPicPr>` +
  `<pic:blipFill><a:blip r:link="${rid}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
  `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="952500" cy="952500"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic>` +
  `</a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;

/** Every way a .docx can point outside itself that we know LibreOffice might follow. */
function canaryDocx(token: string): Buffer {
  const at = `${base}/${token}`;
  const secretFile = join(dir, 'secret.txt');
  const secretImage = join(dir, 'secret.png');
  return buildDocx({
    body: [
      para('Canary document.'),
      linkedImage('rIdHttpImage'),
      linkedImage('rIdFileImage'),
      field(`INCLUDEPICTURE "${at}/includepicture.png" \\d`),
      field(`INCLUDETEXT "${at}/includetext.docx"`),
      field(`INCLUDETEXT "${secretFile}"`),
      field(`INCLUDEPICTURE "file://${secretImage}" \\d`),
      field(`LINK Excel.Sheet.8 "${at}/link.xls" "Sheet1!R1C1" \\a \\t`),
      field(`HYPERLINK "${at}/hyperlink"`),
    ].join(''),
    rels: [
      `<Relationship Id="rIdHttpImage" Type="${REL}/image" Target="${at}/image.png" TargetMode="External"/>`,
      `<Relationship Id="rIdFileImage" Type="${REL}/image" Target="file://${secretImage}" TargetMode="External"/>`,
      `<Relationship Id="rIdSettings" Type="${REL}/settings" Target="settings.xml"/>`,
    ],
    extra: [
      {
        name: 'word/settings.xml',
        data: `<?xml version="1.0" encoding="UTF-8"?><w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="${REL}"><w:attachedTemplate r:id="rIdTpl"/><w:updateFields w:val="true"/></w:settings>`,
        contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml',
      },
      {
        name: 'word/_rels/settings.xml.rels',
        data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdTpl" Type="${REL}/attachedTemplate" Target="${at}/template.dotx" TargetMode="External"/></Relationships>`,
      },
    ],
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'docpipe-canary-'));
  writeFileSync(join(dir, 'secret.txt'), secret);
  writeFileSync(join(dir, 'secret.png'), png());
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (process.env.DOCPIPE_CANARY_DEBUG)
      process.stderr.write(`canary: ${req.method} ${req.url}\n`);
    res.writeHead(200, { 'content-type': req.url?.endsWith('.png') ? 'image/png' : 'text/plain' });
    res.end(req.url?.endsWith('.png') ? png() : secret);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const imagesIn = (pdf: Buffer) =>
  (pdf.toString('latin1').match(/\/Subtype\s*\/Image/g) ?? []).length;

describe('canary: LibreOffice fetches nothing', () => {
  it('control: an unhardened LibreOffice does reach out (so this test can fail)', () => {
    requests = [];
    const work = mkdtempSync(join(tmpdir(), 'docpipe-canary-control-'));
    try {
      writeFileSync(join(work, 'canary.docx'), canaryDocx('control'));
      execFileSync(
        '/usr/lib/libreoffice/program/soffice',
        [
          '--headless',
          `-env:UserInstallation=file://${work}/profile`,
          '--convert-to',
          'pdf',
          '--outdir',
          work,
          join(work, 'canary.docx'),
        ],
        { stdio: 'ignore', timeout: 120_000 },
      );
      const pdf = readFileSync(join(work, 'canary.pdf'));
      // A default profile fetches the linked image or embeds the local one.
      expect(requests.length + imagesIn(pdf)).toBeGreaterThan(0);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  // The pipeline neutralizes external references and converts in a namespace when it can; each
  // layer is tested on its own here: the namespace with the raw document, the profile with the
  // neutralized one.
  const layers: [string, NetworkIsolation, boolean][] = [
    ['a network namespace, document as given', 'namespace', false],
    ['the hardened profile, external references neutralized', 'profile', true],
    ['all layers together', 'namespace', true],
  ];
  // Both converters: each runs LibreOffice hardened in its own way (a warm pool over UNO, a cold
  // soffice per document through workers/soffice-hardened.sh).
  const converters: [string, (network: NetworkIsolation) => Promise<Converter>][] = [
    ['office-pool', (network) => OfficePool.start({ processes: 1, network })],
    ['libreoffice-convert', (network) => PerCallConverter.start({ network })],
  ];
  const cases = converters.flatMap(([converter, start]) =>
    layers.map(([name, network, neutralize]) => ({ converter, start, name, network, neutralize })),
  );
  for (const { converter, start, name, network, neutralize } of cases) {
    it(`${converter} with ${name}: no request, no local file in the PDF`, async () => {
      if (network === 'namespace' && !(await canIsolateNetwork())) {
        // On hosts without namespaces the profile layer is the whole proof, tested below.
        expect(await canIsolateNetwork()).toBe(false);
        return;
      }
      requests = [];
      const pool = await start(network);
      try {
        const token = `${converter}-${network}-${neutralize ? 'neutralized' : 'raw'}`;
        const docx = neutralize
          ? neutralizeExternalReferences(canaryDocx(token)).docx
          : canaryDocx(token);
        const pdf = await pool.convert({ docx, field: 'documents[0]' });
        expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
        // Give any late, asynchronous fetch the chance to arrive. Only this document's URLs count:
        // an earlier (unhardened) run may still have a request in flight.
        await new Promise((r) => setTimeout(r, 1000));
        expect(requests.filter((r) => r.includes(`/${token}/`))).toEqual([]);
        expect(pdfText(pdf)).not.toContain(secret);
        expect(imagesIn(pdf)).toBe(0);
      } finally {
        await pool.close();
      }
    });
  }

  it('neutralizes every external relationship but hyperlinks', () => {
    const { neutralized } = neutralizeExternalReferences(canaryDocx('listing'));
    expect(neutralized.map((n) => `${n.part} ${n.id}`).sort()).toEqual([
      'word/_rels/document.xml.rels rIdFileImage',
      'word/_rels/document.xml.rels rIdHttpImage',
      'word/_rels/settings.xml.rels rIdTpl',
    ]);
  });

  it('a macro-enabled document fed straight to the office (sniff would refuse it) converts without running anything', async () => {
    const docm = readFileSync(join(corpusDir(), 'other/tika__testWORD_macros.docm'));
    requests = [];
    const pool = await OfficePool.start({ processes: 1, conversionTimeoutMs: 20_000 });
    try {
      // A macro that ran headless and asked anything would hang until the deadline.
      const pdf = await pool.convert({ docx: docm, field: 'documents[0]' });
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pool.stats().restarts).toBe(0);
      expect(requests.filter((r) => !r.includes('/control/'))).toEqual([]);
    } finally {
      await pool.close();
    }
  });
});
