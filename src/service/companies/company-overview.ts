import type { Kysely } from 'kysely';
import type { CasesTable, Database } from '../db/index.js';

/** A case's states, in the order the operator's pages show them. */
export const CASE_STATES = ['draft', 'open', 'signed', 'denied', 'expired'] as const;
export type CaseStateName = CasesTable['state'];

/** A company as the operator's list shows it: the company and what it holds, counted. */
export interface CompanySummary {
  id: string;
  name: string;
  /** The CVR number given at sign-up; null for a company made by the CLI. */
  cvr: string | null;
  /** Made by `/user/register` rather than by `docpipe companies create`. */
  createdBySignup: boolean;
  disabled: boolean;
  createdAt: Date;
  members: number;
  /** Its cases by state; a state without cases is 0. */
  cases: Record<CaseStateName, number>;
  /** Its API keys: all of them, and those neither revoked nor expired. */
  keys: { total: number; working: number };
}

/** One page of the list, and the cursor of the next (absent on the last page). */
export interface CompanyPage {
  companies: CompanySummary[];
  nextCursor?: string;
}

export interface CompanyListRequest {
  /** Part of the name, or the start of the id, in any case. */
  search?: string;
  /** The `nextCursor` of the page before. */
  cursor?: string;
  /** @defaultValue 50 */
  limit?: number;
}

/** A member as the operator's company page shows it. */
export interface MemberSummary {
  id: string;
  email: string;
  name: string;
  admin: boolean;
  /** Whether a person logs in as this member (signed up, or took the invitation). */
  hasLogin: boolean;
  /** The last request of a live session in this membership; null when none is live. */
  lastSeenAt: Date | null;
}

/** An API key as the operator's company page shows it: never a secret or a hash. */
export interface KeySummary {
  /** The key's public id, the part after `dp_live_` (or `dp_test_`, or `dp_`). */
  id: string;
  name: string;
  /** Its user's e-mail address; null when the user was removed. */
  user: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** Copied from Redis by `docpipe db migrate`: made as `dp_<id>_...`, without the environment. */
  copiedFromRedis: boolean;
}

