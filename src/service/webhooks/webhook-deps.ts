import type { Kysely } from 'kysely';
import type { Logger } from '../../base/log/index.js';
import type { Database } from '../db/index.js';
import type { LookupAll } from './destination-guard.js';
import type { WebhookSettings } from './webhook-settings.js';

/** Where a failed delivery's next try is put: the webhooks queue (WebhookQueue). */
export interface RetryScheduler {
  /** The `attempt`th try of the delivery, `delayMs` from now; adding it twice makes one. */
  scheduleRetry(deliveryId: string, attempt: number, delayMs: number): Promise<void>;
}

/** What dispatching and attempting deliveries need. */
export interface WebhookDeps {
  db: Kysely<Database>;
  settings: WebhookSettings;
  logger?: Logger;
  /**
   * Where retries go. Without one (the CLI's replay), a failed delivery's next try is found by a
   * running worker's sweep once it is due.
   */
  retries?: RetryScheduler;
  /** How names are resolved. @defaultValue dns.lookup, all addresses */
  lookup?: LookupAll;
  /**
   * The schedule's clock: next tries, the retry window, the sweep. A try's start and its signed
   * timestamp are always the real time (a receiver checks the timestamp against its own clock).
   * @defaultValue () => new Date()
   */
  now?: () => Date;
  /** The jitter's source, in [0, 1). @defaultValue Math.random */
  random?: () => number;
}
