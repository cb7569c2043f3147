import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { DocpipeError, type FailureDetail } from '../../base/errors/index.js';
import {
  checkDatabase,
  DatabaseUnavailableError,
  isConnectionFailure,
  openDatabase,
} from '../../platform/postgres/index.js';
import type { Database } from '../db/index.js';
import { newKeyProblems } from './key-fields.js';
import type {
  ApiKeyRecord,
  CheckedKey,
  CreatedKey,
  ExpiringKeyVerifier,
  KeyIdentity,
  KeyVerification,
  RevokeOutcome,
} from './key-record.js';
import {
  hashToken,
  isKeyId,
  newToken,
  tokenEnvironment,
  tokenId,
  type KeyEnvironment,
} from './key-token.js';

export interface KeyStoreOptions {
  /** The service's database, migrated; the store never closes it unless it opened it itself. */
  db: Kysely<Database>;
  /** Its URL, for messages when it does not answer (the password is never shown). */
  databaseUrl: string;
  /** The clock, for creation, revocation and expiry. @defaultValue Date.now */
  now?: () => number;
  /**
   * The installation's environment (`DOCPIPE_ENVIRONMENT`): keys are made with its prefix, and a
   * key of the other one is refused. @defaultValue 'production'
   */
  environment?: KeyEnvironment;
}

/** Compared with when no record exists, so that an unknown id costs the same comparison. */
const NO_HASH = Buffer.alloc(32);

/**
 * The name of a key made without one. Not the user's e-mail: the list shows the user beside the
 * name, and a key is one of many a user may hold (a server, a script), which the name tells apart.
 */
export const DEFAULT_KEY_NAME = 'API key';

/**
 * API keys in PostgreSQL (table `api_keys`), each belonging to a user of a company. Only the
 * SHA-256 of a key is stored (see hashToken); the key itself is returned once by `create`.
 * Verifying reads the key with its company and user in one query by the key's id (the primary
 * key), so that a disabled company and a removed user are refused as soon as the store is asked;
 * the HTTP service asks through VerifiedKeyCache, so a working key costs a query every few
 * seconds, not every request.
 */
export class KeyStore implements ExpiringKeyVerifier {
  private readonly db: Kysely<Database>;
  private readonly databaseUrl: string;
  private readonly now: () => number;
  private readonly owned: boolean;
  /** Which keys this installation makes and accepts. */
  readonly environment: KeyEnvironment;

  constructor(options: KeyStoreOptions, owned = false) {
    this.db = options.db;
    this.databaseUrl = options.databaseUrl;
    this.now = options.now ?? Date.now;
    this.environment = options.environment ?? 'production';
    this.owned = owned;
  }

  /**
   * A store on a pool of its own, for the CLI: fails at once with DatabaseUnavailableError when
   * PostgreSQL does not answer. `close()` ends the pool.
   */
  static async connect(
    databaseUrl: string,
    options: Pick<KeyStoreOptions, 'now' | 'environment'> = {},
  ): Promise<KeyStore> {
    const db = openDatabase<Database>(databaseUrl, { maxConnections: 1 });
    try {
      await checkDatabase(db, databaseUrl);
    } catch (err) {
      await db.destroy();
      throw err;
    }
    return new KeyStore({ db, databaseUrl, ...options }, true);
  }

  /** Ends the pool if `connect` opened it; a shared one stays its owner's. */
  async close(): Promise<void> {
    if (this.owned) await this.db.destroy();
  }

