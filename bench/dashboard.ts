/**
 * Issue 33's dashboard targets, against a real `docpipe serve` (bench/cases-stack.ts):
 *
 * - every dashboard page answers in at most 30 ms p50 with 100,000 cases and 1,000 webhook runs
 *   in the company (the cases written straight into PostgreSQL as cases-list.ts writes them; the
 *   runs as deliveries with one attempt each);
 * - the first page load costs at most 100 KB of script and style together, as sent compressed
 *   (brotli, which every browser asks for);
 * - one log-in's password check costs 30 to 100 ms of CPU (argon2id, docpipe's parameters).
 *
 * A page's time is measured by the client over loopback, one request at a time, with the
 * session cookie of an admin: server time plus well under a millisecond of loopback.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { hashPassword, SessionStore, verifyPassword } from '../src/service/accounts/index.js';
import type { Database } from '../src/service/db/index.js';
import { percentiles } from './cases-caller.js';
import { seedCases } from './cases-list.js';
import type { CasesStack } from './cases-stack.js';

export interface DashboardRow {
  name: string;
  path: string;
  status: number;
  p50: number;
  p95: number;
}

export interface DashboardReport {
  cases: number;
  runs: number;
  pages: DashboardRow[];
  /** Script and style of the first page, compressed as sent. */
  firstLoadBytes: number;
  assets: { url: string; bytes: number; encoding: string }[];
}

/** The pages every admin opens; a webhook's own page (with its recent runs) is added once made. */
const PAGES: readonly { name: string; path: string }[] = [
  { name: 'home', path: '/dashboard' },
  { name: 'cases', path: '/dashboard/cases' },
  { name: 'API keys', path: '/dashboard/keys' },
  { name: 'webhooks', path: '/dashboard/webhooks' },
  { name: 'members', path: '/dashboard/members' },
  { name: 'settings', path: '/dashboard/settings' },
  { name: 'new case', path: '/dashboard/cases/new' },
  { name: 'web-flows', path: '/dashboard/flows' },
  { name: 'credits', path: '/dashboard/credits' },
  { name: 'account', path: '/dashboard/account' },
  { name: 'account security', path: '/dashboard/account/security' },
  { name: 'settings: folders', path: '/dashboard/settings/folders' },
  { name: 'settings: presets', path: '/dashboard/settings/presets' },
  { name: 'settings: message templates', path: '/dashboard/settings/templates' },
  { name: 'settings: forms', path: '/dashboard/settings/forms' },
];