/** Everything the operator's page of one company shows. */
export interface CompanyDetail {
  summary: CompanySummary;
  /** Its members by e-mail address, at most DETAIL_ROWS of them (summary.members counts all). */
  members: MemberSummary[];
  /** Its keys, newest first, at most DETAIL_ROWS of them (summary.keys counts all). */
  keys: KeySummary[];
  webhooks: number;
  /** Cases created in the last RECENT_DAYS days. */
  recentCases: number;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
/** Members and keys a company page lists; past them it says how many there are. */
export const DETAIL_ROWS = 200;
export const RECENT_DAYS = 30;

/**
 * The operator's view of the installation's companies: a page of them with their members, cases
 * by state and keys counted, and one company with its members and keys. A page costs a fixed
 * number of queries whatever its size: the companies (by the primary key, from the cursor), then
 * one grouped count per table over the page's ids (each table's company index), never one query
 * per company. Disabling and enabling stay CompanyRepository's, as the CLI does them.
 */
export class CompanyOverview {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(request: CompanyListRequest = {}): Promise<CompanyPage> {
    const limit = Math.min(Math.max(request.limit ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const after = request.cursor === undefined ? undefined : cursorId(request.cursor);
    let query = this.db
      .selectFrom('companies')
      .select(['id', 'name', 'cvr', 'created_by_signup', 'disabled', 'created_at'])
      .orderBy('id')
      .limit(limit + 1);
    if (after !== undefined) query = query.where('id', '>', after);
    const search = request.search?.trim();
    if (search) {
      const pattern = likeEscaped(search);
      query = query.where((eb) =>
        eb.or([eb('id', 'ilike', `${pattern}%`), eb('name', 'ilike', `%${pattern}%`)]),
      );
    }
    const rows = await query.execute();
    const page = rows.slice(0, limit);
    const companies = await this.counted(page);
    const last = page.at(-1);
    return rows.length > limit && last
      ? { companies, nextCursor: cursorOf(last.id) }
      : { companies };
  }

  /** The company with its members and keys, or undefined when there is none with that id. */
  async detail(id: string): Promise<CompanyDetail | undefined> {
    const row = await this.db
      .selectFrom('companies')
      .select(['id', 'name', 'cvr', 'created_by_signup', 'disabled', 'created_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const since = new Date(this.now().getTime() - RECENT_DAYS * 24 * 60 * 60 * 1000);
    const [[summary], members, keys, webhooks, recent] = await Promise.all([
      this.counted([row]),
      this.db
        .selectFrom('users as u')
        .leftJoin('logins as l', 'l.id', 'u.login_id')
        .select(['u.id', 'u.email', 'u.name', 'u.admin', 'u.login_id'])
        .where('u.company_id', '=', id)
        .orderBy((eb) => eb.fn('lower', ['u.email']))
        .limit(DETAIL_ROWS)
        .execute(),
      this.db
        .selectFrom('api_keys as k')
        .leftJoin('users as u', (j) =>
          j.onRef('u.id', '=', 'k.user_id').onRef('u.company_id', '=', 'k.company_id'),
        )
        .select([
          'k.id',
          'k.name',
          'u.email',
          'k.created_at',
          'k.expires_at',
          'k.revoked_at',
          'k.copied_from_redis_at',
        ])
        .where('k.company_id', '=', id)
        .orderBy('k.created_at', 'desc')
        .orderBy('k.id')
        .limit(DETAIL_ROWS)
        .execute(),
      this.db
        .selectFrom('webhooks')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('company_id', '=', id)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('cases')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('company_id', '=', id)
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow(),
    ]);
    const seen = await this.lastSeen(members);
    return {
      summary: summary!,
      members: members.map((m) => ({
        id: m.id,
        email: m.email,
        name: m.name,
        admin: m.admin,
        hasLogin: m.login_id !== null,
        lastSeenAt: seen.get(m.id) ?? null,
      })),
      keys: keys.map((k) => ({
        id: k.id,
        name: k.name,
        user: k.email,
        createdAt: k.created_at,
        expiresAt: k.expires_at,
        revokedAt: k.revoked_at,
        copiedFromRedis: k.copied_from_redis_at !== null,
      })),
      webhooks: Number(webhooks.n),
      recentCases: Number(recent.n),
    };
  }

  /** The rows with their counts: three grouped queries over the rows' ids, run at once. */
  private async counted(rows: readonly CompanyRow[]): Promise<CompanySummary[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const now = this.now();
    const [members, cases, keys] = await Promise.all([
      this.db
        .selectFrom('users')
        .select((eb) => ['company_id', eb.fn.countAll<string>().as('n')])
        .where('company_id', 'in', ids)
        .groupBy('company_id')
        .execute(),
      this.db
        .selectFrom('cases')
        .select((eb) => ['company_id', 'state', eb.fn.countAll<string>().as('n')])
        .where('company_id', 'in', ids)
        .groupBy(['company_id', 'state'])
        .execute(),
      this.db
        .selectFrom('api_keys')
        .select((eb) => [
          'company_id',
          eb.fn.countAll<string>().as('total'),
          eb.fn
            .countAll<string>()
            .filterWhere((w) =>
              w.and([
                w('revoked_at', 'is', null),
                w.or([w('expires_at', 'is', null), w('expires_at', '>', now)]),
              ]),
            )
            .as('working'),
        ])
        .where('company_id', 'in', ids)
        .groupBy('company_id')
        .execute(),
    ]);
    const memberCount = new Map(members.map((m) => [m.company_id, Number(m.n)]));
    const keyCount = new Map(
      keys.map((k) => [k.company_id, { total: Number(k.total), working: Number(k.working) }]),
    );
    const caseCount = new Map<string, Record<CaseStateName, number>>();
    for (const c of cases) {
      let byState = caseCount.get(c.company_id);
      if (!byState) caseCount.set(c.company_id, (byState = noCases()));
      byState[c.state] = Number(c.n);
    }
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      cvr: r.cvr,
      createdBySignup: r.created_by_signup,
      disabled: r.disabled,
      createdAt: r.created_at,
      members: memberCount.get(r.id) ?? 0,
      cases: caseCount.get(r.id) ?? noCases(),
      keys: keyCount.get(r.id) ?? { total: 0, working: 0 },
    }));
  }

  /** Each member's latest live session's last request, by the logins' index. */
  private async lastSeen(
    members: readonly { id: string; login_id: string | null }[],
  ): Promise<Map<string, Date>> {
    const logins = [...new Set(members.flatMap((m) => (m.login_id ? [m.login_id] : [])))];
    if (logins.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('login_sessions')
      .select((eb) => ['user_id', eb.fn.max('last_seen_at').as('seen')])
      .where('login_id', 'in', logins)
      .where(
        'user_id',
        'in',
        members.map((m) => m.id),
      )
      .where('expires_at', '>', this.now())
      .groupBy('user_id')
      .execute();
    return new Map(rows.flatMap((r) => (r.user_id ? [[r.user_id, new Date(r.seen)]] : [])));
  }
}

interface CompanyRow {
  id: string;
  name: string;
  cvr: string | null;
  created_by_signup: boolean;
  disabled: boolean;
  created_at: Date;
}

function noCases(): Record<CaseStateName, number> {
  return { draft: 0, open: 0, signed: 0, denied: 0, expired: 0 };
}

/** A pattern's own `%`, `_` and `\` matched as themselves (LIKE's default escape is `\`). */
function likeEscaped(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The cursor names the last id of a page; opaque, so that nobody builds one by hand. */
function cursorOf(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

/** The id a cursor names; a cursor that is not one of ours starts from the beginning. */
function cursorId(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return undefined;
  return Buffer.from(cursor, 'base64url').toString('utf8');
}
