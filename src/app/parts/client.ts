import { publicUrlOf, type DocpipeConfig } from '../config/index.js';
import { DEFAULT_CLIENT_OPTIONS, DocpipeClient } from '../../jobs/queue/index.js';
import { resolveRedisUrl } from '../../platform/redis/index.js';
import { openStorage } from './storage.js';

/**
 * A producer client for CLI commands, on the configured or discovered Redis. It gives up when
 * Redis or every worker is gone for longer than configured, and follows a restarted
 * `docpipe start` to a new port through the URL file.
 */
export async function connectClient(
  config: DocpipeConfig,
  redisUrl: string,
  producer: { company?: string } = {},
): Promise<DocpipeClient> {
  return DocpipeClient.connect({
    company: producer.company,
    redisUrl,
    unreachableMs: config.queue.clientUnreachableMs,
    noWorkerMs: config.queue.clientNoWorkerMs,
    rediscover: () => resolveRedisUrl(config),
    prefix: config.queue.prefix,
    storage: await openStorage(config),
    contract: { maxInlineBytes: config.queue.maxInlineBytes, values: config.values },
    attempts: config.queue.attempts,
    keepCompleted: {
      ...DEFAULT_CLIENT_OPTIONS.keepCompleted,
      age: config.queue.keepCompletedSeconds,
    },
    keepFailed: { ...DEFAULT_CLIENT_OPTIONS.keepFailed, age: config.queue.keepFailedSeconds },
    companyMaxQueued: config.fairness.maxQueued,
    // Uploads the HTTP service issued are sources in storage; a free port (0) names none yet.
    publicUrl:
      config.http.publicUrl ??
      (config.http.port === 0 ? undefined : publicUrlOf(config.http, config.http.port)),
  });
}
