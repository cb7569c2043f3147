/**
 * Issue 37's growth in cases: a v3 case with 1, 10 and 50 recipients (one PDF document), and
 * with 1, 5 and 20 PDF documents (two recipients), on one real stack (cases-stack.ts: `docpipe
 * serve` and `docpipe worker` processes, embedded PostgreSQL, private Redis). Per size, cases are
 * made one at a time after a warm-up, each with PDFs of their own bytes (cases-fixtures.ts), so
 * that every document is checked and stored, never answered from the render cache.
 *
 * Two times per case, from the request's first byte: `create`, until the 201 answer (the case
 * and its documents stored, its `case.created` event written), and `sent`, until every
 * recipient's invitation is in the messages ledger as sent (the worker's delivery: outbox relay,
 * events worker, the e-mail channel, here .eml files in the data folder). The next case is made
 * only once the last one is sent, so that each case is timed alone.
 */
import { loadavg } from 'node:os';
import { Caller, percentiles } from './cases-caller.js';
import { loadW1, distinctPdf, w1Pdf } from './cases-fixtures.js';
import { startCasesStack, treeCpuMs, type CasesStack } from './cases-stack.js';
import type { Figure, Note, Series } from './report/results.js';

const GROUP = 'cases-growth';
/** How long a case may take to be sent before the benchmark gives up on it. */
const SENT_TIMEOUT_MS = 60_000;
const POLL_MS = 5;

interface Size {
  id: string;
  label: string;
  recipients: number;
  documents: number;
}

const SIZES: Size[] = [
  ...[1, 10, 50].map((n) => ({
    id: `recipients-${n}`,
    label: `${n} recipient${n > 1 ? 's' : ''}, 1 document`,
    recipients: n,
    documents: 1,
  })),
  ...[1, 5, 20].map((n) => ({
    id: `documents-${n}`,
    label: `${n} document${n > 1 ? 's' : ''}, 2 recipients`,
    recipients: 2,
    documents: n,
  })),
];

interface SizeResult {
  size: Size;
  create: ReturnType<typeof percentiles>;
  sent: ReturnType<typeof percentiles>;
  /** CPU ms per case of serve, worker, PostgreSQL and Redis (the poll's queries included). */
  cpuMs: number;
  /** The same, by process: where a case's CPU goes. */
  cpuParts: CpuParts;
  bodyBytes: number;
}

type CpuParts = Record<'serve' | 'worker' | 'postgres' | 'redis', number>;

/** CPU (ms) each part of the stack has used so far: what a shared machine's load disturbs least. */
function stackCpu(stack: CasesStack): CpuParts {
  return {
    serve: treeCpuMs(stack.servePid),
    worker: treeCpuMs(stack.workerPid),
    postgres: treeCpuMs(stack.postgresPids()[0]!),
    redis: treeCpuMs(stack.redisPid),
  };
}

const total = (c: CpuParts) => c.serve + c.worker + c.postgres + c.redis;

function caseBody(pdf: Buffer, size: Size, value: string): string {
  return JSON.stringify({
    title: `Growth ${value}`,
    referenceId: value,
    recipients: Array.from({ length: size.recipients }, (_, i) => ({
      name: `Signer ${i + 1}`,
      email: `signer-${i + 1}@growth.example`,
    })),
    documents: Array.from({ length: size.documents }, (_, i) => ({
      name: `document-${i + 1}.pdf`,
      content: distinctPdf(pdf, `${value}-${i}`),
    })),
  });
}