  /**
   * A new key for the user `user` (an e-mail, in any case) of `company`, named `name` (else
   * DEFAULT_KEY_NAME). Throws DocpipeError `validation-failed` naming every problem with the
   * input, and then a company that does not exist or is disabled, or a user who is not in it.
   */
  async create(input: {
    company: string;
    user: string;
    name?: string;
    expiresInMs?: number;
    /** Made for this partner by the partner webhook (spec 5.6): listed as a partner integration. */
    partner?: string;
  }): Promise<CreatedKey> {
    const problems = newKeyProblems(input);
    if (problems.length > 0) throw new DocpipeError('validation-failed', problems);
    const createdAt = new Date(this.now());
    const expiresAt =
      input.expiresInMs === undefined
        ? undefined
        : new Date(createdAt.getTime() + input.expiresInMs);
    // A repeated 64-bit id is all but impossible; trying again costs nothing if it happens.
    for (let attempt = 0; attempt < 3; attempt++) {
      const { id, token } = newToken(this.environment);
      const made = await this.call(() =>
        this.db.transaction().execute(async (tx) => {
          // Shared locks: the company cannot be disabled, nor the user removed, until the key
          // exists (then the key is refused as any other would be).
          const company = await tx
            .selectFrom('companies')
            .select(['id', 'disabled'])
            .where('id', '=', input.company)
            .forShare()
            .executeTakeFirst();
          if (!company) throw refused('company', noCompany(input.company));
          if (company.disabled) throw refused('company', disabled(input.company));
          const user = await tx
            .selectFrom('users')
            .select(['id', 'email'])
            .where('company_id', '=', input.company)
            .where((eb) => eb(eb.fn('lower', ['email']), '=', input.user.toLowerCase()))
            .forShare()
            .executeTakeFirst();
          if (!user) throw refused('user', noUser(input.company, input.user));
          const name = input.name ?? DEFAULT_KEY_NAME;
          const inserted = await tx
            .insertInto('api_keys')
            .values({
              id,
              company_id: input.company,
              user_id: user.id,
              name,
              hash: hashToken(token),
              created_at: createdAt,
              expires_at: expiresAt ?? null,
              partner_company_id: input.partner ?? null,
            })
            .onConflict((oc) => oc.column('id').doNothing())
            .returning('id')
            .executeTakeFirst();
          return inserted ? { userId: user.id, email: user.email, name } : undefined;
        }),
      );
      if (made)
        return {
          id,
          company: input.company,
          name: made.name,
          userId: made.userId,
          user: made.email,
          createdAt,
          ...(expiresAt === undefined ? {} : { expiresAt }),
          ...(input.partner === undefined ? {} : { partner: input.partner }),
          key: token,
        };
    }
    throw new Error('three new API key ids in a row were taken: the random source is broken');
  }

  /**
   * Every key, or the company's, oldest first, revoked and expired ones included; never a
   * secret or a hash.
   */
  async list(options: { company?: string } = {}): Promise<ApiKeyRecord[]> {
    const rows = await this.call(() => {
      let query = this.db
        .selectFrom('api_keys as k')
        .leftJoin('users as u', (j) =>
          j.onRef('u.id', '=', 'k.user_id').onRef('u.company_id', '=', 'k.company_id'),
        )
        .select([
          'k.id',
          'k.company_id',
          'k.name',
          'k.user_id',
          'u.email',
          'k.created_at',
          'k.expires_at',
          'k.revoked_at',
          'k.copied_from_redis_at',
          'k.partner_company_id',
          'k.last_used_at',
        ])
        .orderBy('k.created_at')
        .orderBy('k.id');
      if (options.company !== undefined) query = query.where('k.company_id', '=', options.company);
      return query.execute();
    });
    return rows.map((r) => ({
      id: r.id,
      company: r.company_id,
      name: r.name,
      ...(r.user_id === null ? {} : { userId: r.user_id }),
      ...(r.email === null ? {} : { user: r.email }),
      createdAt: r.created_at,
      ...(r.expires_at ? { expiresAt: r.expires_at } : {}),
      ...(r.revoked_at ? { revokedAt: r.revoked_at } : {}),
      ...(r.copied_from_redis_at ? { copiedFromRedisAt: r.copied_from_redis_at } : {}),
      ...(r.partner_company_id !== null ? { partner: r.partner_company_id } : {}),
      ...(r.last_used_at ? { lastUsedAt: r.last_used_at } : {}),
    }));
  }

  /** Revokes a key for good. Idempotent: a second revocation keeps the first one's time. */
  async revoke(id: string): Promise<RevokeOutcome> {
    if (!isKeyId(id)) return { found: false };
    const at = new Date(this.now());
    const revoked = await this.call(() =>
      this.db
        .updateTable('api_keys')
        .set({ revoked_at: at })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .returning('revoked_at')
        .executeTakeFirst(),
    );
    if (revoked?.revoked_at) return { found: true, alreadyRevoked: false, revokedAt: at };
    const before = await this.call(() =>
      this.db.selectFrom('api_keys').select('revoked_at').where('id', '=', id).executeTakeFirst(),
    );
    if (!before?.revoked_at) return { found: false };
    return { found: true, alreadyRevoked: true, revokedAt: before.revoked_at };
  }

