/**
 * Issue 22's second case target: a case whose documents are PDFs answers in at most 15 ms (p50).
 * One request at a time, after a warm-up, each with a PDF of its own bytes (W1 as PDF, with a
 * comment of its own after its end: cases-fixtures.ts), so that every one is checked and stored
 * as a new document, never answered from the render cache. The time is the caller's: from the
 * request's first byte out to the answer's last byte in.
 */
import { Caller, percentiles } from './cases-caller.js';
import { distinctPdf, pdfCaseBody } from './cases-fixtures.js';
import type { CasesStack } from './cases-stack.js';

export interface PdfLatencyOptions {
  cases: number;
  warmup: number;
}

/** The same PDF by another path, one request at a time: where a PDF case's time goes. */
export interface LatencyBeside {
  name: string;
  p50: number;
  p95: number;
}

export interface PdfLatency {
  /** The same PDF through convert (the queue's round trip), and a case whose document is a URL. */
  beside: LatencyBeside[];
  p50: number;
  p95: number;
  mean: number;
  n: number;
  pdfBytes: number;
  failed: number;
  firstFailure?: string;
}

export async function casesPdfLatency(
  stack: CasesStack,
  pdf: Buffer,
  options: PdfLatencyOptions,
): Promise<PdfLatency> {
  const caller = new Caller(stack.url, stack.key, 1);
  const one = (name: string) => (i: number) => ({
    method: 'POST' as const,
    path: '/v3/api/cases',
    body: pdfCaseBody(pdf, `${name}-${i}`),
  });
  try {
    const convert = (name: string) => (i: number) => ({
      method: 'POST' as const,
      path: '/api/v2/document/convert',
      body: JSON.stringify({
        documents: [{ file: distinctPdf(pdf, `${name}-${i}`), name: 'Lease' }],
      }),
    });
    // The case without the pipeline: its document by reference, never fetched.
    const byUrl = (name: string) => (i: number) => ({
      method: 'POST' as const,
      path: '/v3/api/cases',
      body: JSON.stringify({
        ...(JSON.parse(pdfCaseBody(pdf, `${name}-${i}`)) as object),
        documents: [{ name: 'lease.pdf', url: 'https://files.example/lease.pdf' }],
      }),
    });
    const warm = [
      await caller.run(options.warmup, 1, one('warm-pdf'), 201),
      await caller.run(options.warmup, 1, convert('warm-convert'), 200),
      await caller.run(options.warmup, 1, byUrl('warm-url'), 201),
    ];
    const run = await caller.run(options.cases, 1, one('pdf'), 201);
    const others = [
      {
        name: 'POST /api/v2/document/convert, the same PDF',
        batch: await caller.run(options.cases, 1, convert('convert'), 200),
      },
      {
        name: 'POST /v3/api/cases, its document a `url` (no render)',
        batch: await caller.run(options.cases, 1, byUrl('url'), 201),
      },
    ];
    const stats = percentiles(run.times);
    const all = [...warm, run, ...others.map((o) => o.batch)];
    const firstFailure = all.find((b) => b.firstFailure)?.firstFailure;
    return {
      beside: others.map((o) => {
        const s = percentiles(o.batch.times);
        return { name: o.name, p50: s.p50, p95: s.p95 };
      }),
      ...stats,
      pdfBytes: pdf.length,
      failed: all.reduce((n, b) => n + b.failed, 0),
      ...(firstFailure !== undefined ? { firstFailure } : {}),
    };
  } finally {
    caller.close();
  }
}
