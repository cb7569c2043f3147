/**
 * Issue 34's speed targets for the dashboard's case pages, against a real `docpipe serve`
 * (bench/cases-stack.ts, its own PostgreSQL):
 *
 * - the case list, a tab and a search included, answers within 30 ms p50 with 100,000 cases in
 *   the company;
 * - a case's page with 20 recipients and 10 documents answers within 40 ms p50.
 *
 * The cases are seeded with set-based SQL (INSERT ... SELECT over generate_series), spread over
 * the five states, six folders and a year of days, each with two recipients of their own name and
 * e-mail, so that a search must find a few cases among many rather than every one. Each page is
 * fetched over loopback one request at a time with a logged-in admin's session cookie; the
 * service function the list route calls (searchCases) is also timed alone, and its query's
 * EXPLAIN (ANALYZE, BUFFERS) is kept in the results, which is how the plans were chosen.
 */
import { randomUUID } from 'node:crypto';
import { CompiledQuery, sql, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { SessionStore } from '../src/service/accounts/index.js';
import { searchCases, type CaseSearch } from '../src/service/cases/case-search.js';
import { fillCaseSearchText } from '../src/service/db/migrations/0016-case-search-text.js';
import { percentiles } from './cases-caller.js';
import type { CasesStack } from './cases-stack.js';

export interface DashboardCasesRow {
  name: string;
  path: string;
  status: number;
  /** Cases on the page (list rows only). */
  returned?: number;
  p50: number;
  p95: number;
  /** searchCases alone, same search, through the benchmark's own connection pool. */
  service?: { p50: number; p95: number };
  target: number;
}

export interface DashboardCasesReport {
  cases: number;
  seedSeconds: number;
  rows: DashboardCasesRow[];
  /** EXPLAIN (ANALYZE, BUFFERS) of each list query, by row name. */
  plans: Record<string, string>;
}

const STATES = ['draft', 'open', 'signed', 'denied', 'expired'] as const;
const FOLDERS = 5;
const DISTRICTS = ['Nørrebro', 'Østerbro', 'Vesterbro', 'Amager', 'Valby'];

/**
 * `count` cases over the last 365 days: case i is made at an even step, its state by i % 100
 * (70% open, 15% draft, 10% signed, 4% denied, 1% expired), its folder i % 6 (the default and
 * five more), its title `Lease <i> <district>`, its reference `ref-<i>`, its recipients
 * `Tenant <i>` <tenant<i>@lease<i % 50>.example> and `Landlord <i % 500>` <landlord<i % 500>@owner.example>.
 */
export async function seedDashboardCases(stack: CasesStack, count: number): Promise<void> {
  const { db, company, defaultFolder, user, keyId } = stack;
  await sql`insert into folders (company_id, name)
    select ${company}, 'Folder ' || f from generate_series(1, ${FOLDERS}) f`.execute(db);
  const settings = JSON.stringify({ expiresInDays: 30, language: 'da', signingSchemas: ['draw'] });
  await sql`
    with folders_of as (
      select array_agg(id order by is_default desc, name) as ids from folders where company_id = ${company}
    )
    insert into cases (company_id, id, title, state, folder_id, reference_id, settings, language,
      signing_schemas, expires_at, active_group, sender_id, sender_name, sender_email,
      created_by_key, created_at, updated_at)
    select ${company}, gen_random_uuid(),
      'Lease ' || i || ' ' || (${sql.val(DISTRICTS)}::text[])[1 + i % 5],
      case when i % 100 < 70 then 'open' when i % 100 < 85 then 'draft'
        when i % 100 < 95 then 'signed' when i % 100 < 99 then 'denied' else 'expired' end,
      (select ids[1 + i % 6] from folders_of), 'ref-' || i, ${settings}::jsonb, 'da',
      '["draw"]'::jsonb, at + interval '30 days', 0, ${user.id}::uuid, ${user.name},
      ${user.email}, ${keyId}, at, at
    from generate_series(0, ${count - 1}) i,
      lateral (select now() - interval '365 days' + (i * interval '365 days') / ${count}) t(at)`.execute(
    db,
  );
  await sql`
    insert into recipients (company_id, case_id, id, uid, position, name, email, type, signing,
      "group", details, status, signing_token_hash, created_at, updated_at)
    select c.company_id, c.id, gen_random_uuid(), substr(md5(random()::text), 1, 12), p,
      case p when 0 then 'Tenant ' || n else 'Landlord ' || n % 500 end,
      case p when 0 then 'tenant' || n || '@lease' || n % 50 || '.example'
        else 'landlord' || n % 500 || '@owner.example' end,
      'email', true, 0, '{}'::jsonb,
      case when c.state = 'signed' then 'signed' else 'pending' end,
      sha256((c.id::text || p)::bytea), c.created_at, c.created_at
    from cases c, lateral (select substr(c.reference_id, 5)::int) r(n), generate_series(0, 1) p
    where c.company_id = ${company} and c.reference_id like 'ref-%'`.execute(db);
  // Written by the case writer for a case made through the service; these are written straight in.
  await fillCaseSearchText(db, company);
  void defaultFolder;
  for (const table of ['cases', 'recipients', 'folders'] as const)
    await sql`analyze ${sql.table(table)}`.execute(db);
}

/** One open case made now, with 20 recipients in two groups and 10 documents: the case page's target. */
async function seedBigCase(stack: CasesStack): Promise<string> {
  const { db, company, defaultFolder, user, keyId } = stack;
  const id = randomUUID();
  const now = new Date();
  await db
    .insertInto('cases')
    .values({
      company_id: company,
      id,
      title: 'Big lease with twenty signers',
      state: 'open',
      folder_id: defaultFolder.id,
      reference_id: 'big-1',
      settings: JSON.stringify({ expiresInDays: 30, language: 'da', signingSchemas: ['draw'] }),
      language: 'da',
      signing_schemas: JSON.stringify(['draw']),
      message_template_id: null,
      expires_at: new Date(now.getTime() + 30 * 86_400_000),
      active_group: 0,
      sender_id: user.id,
      sender_name: user.name,
      sender_email: user.email,
      created_by_key: keyId,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await sql`
    insert into recipients (company_id, case_id, id, uid, position, name, email, type, signing,
      "group", details, status, signing_token_hash, created_at, updated_at)
    select ${company}, ${id}::uuid, gen_random_uuid(), substr(md5(random()::text), 1, 12), p,
      'Signer ' || p, 'signer' || p || '@big.example', 'email', true, p / 10, '{}'::jsonb,
      case when p < 5 then 'signed' else 'pending' end, sha256((${id}::text || p)::bytea), now(), now()
    from generate_series(0, 19) p`.execute(db);
  await sql`
    insert into case_documents (company_id, case_id, index, name, source, storage_key, sha256,
      bytes, pages, created_at)
    select ${company}, ${id}::uuid, d, 'appendix-' || d || '.pdf', 'content',
      ${company} || '/cases/' || ${id} || '/' || d, repeat('0', 64), 30000, 2, now()
    from generate_series(0, 9) d`.execute(db);
  await db
    .insertInto('case_events')
    .values({
      company_id: company,
      case_id: id,
      trigger: 'case.created',
      payload: JSON.stringify({ trigger: 'case.created', case: { _id: id, title: 'Big lease' } }),
      created_at: now,
    })
    .execute();
  return id;
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

/** Keeps the last query a Kysely call compiled, so that it can be run again under EXPLAIN. */
class LastQuery implements KyselyPlugin {
  node: RootOperationNode | undefined;
  transformQuery(args: { node: RootOperationNode }): RootOperationNode {
    this.node = args.node;
    return args.node;
  }
  transformResult<R>(args: { result: R }): Promise<R> {
    return Promise.resolve(args.result);
  }
}

async function timed(requests: number, run: () => Promise<void>) {
  await run(); // warm: the route's first request compiles its schema and fills the pool
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return percentiles(times);
}

export async function dashboardCases(
  stack: CasesStack,
  options: { cases: number; requests: number },
): Promise<DashboardCasesReport> {
  const started = performance.now();
  await seedDashboardCases(stack, options.cases);
  const bigCase = await seedBigCase(stack);
  const seedSeconds = (performance.now() - started) / 1000;
  const cookie = await adminCookie(stack);
  const folder = await stack.db
    .selectFrom('folders')
    .select('id')
    .where('company_id', '=', stack.company)
    .where('name', '=', 'Folder 3')
    .executeTakeFirstOrThrow();
  // A cursor 40 pages (2,000 cases) down the list, as a member paging on would reach.
  let cursor: string | undefined;
  for (let page = 0; page < 40; page++)
    cursor = (await searchCases(stack.db, stack.company, { cursor })).next;
  const mid = Math.floor(options.cases / 2);
  const lists: { name: string; search: CaseSearch }[] = [
    { name: 'all, first page', search: {} },
    ...STATES.map((state) => ({ name: `tab ${state}, first page`, search: { state } })),
    { name: 'all, 41st page by cursor', search: { cursor } },
    {
      name: 'tab open, folder and a month',
      search: { state: 'open', folderId: folder.id, from: '2026-01-01', to: '2026-01-31' },
    },
    { name: 'search a recipient e-mail (1 case)', search: { q: `tenant${mid}@` } },
    { name: 'search an e-mail domain (2% of cases)', search: { q: `@lease7.example` } },
    { name: 'search a title (1 case)', search: { q: `lease ${mid + 1} ` } },
    { name: 'search a title word (20% of cases)', search: { q: 'amager' } },
    { name: 'search a reference (1 case)', search: { q: `ref-${mid + 2}` } },
    {
      name: 'tab signed, search a landlord (~0.2%)',
      search: { state: 'signed', q: 'landlord190@' },
    },
    { name: 'search nothing matches', search: { q: 'zzqx-no-such' } },
  ];
  const rows: DashboardCasesRow[] = [];
  const plans: Record<string, string> = {};
  const last = new LastQuery();
  const traced = stack.db.withPlugin(last);
  for (const list of lists) {
    const params = new URLSearchParams();
    const s = list.search;
    if (s.state) params.set('state', s.state);
    if (s.folderId) params.set('folder', s.folderId);
    if (s.from) params.set('from', s.from);
    if (s.to) params.set('to', s.to);
    if (s.q) params.set('q', s.q);
    if (s.cursor) params.set('cursor', s.cursor);
    const path = `/dashboard/cases${params.size ? `?${params}` : ''}`;
    let status = 0;
    const http = await timed(options.requests, async () => {
      const res = await fetch(`${stack.url}${path}`, { headers: { cookie }, redirect: 'manual' });
      await res.text();
      status = res.status;
    });
    let returned = 0;
    const service = await timed(options.requests, async () => {
      returned = (await searchCases(stack.db, stack.company, s)).cases.length;
    });
    await searchCases(traced, stack.company, s);
    if (last.node) {
      const compiled = traced.getExecutor().compileQuery(last.node, { queryId: randomUUID() });
      const explained = await stack.db.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain (analyze, buffers) ${compiled.sql}`, [...compiled.parameters]),
      );
      plans[list.name] = explained.rows.map((r) => r['QUERY PLAN']).join('\n');
    }
    rows.push({
      name: list.name,
      path,
      status,
      returned,
      p50: http.p50,
      p95: http.p95,
      service,
      target: 30,
    });
  }
  const casePath = `/dashboard/cases/${bigCase}`;
  let status = 0;
  const page = await timed(options.requests, async () => {
    const res = await fetch(`${stack.url}${casePath}`, { headers: { cookie }, redirect: 'manual' });
    await res.text();
    status = res.status;
  });
  rows.push({
    name: 'case page, 20 recipients and 10 documents',
    path: casePath,
    status,
    p50: page.p50,
    p95: page.p95,
    target: 40,
  });
  return { cases: options.cases, seedSeconds, rows, plans };
}

/** A row of the benchmark table, as bench/dashboard.ts makes them. */
export interface DashboardCasesBenchRow {
  name: string;
  docpipe: { n: number; p50: number; p95: number; mean: number };
  target: string;
  meets: boolean;
}

/**
 * `node dist/bench/run.js dashboard-cases [--quick]`: the case list and a case page on a stack of
 * their own. Quick: 10,000 cases and 20 requests a row instead of 100,000 and 100.
 */
export async function runDashboardCases(
  root: string,
  quick: boolean,
): Promise<{ rows: DashboardCasesBenchRow[]; report: DashboardCasesReport }> {
  const { startCasesStack } = await import('./cases-stack.js');
  const stack = await startCasesStack({ root, officeProcesses: 1 });
  try {
    const report = await dashboardCases(stack, {
      cases: quick ? 10_000 : 100_000,
      requests: quick ? 20 : 100,
    });
    const rows = report.rows.map((r) => ({
      name:
        `dashboard cases: ${r.name} (${report.cases} cases; HTTP ${r.status}` +
        (r.returned !== undefined ? `, ${r.returned} rows` : '') +
        (r.service ? `; searchCases alone p50 ${r.service.p50.toFixed(1)} ms` : '') +
        ')',
      docpipe: { n: 0, p50: r.p50, p95: r.p95, mean: r.p50 },
      target: `p50 <= ${r.target} ms`,
      meets: r.status === 200 && r.p50 <= r.target,
    }));
    return { rows, report };
  } finally {
    await stack.stop();
  }
}
