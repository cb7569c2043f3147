import type { Kysely } from 'kysely';
import type { Logger } from '../../base/log/index.js';
import { createRedis } from '../../platform/redis/index.js';
import type { Storage } from '../../render/storage/index.js';
import type { Database } from '../../service/db/index.js';
import { DeliveryWorker, type FlowCompletedHook } from '../../service/delivery/index.js';
import { messageChannels, type DeliveryConfig } from '../../service/messages/index.js';
import {
  WebhookQueue,
  WebhookWorker,
  dispatchEvent,
  type WebhookSettings,
} from '../../service/webhooks/index.js';

export interface DeliveryParts {
  db: Kysely<Database>;
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  storage: Storage;
  /** The installation's signing secret: the links in invitations and reminders. */
  signingSecret: string;
  /** The signing pages' public URL (a company's signing domain wins), asked at each message. */
  publicUrl: string | (() => string);
  /** A download URL of a stored case document, for the signed copy's links. */
  documentUrl: (key: string, name: string) => string | Promise<string>;
  messages: DeliveryConfig;
  webhooks: WebhookSettings;
  logger: Logger;
  /** The clock of the schedule and the ledger. @defaultValue () => new Date() */
  now?: () => Date;
  /** @defaultValue DEFAULT_SCHEDULE_MS; 0: no timer (tests tick) */
  scheduleEveryMs?: number;
  /** What a completed web-flow makes besides its webhooks: its case (flow-cases.ts). */
  onFlowCompleted?: FlowCompletedHook;
  /** The crash test's hook in the outbox relay. */
  afterPublish?: (eventIds: readonly string[]) => void | Promise<void>;
}

export interface RunningDelivery {
  worker: DeliveryWorker;
  close(): Promise<void>;
}

/**
 * Delivery in a worker: the message channels (SMTP or .eml files, the SMS gateway, e-Boks), the
 * webhook worker (retries and replays, with its sweep), and the delivery worker (outbox relay,
 * events, schedule), whose events dispatch to the webhooks with their retries on the webhook
 * queue. Closed in reverse.
 */
export async function startDelivery(parts: DeliveryParts): Promise<RunningDelivery> {
  const { db, logger } = parts;
  const now = parts.now ?? (() => new Date());
  const channels = messageChannels(parts.messages, logger);
  const connection = createRedis(parts.redisUrl, 'worker');
  const retries = new WebhookQueue(connection, parts.prefix);
  const webhookDeps = { db, settings: parts.webhooks, logger, now };
  let webhookWorker: WebhookWorker | undefined;
  try {
    webhookWorker = await WebhookWorker.start({
      redisUrl: parts.redisUrl,
      prefix: parts.prefix,
      deps: webhookDeps,
    });
    const worker = await DeliveryWorker.start({
      redisUrl: parts.redisUrl,
      prefix: parts.prefix,
      databaseUrl: parts.databaseUrl,
      // DOCPIPE_DELIVERY_BATCH: the events worker takes as many at once as the webhooks batch.
      ...(parts.webhooks.batchSize !== undefined ? { batchSize: parts.webhooks.batchSize } : {}),
      deps: {
        db,
        channels,
        signingSecret: parts.signingSecret,
        publicUrl:
          typeof parts.publicUrl === 'string' ? constant(parts.publicUrl) : parts.publicUrl,
        documentUrl: parts.documentUrl,
        storage: parts.storage,
        logger,
        now,
        webhooks: {
          dispatch: async (event) =>
            (await dispatchEvent({ ...webhookDeps, retries }, event)).result,
        },
        ...(parts.onFlowCompleted ? { onFlowCompleted: parts.onFlowCompleted } : {}),
      },
      ...(parts.scheduleEveryMs !== undefined ? { scheduleEveryMs: parts.scheduleEveryMs } : {}),
      ...(parts.afterPublish ? { afterPublish: parts.afterPublish } : {}),
    });
    const started = webhookWorker;
    return {
      worker,
      async close() {
        await worker.close();
        await started.close();
        await retries.close();
        connection.disconnect();
        await channels.close();
      },
    };
  } catch (err) {
    await webhookWorker?.close();
    await retries.close();
    connection.disconnect();
    await channels.close();
    throw err;
  }
}

const constant =
  (value: string): (() => string) =>
  () =>
    value;