  /**
   * Whether `token` is a working key, and whose. Revocation, expiry, a disabled company and a
   * removed user are told only to a caller who holds the right secret: anyone else learns
   * `invalid`, whatever the id.
   */
  async verify(token: string): Promise<KeyVerification> {
    return (await this.check(token)).verification;
  }

  /** {@link verify}, with a working key's expiry, for a cache not to outlive it. */
  async check(token: string): Promise<CheckedKey> {
    // Told from the prefix alone, before any query: the other environment's database holds the
    // key, not this one, and what the prefix says its holder already knows.
    const environment = tokenEnvironment(token);
    if (environment !== undefined && environment !== this.environment)
      return refusal(environment === 'test' ? 'test-key-in-production' : 'production-key-in-test');
    const id = tokenId(token);
    const presented = hashToken(token);
    const row = id
      ? await this.call(() =>
          this.db
            .selectFrom('api_keys as k')
            .innerJoin('companies as c', 'c.id', 'k.company_id')
            .leftJoin('users as u', (j) =>
              j.onRef('u.id', '=', 'k.user_id').onRef('u.company_id', '=', 'k.company_id'),
            )
            .select([
              'k.id',
              'k.company_id',
              'k.name',
              'k.hash',
              'k.expires_at',
              'k.revoked_at',
              'k.copied_from_redis_at',
              'c.disabled',
              'u.id as user_id',
            ])
            .where('k.id', '=', id)
            .executeTakeFirst(),
        )
      : undefined;
    const stored = row?.hash.length === 32 ? row.hash : NO_HASH;
    // Constant time, so that response times say nothing about how much of a guess was right.
    const matches = timingSafeEqual(stored, presented) && stored !== NO_HASH;
    if (!row || !matches) return refusal('invalid');
    // The key's own state first: a revoked or expired key is fixed by another key, whatever
    // its company's or user's state.
    if (row.revoked_at) return refusal('revoked');
    if (row.expires_at && row.expires_at.getTime() <= this.now()) return refusal('expired');
    if (row.disabled) return refusal('company-disabled');
    // Without a user: a key copied from Redis never had one and works as it did; any other
    // key's user was removed, and it has nobody to attribute cases to.
    if (row.user_id === null && row.copied_from_redis_at === null) return refusal('no-user');
    const identity: KeyIdentity = {
      id: row.id,
      company: row.company_id,
      name: row.name,
      ...(row.user_id === null ? {} : { userId: row.user_id }),
    };
    return {
      verification: { ok: true, identity },
      ...(row.expires_at ? { expiresAt: row.expires_at } : {}),
    };
  }

  /**
   * PostgreSQL not answering is an outage (DatabaseUnavailableError: 503 for a server, exit 3
   * for the CLI); any other failure of a query is a bug and stays what it is.
   */
  private async call<T>(query: () => Promise<T>): Promise<T> {
    try {
      return await query();
    } catch (err) {
      if (isConnectionFailure(err)) throw new DatabaseUnavailableError(this.databaseUrl, err);
      throw err;
    }
  }
}

function refusal(reason: Exclude<KeyVerification, { ok: true }>['reason']): CheckedKey {
  return { verification: { ok: false, reason } };
}

function refused(field: string, message: string): DocpipeError {
  const detail: FailureDetail = { field, message };
  return new DocpipeError('validation-failed', [detail]);
}

function noCompany(company: string): string {
  return `no company ${company}: create it first (docpipe companies create ${company} --name ...)`;
}

function disabled(company: string): string {
  return `company ${company} is disabled, and its keys are refused: enable it first (docpipe companies enable ${company})`;
}

function noUser(company: string, email: string): string {
  return `no user ${email} in company ${company}: add one first (docpipe users add --company ${company} --email ${email} --name ...)`;
}
