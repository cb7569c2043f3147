import { requireDatabaseUrl } from '../../../platform/postgres/index.js';
import { loadConfig } from '../../../app/config/index.js';
import { isDocpipeError } from '../../../base/errors/index.js';
import { KeyStore, isKeyId, type ApiKeyRecord } from '../../../service/keys/index.js';
import { parseDuration } from '../../../base/util/index.js';
import { UsageError } from '../exit-codes.js';
import { printJson } from '../print-json.js';
import { when } from './text-table.js';

/** The flag a person typed for each field the key store names. */
const FLAGS: Record<string, string> = {
  company: '--company',
  user: '--user',
  name: '--name',
  expiresInMs: '--expires',
};

/** `docpipe keys create`, declared in commands/keys.ts, which loads this module only when it runs. */
export async function createKey(flags: {
  company: string;
  user: string;
  name?: string;
  expires?: string;
  json?: boolean;
}): Promise<void> {
  let expiresInMs: number | undefined;
  if (flags.expires !== undefined) {
    try {
      expiresInMs = parseDuration(flags.expires);
    } catch (err) {
      throw new UsageError(`--expires: ${(err as Error).message}`);
    }
  }
  await withKeyStore(async (store) => {
    const created = await store
      .create({ company: flags.company, user: flags.user, name: flags.name, expiresInMs })
      .catch((err: unknown) => {
        throw usageOf(err);
      });
    if (flags.json) printJson(created);
    else process.stdout.write(`${created.key}\n`);
    // Production's keys are the usual ones; a test key says so, as its prefix does.
    const kind = store.environment === 'test' ? 'test API key' : 'API key';
    process.stderr.write(
      `docpipe: ${kind} ${created.id} of ${created.user} in company ${created.company}` +
        `${flags.name === undefined ? '' : ` ("${created.name}")`}, ` +
        `${created.expiresAt ? `expires ${when(created.expiresAt)}` : 'does not expire'}.\n` +
        'Store the key now: it is shown only this once and cannot be shown again.\n' +
        (store.environment === 'test'
          ? 'It works only on this test environment (DOCPIPE_ENVIRONMENT=test), never in production.\n'
          : ''),
    );
  });
}

/** `docpipe keys list`, declared in commands/keys.ts, which loads this module only when it runs. */
export async function listKeys(flags: { company?: string; json?: boolean }): Promise<void> {
  await withKeyStore(async (store) => {
    const shown = await store.list(flags.company === undefined ? {} : { company: flags.company });
    if (flags.json) printJson(shown);
    else if (shown.length === 0)
      process.stderr.write(
        `docpipe: no API keys${flags.company ? ` for company ${flags.company}` : ''}; ` +
          'create one with: docpipe keys create --company <id> --user <email>\n',
      );
    else process.stdout.write(table(shown, Date.now()));
  });
}

/** `docpipe keys revoke`, declared in commands/keys.ts, which loads this module only when it runs. */
export async function revokeKey(id: string): Promise<void> {
  if (!isKeyId(id))
    throw new UsageError(
      `"${id}" is not a key id: ids are 16 characters 0-9 and a-f, as "docpipe keys list" shows them`,
    );
  await withKeyStore(async (store) => {
    const outcome = await store.revoke(id);
    if (!outcome.found)
      throw new UsageError(`no API key with id ${id} ("docpipe keys list" shows them)`);
    process.stdout.write(
      outcome.alreadyRevoked
        ? `API key ${id} was already revoked at ${when(outcome.revokedAt)}\n`
        : `revoked API key ${id}: requests with it fail with 401 within 5 seconds on every server\n`,
    );
  });
}

/**
 * The key store in the database of DATABASE_URL or of a running `docpipe start` (bad usage
 * without either); closed when `work` ends.
 */
async function withKeyStore(work: (store: KeyStore) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const databaseUrl = await requireDatabaseUrl(config);
  // PostgreSQL not answering is DatabaseUnavailableError: an outage, exit 3.
  const store = await KeyStore.connect(databaseUrl, { environment: config.environment });
  try {
    await work(store);
  } finally {
    await store.close();
  }
}

/** The store's refusal of a company, name or lifetime, named by the flags a person typed. */
function usageOf(err: unknown): unknown {
  if (!isDocpipeError(err) || err.slug !== 'validation-failed') return err;
  return new UsageError(
    err.details.map((d) => `${FLAGS[d.field] ?? d.field}: ${d.message}`).join('; '),
  );
}

function status(key: ApiKeyRecord, now: number): string {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt.getTime() <= now) return 'expired';
  // Its user was removed (a key copied from Redis never had one, and works).
  if (key.userId === undefined && key.copiedFromRedisAt === undefined) return 'no-user';
  return 'active';
}

/** The user column: the e-mail, or why there is none. */
function userCell(key: ApiKeyRecord): string {
  if (key.user !== undefined) return key.user;
  return key.copiedFromRedisAt ? '(from Redis)' : '(removed)';
}

/** Columns padded to their widest cell; the name last, as it may hold spaces. */
function table(keys: ApiKeyRecord[], now: number): string {
  const rows = [
    ['ID', 'COMPANY', 'USER', 'STATUS', 'CREATED', 'EXPIRES', 'REVOKED', 'NAME'],
    ...keys.map((k) => [
      k.id,
      k.company,
      userCell(k),
      status(k, now),
      when(k.createdAt),
      k.expiresAt ? when(k.expiresAt) : 'never',
      k.revokedAt ? when(k.revokedAt) : '-',
      k.name,
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows
    .map((r) =>
      r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  '),
    )
    .join('\n')
    .concat('\n');
}
