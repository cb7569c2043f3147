/**
 * What the case benchmarks send: W1 (the sample lease, as every other benchmark) with its
 * fixture's values, two recipients, and a PDF made from W1 by the stack itself. Each request gets
 * a value of its own (`contract_no`, or a PDF comment), so that no render is answered from the
 * render cache: every case is a real conversion or a real PDF check, and the same holds for the
 * convert baseline.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Caller } from './cases-caller.js';

export type Tag = { tag: string; value: unknown; type?: string; format?: string };

export interface W1 {
  docx: Buffer;
  base64: string;
  tags: Tag[];
}

export function loadW1(root: string): W1 {
  const docx = readFileSync(join(root, 'templates/lease/template.docx'));
  const tags = JSON.parse(
    readFileSync(join(root, 'templates/lease/fixtures/basic.tags.json'), 'utf8'),
  ) as Tag[];
  return { docx, base64: docx.toString('base64'), tags };
}

/** W1's values with a `contract_no` of its own: a document no earlier request rendered. */
export function distinctTags(w1: W1, value: string): Tag[] {
  return [
    ...w1.tags.filter((t) => t.tag !== 'contract_no'),
    { tag: 'contract_no', value, type: 'text' },
  ];
}

const RECIPIENTS = [
  { name: 'Ann Tenant', email: 'ann@tenant.example' },
  { name: 'Bob Landlord', email: 'bob@landlord.example' },
];

/** `POST /v3/api/cases`: one W1 .docx as base64 `content`, two recipients. */
export function docxCaseBody(w1: W1, value: string): string {
  return JSON.stringify({
    title: `Lease ${value}`,
    referenceId: value,
    tags: distinctTags(w1, value),
    recipients: RECIPIENTS,
    documents: [{ name: 'lease.docx', content: w1.base64 }],
  });
}

/** `POST /api/v2/document/convert`: the same W1 with the same values. */
export function convertBody(w1: W1, value: string): string {
  return JSON.stringify({
    documents: [{ file: w1.base64, name: 'Lease' }],
    tags: distinctTags(w1, value),
  });
}

/**
 * A PDF of its own: `pdf` with a comment line after its end. Readers take bytes after `%%EOF`
 * as an incremental update's place and ignore a comment; the bytes, and so the render's key,
 * differ.
 */
export function distinctPdf(pdf: Buffer, value: string): string {
  return Buffer.concat([pdf, Buffer.from(`\n%bench ${value}\n`)]).toString('base64');
}

/** `POST /v3/api/cases` with one PDF document and two recipients. */
export function pdfCaseBody(pdf: Buffer, value: string): string {
  return JSON.stringify({
    title: `Signed lease ${value}`,
    referenceId: value,
    recipients: RECIPIENTS,
    documents: [{ name: 'lease.pdf', content: distinctPdf(pdf, value) }],
  });
}

/** W1 rendered to PDF by the stack (2 pages, about 30 KB): the PDF cases' document. */
export async function w1Pdf(caller: Caller, w1: W1): Promise<Buffer> {
  const answer = await caller.send('POST', '/api/v2/document/convert', convertBody(w1, 'pdf'));
  if (answer.status !== 200)
    throw new Error(`convert for the PDF fixture: ${answer.status} ${answer.body}`);
  const url = (JSON.parse(answer.body) as { documents: { file: string }[] }).documents[0]!.file;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`download of the PDF fixture: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}