/** Until every invitation of the case is sent (the ledger's rows), polled. */
async function untilSent(stack: CasesStack, caseId: string, recipients: number): Promise<void> {
  const until = Date.now() + SENT_TIMEOUT_MS;
  for (;;) {
    const row = await stack.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('case_id', '=', caseId)
      .where('kind', '=', 'invitation')
      .where('status', '=', 'sent')
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= recipients) return;
    if (Date.now() > until)
      throw new Error(
        `case ${caseId}: ${row.n} of ${recipients} invitations sent after ${SENT_TIMEOUT_MS} ms`,
      );
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

async function oneCase(
  stack: CasesStack,
  caller: Caller,
  body: string,
  recipients: number,
): Promise<{ create: number; sent: number }> {
  const started = performance.now();
  const answer = await caller.send('POST', '/v3/api/cases', body);
  const create = performance.now() - started;
  if (answer.status !== 201)
    throw new Error(`POST /v3/api/cases: ${answer.status} ${answer.body.slice(0, 500)}`);
  const id = (JSON.parse(answer.body) as { case: { id: string } }).case.id;
  await untilSent(stack, id, recipients);
  return { create, sent: performance.now() - started };
}

export async function casesGrowth(
  root: string,
  quick: boolean,
): Promise<{ figures: Figure[]; series: Series[]; notes: Note[] }> {
  const cases = quick ? 3 : 15;
  const warmup = quick ? 1 : 3;
  const load = [loadavg()[0]!];
  const stack = await startCasesStack({ root, officeProcesses: 1 });
  const caller = new Caller(stack.url, stack.key, 1);
  const results: SizeResult[] = [];
  try {
    const pdf = await w1Pdf(caller, loadW1(root));
    for (const size of SIZES) {
      for (let i = 0; i < warmup; i++)
        await oneCase(stack, caller, caseBody(pdf, size, `warm-${size.id}-${i}`), size.recipients);
      const create: number[] = [];
      const sent: number[] = [];
      let bodyBytes = 0;
      const cpuBefore = stackCpu(stack);
      for (let i = 0; i < cases; i++) {
        const body = caseBody(pdf, size, `${size.id}-${i}`);
        bodyBytes = Buffer.byteLength(body);
        const t = await oneCase(stack, caller, body, size.recipients);
        create.push(t.create);
        sent.push(t.sent);
      }
      const cpuAfter = stackCpu(stack);
      const per = (k: keyof CpuParts) => (cpuAfter[k] - cpuBefore[k]) / cases;
      const cpuParts = {
        serve: per('serve'),
        worker: per('worker'),
        postgres: per('postgres'),
        redis: per('redis'),
      };
      results.push({
        size,
        create: percentiles(create),
        sent: percentiles(sent),
        cpuMs: total(cpuParts),
        cpuParts,
        bodyBytes,
      });
      load.push(loadavg()[0]!);
    }
  } finally {
    caller.close();
    await stack.stop();
  }
  return report(results, load, quick);
}

function report(
  results: SizeResult[],
  load: number[],
  quick: boolean,
): { figures: Figure[]; series: Series[]; notes: Note[] } {
  const figures: Figure[] = [];
  for (const r of results) {
    figures.push(
      {
        id: `${GROUP}.${r.size.id}`,
        group: GROUP,
        name: `create a case, ${r.size.label} (until 201)`,
        unit: 'ms',
        value: r.create.p50,
        spread: { p50: r.create.p50, p95: r.create.p95, n: r.create.n },
      },
      {
        id: `${GROUP}.${r.size.id}.sent`,
        group: GROUP,
        name: `create a case, ${r.size.label}, until every invitation is sent`,
        unit: 'ms',
        value: r.sent.p50,
        spread: { p50: r.sent.p50, p95: r.sent.p95, n: r.sent.n },
      },
      {
        id: `${GROUP}.${r.size.id}.cpu`,
        group: GROUP,
        name: `create a case, ${r.size.label}: CPU of the stack per case`,
        unit: 'ms',
        value: r.cpuMs,
      },
    );
  }
  const line = (kind: 'recipients' | 'documents', which: 'create' | 'sent' | 'cpu') =>
    results
      .filter((r) => r.size.id.startsWith(kind))
      .map((r): [number, number] => [r.size[kind], which === 'cpu' ? r.cpuMs : r[which].p50]);
  const series: Series[] = [
    {
      kind: 'line',
      id: 'cases-growth-recipients',
      title: 'A case against its recipients (one PDF document)',
      xLabel: 'recipients',
      yLabel: 'ms (p50; CPU: per case)',
      lines: [
        { name: 'created (201)', points: line('recipients', 'create') },
        { name: 'every invitation sent', points: line('recipients', 'sent') },
        { name: 'CPU of the stack', points: line('recipients', 'cpu') },
      ],
    },
    {
      kind: 'line',
      id: 'cases-growth-documents',
      title: 'A case against its documents (PDFs, two recipients)',
      xLabel: 'documents',
      yLabel: 'ms (p50; CPU: per case)',
      lines: [
        { name: 'created (201)', points: line('documents', 'create') },
        { name: 'every invitation sent', points: line('documents', 'sent') },
        { name: 'CPU of the stack', points: line('documents', 'cpu') },
      ],
    },
  ];
  const round2 = (x: number) => Math.round(x * 100) / 100;
  const notes: Note[] = [
    {
      group: GROUP,
      name: 'growth in cases: how measured',
      text:
        `${results[0]?.create.n ?? 0} cases a size, one at a time, each after the last was sent; documents are W1 as PDF (2 pages), bytes of their own each; ` +
        `request bodies ${results.map((r) => `${r.size.id} ${Math.round(r.bodyBytes / 1024)} KB`).join(', ')}. ` +
        `CPU ms per case by process (serve/worker/postgres/redis): ${results.map((r) => `${r.size.id} ${[r.cpuParts.serve, r.cpuParts.worker, r.cpuParts.postgres, r.cpuParts.redis].map((x) => x.toFixed(0)).join('/')}`).join(', ')}. ` +
        `One stack (serve + worker with 1 office process, embedded PostgreSQL, Redis); invitations by e-mail to .eml files. ` +
        `1-minute load average at the start and after each size: ${load.map(round2).join(', ')}${quick ? ' (quick run)' : ''}.`,
    },
  ];
  return { figures, series, notes };
}
