import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { sql, type Kysely } from 'kysely';
import type { OfficePoolStats } from '../../../render/convert/index.js';
import type { Storage } from '../../../render/storage/index.js';

/**
 * One readiness check: resolves with details worth showing when the part is ready, throws an
 * Error whose message says what is wrong (and what to do) when it is not.
 */
export type ReadinessCheck = () => Promise<Record<string, unknown> | void>;

/** Redis answers a PING: the queue, the keys and the rate limits all live there. */
export function redisReady(connection: Pick<Redis, 'ping'>): ReadinessCheck {
  return async () => {
    await connection.ping();
  };
}

/**
 * PostgreSQL answers a query: keys, companies, forms and cases live there. The message says why
 * by the driver's error code, never the server's address or user (/readyz answers anyone).
 */
export function databaseReady<DB>(db: Kysely<DB>): ReadinessCheck {
  return async () => {
    await sql`select 1`.execute(db).catch((err: unknown) => {
      const code = (err as { code?: unknown }).code;
      throw new Error(
        `PostgreSQL did not answer (${typeof code === 'string' ? code : 'no connection'}): keys, companies and cases cannot be read`,
      );
    });
  };
}

/**
 * The office pool has a warm process to convert with. One is enough: a pool replaces processes
 * now and then (recycling), and it still converts meanwhile.
 */
export function officePoolReady(
  stats: () => Pick<OfficePoolStats, 'processes' | 'ready' | 'busy' | 'waiting'>,
): ReadinessCheck {
  return () => {
    const { processes, ready, busy, waiting } = stats();
    if (ready === 0)
      return Promise.reject(
        new Error(
          `no office process is ready (0 of ${processes}); they are starting, or failing to start: see the log`,
        ),
      );
    return Promise.resolve({ processes, ready, busy, waiting });
  };
}

/** Storage takes a write, gives it back and deletes it: uploads and renders can be stored. */
export function storageWritable(storage: Storage): ReadinessCheck {
  return async () => {
    const key = `health/${randomUUID()}.probe`;
    const probe = Buffer.from('docpipe readiness probe');
    try {
      await storage.put(key, probe, 'application/octet-stream').catch((err: unknown) => {
        // /readyz answers anyone: the error's code says what is wrong, never the server's paths.
        const code = (err as NodeJS.ErrnoException).code;
        throw new Error(`storage refused a write (${code ?? 'not a file system error'})`);
      });
      const back = await storage.get(key);
      if (!back || !probe.equals(back))
        throw new Error('storage did not give back what was just written to it');
    } finally {
      await storage.delete(key).catch(() => undefined);
    }
  };
}
