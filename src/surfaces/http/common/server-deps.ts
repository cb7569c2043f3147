import type { Queue } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { DocpipeConfig } from '../../../app/config/index.js';
import type { DocpipeMetrics } from '../../../base/metrics/index.js';
import type { DocumentLibrary } from '../../../document/library/index.js';
import type { DocpipeClient } from '../../../jobs/queue/index.js';
import type { Preparer } from '../../../render/prepare/index.js';
import type { Storage } from '../../../render/storage/index.js';
import type { Database } from '../../../service/db/index.js';
import type { EventQueue } from '../../../service/delivery/index.js';
import type { ExpiringKeyVerifier } from '../../../service/keys/index.js';
import type { ReadinessCheck } from '../operations/readiness-checks.js';

/**
 * What the HTTP server works with, ready-made: `src/app/wiring` opens the connections, queues and
 * stores for `docpipe serve` and `docpipe start` (see service.ts); tests give their own. The
 * server builds nothing of its own from these, and closes none of them.
 */
export interface HttpServerDeps {
  config: DocpipeConfig;
  /** The base of every URL the server issues (config.http's, or the address it listens on). */
  publicUrl: string;
  /** The Redis every docpipe process shares, connected: the queue, rate limits, signed URLs. */
  redis: Redis;
  redisUrl: string;
  /** The service's database (PostgreSQL), migrated: companies, users, keys and their records. */
  db: Kysely<Database>;
  /** The API keys (the database's KeyStore); the server puts VerifiedKeyCache in front of it. */
  keys: ExpiringKeyVerifier;
  /** The queue's producer: conversions run on docpipe's workers, here or on other machines. */
  client: DocpipeClient;
  storage: Storage;
  library: DocumentLibrary;
  /** Sniff for uploads, fields for the library: the prepare threads. */
  preparer: Pick<Preparer, 'sniff' | 'fields'>;
  metrics: DocpipeMetrics;
  /** What `/readyz` checks; `docpipe start` adds its office pool to `serve`'s. */
  checks: Record<string, ReadinessCheck>;
  /** The installation's queues, for the dashboard. */
  queues: readonly Queue[];
  logger?: FastifyBaseLogger;
  /**
   * The HMAC secret of signed URLs, as the service resolved it (the shared one in Redis).
   * @defaultValue config.signingSecret (DOCPIPE_SIGNING_SECRET)
   */
  signingSecret?: string;
  /**
   * The events queue (service/delivery): a created case's `case.created` is handed to delivery
   * at once and its first attempt is the answer's `delivery`. Absent: nothing is sent from here
   * (the outbox relay of a worker sends it) and `delivery` says not sent.
   */
  events?: Pick<EventQueue, 'publish' | 'outcome'>;
}
