import { describe, expect, it } from 'vitest';
import { sniff, sniffBytes } from '../../src/formats/sniff/index.js';
import { buildCfb } from '../helpers/zip-patch.js';

const pdf = (trailer: string, extra = '') =>
  Buffer.from(
    `%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<</Type/Catalog/Pages 2 0 R>>\nendobj\n${extra}xref\n0 1\n0000000000 65535 f \ntrailer\n${trailer}\nstartxref\n9\n%%EOF\n`,
    'latin1',
  );

describe('sniff: PDF', () => {
  it('accepts a PDF with its header at offset 0', () => {
    expect(sniffBytes(pdf('<</Size 3/Root 1 0 R>>'))).toEqual({ kind: 'pdf', version: '1.7' });
  });

  it('refuses an encryption dictionary in the trailer, whatever the password', () => {
    expect(sniffBytes(pdf('<</Size 3/Root 1 0 R/Encrypt 5 0 R>>'))).toMatchObject({
      kind: 'unsupported',
      reason: 'encrypted',
    });
    expect(
      sniffBytes(pdf('<<\n/Size 3\n/Encrypt <</Filter/Standard/V 5/R 6>>\n/Root 1 0 R>>')),
    ).toMatchObject({ reason: 'encrypted' });
  });

  it('refuses an encryption dictionary in a cross-reference stream', () => {
    const xrefStream =
      '7 0 obj\n<</Type/XRef/Size 8/W[1 2 1]/Root 1 0 R/Encrypt 6 0 R/Length 0>>\nstream\n\nendstream\nendobj\n';
    expect(sniffBytes(pdf('<</Size 3/Root 1 0 R>>', xrefStream))).toMatchObject({
      reason: 'encrypted',
    });
  });

  it('does not mistake /EncryptMetadata or an /Encrypt outside a trailer for encryption', () => {
    const other = '3 0 obj\n<</Type/Metadata/EncryptMetadata false/Note/Encrypt>>\nendobj\n';
    expect(sniffBytes(pdf('<</Size 3/Root 1 0 R>>', other))).toMatchObject({ kind: 'pdf' });
  });

  it('refuses junk or a byte order mark before the header, and a missing end', () => {
    expect(
      sniffBytes(Buffer.concat([Buffer.from('garbage line\n'), pdf('<</Size 3/Root 1 0 R>>')])),
    ).toMatchObject({
      reason: 'damaged',
      message: expect.stringContaining('offset 13'),
    });
    expect(
      sniffBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), pdf('<</Size 3>>')])),
    ).toMatchObject({ reason: 'damaged' });
    const cut = pdf('<</Size 3/Root 1 0 R>>');
    expect(sniffBytes(cut.subarray(0, cut.length - 8))).toMatchObject({ reason: 'damaged' });
  });
});

describe('sniff: Compound File (OLE2)', () => {
  it('refuses encrypted OOXML in a CFB container as encrypted', () => {
    const cfb = buildCfb([{ name: 'EncryptionInfo' }, { name: 'EncryptedPackage' }]);
    expect(sniffBytes(cfb)).toMatchObject({ kind: 'unsupported', reason: 'encrypted' });
  });

  it('tells a password-protected .doc from a plain one', () => {
    const fib = (flags: number) => {
      const b = Buffer.alloc(512);
      b.writeUInt16LE(0xa5ec, 0);
      b.writeUInt16LE(flags, 0x0a);
      return b;
    };
    expect(sniffBytes(buildCfb([{ name: 'WordDocument', data: fib(0x0100) }]))).toMatchObject({
      reason: 'encrypted',
    });
    expect(sniffBytes(buildCfb([{ name: 'WordDocument', data: fib(0) }]))).toMatchObject({
      reason: 'legacy-office',
    });
  });

  it('calls a broken CFB damaged', () => {
    const cfb = buildCfb([{ name: 'WordDocument' }]);
    expect(sniffBytes(cfb.subarray(0, 600))).toMatchObject({ reason: 'damaged' });
  });
});

describe('sniff: everything else', () => {
  it('names empty, RTF, XML with DOCTYPE, HTML and images', async () => {
    expect(sniffBytes(Buffer.alloc(0))).toMatchObject({ reason: 'empty' });
    expect(sniffBytes(Buffer.from('{\\rtf1\\ansi hello}'))).toMatchObject({ reason: 'rtf' });
    expect(sniffBytes(Buffer.from('<?xml version="1.0"?><!DOCTYPE a><a/>'))).toMatchObject({
      reason: 'xml-doctype',
    });
    expect(sniffBytes(Buffer.from('<!DOCTYPE html><html><body>x</body></html>'))).toMatchObject({
      reason: 'unknown',
    });
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    expect(await sniff(png)).toMatchObject({
      reason: 'unknown',
      message: expect.stringContaining('image/png'),
    });
  });
});