export async function dashboardPages(
  stack: CasesStack,
  options: { cases: number; runs: number; requests: number },
): Promise<DashboardReport> {
  await seedCases(stack, options.cases);
  const webhookId = await seedRuns(stack, options.runs);
  const cookie = await adminCookie(stack);
  const get = async (path: string) => {
    const started = performance.now();
    const res = await fetch(`${stack.url}${path}`, {
      headers: { cookie, 'accept-encoding': 'br, gzip' },
      redirect: 'manual',
    });
    const body = await res.text();
    return { ms: performance.now() - started, status: res.status, body };
  };
  const pages = [
    ...PAGES,
    { name: "a webhook's recent runs", path: `/dashboard/webhooks/${webhookId}` },
  ];
  const rows: DashboardRow[] = [];
  for (const page of pages) {
    // Warm: the first request of a route compiles its schema and fills the connection pool.
    let last = await get(page.path);
    const times: number[] = [];
    for (let i = 0; i < options.requests; i++) {
      last = await get(page.path);
      times.push(last.ms);
    }
    const { p50, p95 } = percentiles(times);
    rows.push({ ...page, status: last.status, p50, p95 });
  }
  const home = await get('/dashboard');
  const urls = [...home.body.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  const assets: DashboardReport['assets'] = [];
  for (const url of urls) {
    const res = await fetch(`${stack.url}${url}`, { headers: { 'accept-encoding': 'br, gzip' } });
    const bytes = (await res.arrayBuffer()).byteLength;
    assets.push({ url, bytes, encoding: res.headers.get('content-encoding') ?? 'identity' });
  }
  // fetch decodes the body; the bytes sent are the Content-Length of the encoded answer.
  for (const asset of assets) {
    const res = await fetch(`${stack.url}${asset.url}`, {
      method: 'HEAD',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    const sent = Number(res.headers.get('content-length'));
    if (sent > 0) asset.bytes = sent;
  }
  return {
    cases: options.cases,
    runs: options.runs,
    pages: rows,
    firstLoadBytes: assets.reduce((sum, a) => sum + a.bytes, 0),
    assets,
  };
}

/** A webhook of the company with `count` deliveries, one attempt each, over the last days. */
async function seedRuns(stack: CasesStack, count: number): Promise<string> {
  const webhook = await stack.db
    .insertInto('webhooks')
    .values({
      company_id: stack.company,
      url: 'https://hooks.bench.example/docpipe',
      headers: '{}',
      triggers: JSON.stringify(['case.created', 'case.signed']),
      secret: randomUUID(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const now = Date.now();
  for (let from = 0; from < count; from += 500) {
    const deliveries: Insertable<Database['webhook_deliveries']>[] = [];
    const attempts: Insertable<Database['webhook_attempts']>[] = [];
    for (let i = from; i < Math.min(count, from + 500); i++) {
      const id = randomUUID();
      const at = new Date(now - i * 60_000);
      deliveries.push({
        id,
        company_id: stack.company,
        webhook_id: webhook.id,
        event_id: randomUUID(),
        trigger: i % 3 === 0 ? 'case.signed' : 'case.created',
        body: JSON.stringify({ trigger: 'case.created', case: { id: randomUUID() } }),
        status: i % 20 === 0 ? 'failed' : 'succeeded',
        attempts: 1,
        last_status: i % 20 === 0 ? 500 : 200,
        created_at: at,
        updated_at: at,
      });
      attempts.push({
        delivery_id: id,
        attempt: 1,
        started_at: at,
        duration_ms: 40 + (i % 50),
        status: i % 20 === 0 ? 500 : 200,
        error: null,
        response: i % 20 === 0 ? 'upstream failed' : 'ok',
      });
    }
    await stack.db.insertInto('webhook_deliveries').values(deliveries).execute();
    await stack.db.insertInto('webhook_attempts').values(attempts).execute();
  }
  return webhook.id;
}

/** The company's user as an admin with a login and a live session, as after a log-in. */
async function adminCookie(stack: CasesStack): Promise<string> {
  const login = await stack.db
    .insertInto('logins')
    .values({ email: stack.user.email, name: stack.user.name, email_confirmed_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  await stack.db
    .updateTable('users')
    .set({ login_id: login.id, admin: true })
    .where('id', '=', stack.user.id)
    .execute();
  const session = await new SessionStore(stack.db).create({
    loginId: login.id,
    userId: stack.user.id,
  });
  return `docpipe_session=${session.token}`;
}

/** A row of the benchmark table: a p50 target, or a budget in bytes written as its note. */
export interface DashboardBenchRow {
  name: string;
  docpipe: { n: number; p50: number; p95: number; mean: number };
  target: string;
  meets: boolean;
}

/**
 * `npm run bench` (and `node dist/bench/run.js dashboard [--quick]`): the dashboard's pages on a
 * stack of their own, as table rows. Quick: 10,000 cases and 100 runs.
 */
export async function runDashboard(
  root: string,
  quick: boolean,
): Promise<{
  rows: DashboardBenchRow[];
  report: DashboardReport;
}> {
  const { startCasesStack } = await import('./cases-stack.js');
  const stack = await startCasesStack({ root, officeProcesses: 1 });
  try {
    const report = await dashboardPages(stack, {
      cases: quick ? 10_000 : 100_000,
      runs: quick ? 100 : 1_000,
      requests: quick ? 20 : 100,
    });
    const rows: DashboardBenchRow[] = report.pages.map((p) => ({
      name: `dashboard ${p.name} (${p.path.replace(/[0-9a-f-]{36}/, ':id')}; ${report.cases} cases, ${report.runs} runs; HTTP ${p.status})`,
      docpipe: { n: 0, p50: p.p50, p95: p.p95, mean: p.p50 },
      target: 'p50 <= 30 ms',
      meets: p.status === 200 && p.p50 <= 30,
    }));
    const password = await passwordCheckCpu(quick ? 10 : 40);
    rows.push({
      name: 'log-in password check (argon2id, docpipe parameters): CPU per verification, ms',
      docpipe: password,
      target: '30 to 100 ms CPU',
      meets: password.p50 >= 30 && password.p50 <= 100,
    });
    const kb = report.firstLoadBytes / 1024;
    rows.push({
      name: `dashboard first load: script and style, compressed (${report.assets.map((a) => `${a.url.split('?')[0]} ${(a.bytes / 1024).toFixed(1)} KB ${a.encoding}`).join(', ')})`,
      docpipe: { n: 1, p50: kb, p95: kb, mean: kb },
      target: '<= 100 KB',
      meets: kb <= 100,
    });
    return { rows, report };
  } finally {
    await stack.stop();
  }
}

/**
 * The CPU one log-in's password check costs: argon2id verifications of docpipe's own hash, one
 * at a time, each timed by the process's CPU clock (the addon hashes on libuv's threads, which
 * process.cpuUsage counts), not the wall clock.
 */
async function passwordCheckCpu(rounds: number): Promise<DashboardBenchRow['docpipe']> {
  const stored = await hashPassword('a long passphrase for the benchmark');
  await verifyPassword(stored, 'warm-up');
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const before = process.cpuUsage();
    await verifyPassword(stored, `wrong ${i}`);
    const used = process.cpuUsage(before);
    times.push((used.user + used.system) / 1000);
  }
  return percentiles(times);
}
