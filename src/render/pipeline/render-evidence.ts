import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../base/paths/index.js';
import { normalizedPdfHash } from '../../formats/pdf-bytes/index.js';
import { canonicalJson } from './cache-key.js';
import type { RenderEvidence } from './render-types.js';

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** SHA-256 of the values' canonical JSON (cache-key.ts canonicalJson); null for no values. */
export function valuesSha256(tags: unknown): string | null {
  if (tags === undefined || tags === null) return null;
  if (Array.isArray(tags) && tags.length === 0) return null;
  return sha256Hex(canonicalJson(tags));
}

export function renderEvidence(facts: {
  pdf: Uint8Array;
  sha256: string;
  input: Uint8Array;
  docx: boolean;
  tags: unknown;
  fonts: string[];
  pages: number;
}): RenderEvidence {
  const producers = producersOf(facts.pdf);
  return {
    sha256: facts.sha256,
    normalizedSha256: normalizedPdfHash(facts.pdf),
    templateSha256: sha256Hex(facts.input),
    valuesSha256: facts.docx ? valuesSha256(facts.tags) : null,
    fonts: facts.fonts,
    pages: facts.pages,
    officeVersion: facts.docx ? (producers.find((p) => p.startsWith('LibreOffice')) ?? null) : null,
    docpipeVersion:
      producers.map((p) => DOCPIPE_PRODUCER.exec(p)?.[1]).find((v) => v !== undefined) ??
      docpipeVersion(),
  };
}

const DOCPIPE_PRODUCER = /^docpipe (\S+)/;
const PRODUCER = /\/Producer\s*(?:<([0-9A-Fa-f\s]*)>|\(((?:[^()\\]|\\.)*)\))/g;

/**
 * Every /Producer of the PDF's information dictionaries, oldest first: LibreOffice's own is
 * still in the file after docpipe's incremental update stamps its own (and after the markers'
 * removal), and both are written uncompressed. A producer of a whole rewrite loses the first.
 */
export function producersOf(pdf: Uint8Array): string[] {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  const out: string[] = [];
  for (const m of text.matchAll(PRODUCER)) {
    const value = m[1] !== undefined ? hexText(m[1]) : literalText(m[2] ?? '');
    if (value) out.push(value);
  }
  return out;
}

function hexText(hex: string): string {
  const clean = hex.replace(/\s+/g, '');
  const bytes = Buffer.from(clean.length % 2 ? `${clean}0` : clean, 'hex');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const body = Buffer.from(bytes.subarray(2, 2 + ((bytes.length - 2) & ~1)));
    body.swap16();
    return body.toString('utf16le');
  }
  return bytes.toString('latin1');
}

function literalText(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}

let version: string | undefined;
/** package.json's version. */
export function docpipeVersion(): string {
  version ??= (
    JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }
  ).version;
  return version;
}
