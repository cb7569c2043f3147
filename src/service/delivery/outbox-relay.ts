import type { Kysely } from 'kysely';
import pg from 'pg';
import type { Logger } from '../../base/log/index.js';
import type { Database } from '../db/index.js';
import { receives } from '../webhooks/index.js';
import type { EventQueue } from './event-queue.js';
import { FLOW_TRIGGERS, MESSAGE_TRIGGERS } from './event-triggers.js';

/** The channel migration 0006's trigger notifies on every commit that wrote events. */
export const EVENTS_CHANNEL = 'docpipe_case_events';
/** Events moved per transaction. */
const BATCH = 500;
/** The poll beside the notifications: one missed while the listener reconnected is found. */
export const DEFAULT_RELAY_POLL_MS = 2_000;
const RECONNECT_MS = 1_000;

export interface OutboxRelayOptions {
  db: Kysely<Database>;
  /** For the listener's own connection (LISTEN holds it). */
  databaseUrl: string;
  queue: Pick<EventQueue, 'publish'>;
  logger?: Logger;
  /** @defaultValue DEFAULT_RELAY_POLL_MS */
  pollMs?: number;
  /**
   * Called after a batch is on the queue and before it is marked published: the crash test
   * kills the process exactly there.
   */
  afterPublish?: (eventIds: readonly string[]) => void | Promise<void>;
}

/**
 * Moves outbox rows (case_events without published_at) to the events queue, oldest first. Each
 * batch is selected FOR UPDATE SKIP LOCKED, added to the queue, and marked published in the same
 * transaction: relays in several workers share the rows without taking one twice, and a relay
 * that dies between the add and the commit leaves its rows unpublished, so they are added again
 * by the next run under the same job ids (one job each: BullMQ keeps a job id's job a day). An
 * event is therefore on the queue at least once and handled as one. Woken by PostgreSQL's
 * notification at each commit that wrote events, and by a poll in case one was missed.
 */
export class OutboxRelay {
  private listener: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;

  private constructor(private readonly options: OutboxRelayOptions) {}

  static async start(options: OutboxRelayOptions): Promise<OutboxRelay> {
    const relay = new OutboxRelay(options);
    await relay.listen();
    relay.timer = setInterval(() => relay.wake(), options.pollMs ?? DEFAULT_RELAY_POLL_MS);
    relay.timer.unref();
    relay.wake();
    return relay;
  }

  private async listen(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.options.databaseUrl });
    client.on('notification', () => this.wake());
    client.on('error', (err) => {
      this.options.logger?.warn(
        { err },
        'the outbox relay lost its listening connection; reconnecting',
      );
      if (this.listener === client) this.listener = undefined;
      client.end().catch(() => undefined);
      setTimeout(() => void this.listen().catch(() => undefined), RECONNECT_MS).unref();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
      this.listener = client;
    } catch (err) {
      await client.end().catch(() => undefined);
      this.options.logger?.warn({ err }, 'the outbox relay cannot listen; it polls until it can');
      setTimeout(() => void this.listen().catch(() => undefined), RECONNECT_MS).unref();
    }
  }

  /** Runs the relay now, or once more after the run under way. */
  wake(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .then(() => undefined)
      .catch((err: unknown) =>
        this.options.logger?.warn({ err }, 'the outbox relay failed; it tries again'),
      )
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Publishes every unpublished event; the number published. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const moved = await this.publishBatch();
      total += moved;
      if (moved < BATCH || this.closed) return total;
    }
  }

  private async publishBatch(): Promise<number> {
    const { db, queue } = this.options;
    return db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('case_events')
        .select(['id', 'company_id', 'case_id', 'trigger'])
        .where('published_at', 'is', null)
        .orderBy('created_at')
        .orderBy('id')
        .limit(BATCH)
        .forUpdate()
        .skipLocked()
        .execute();
      if (rows.length === 0) return 0;
      // An event nothing acts on (no message is its, no active webhook of its company receives
      // it: an invitation's own event, mostly) is marked published without a job. A web-flow's
      // events always have work (its invitations, its case).
      const companies = [...new Set(rows.map((r) => r.company_id))];
      const hooks = await trx
        .selectFrom('webhooks')
        .select(['company_id', 'triggers'])
        .where('active', '=', true)
        .where('company_id', 'in', companies)
        .execute();
      const wanted = rows.filter(
        (r) =>
          (r.case_id === null ? FLOW_TRIGGERS : MESSAGE_TRIGGERS).has(r.trigger) ||
          hooks.some((h) => h.company_id === r.company_id && receives(h.triggers, r.trigger)),
      );
      await queue.publish(
        wanted.map((r) => ({
          eventId: r.id,
          company: r.company_id,
          caseId: r.case_id,
          trigger: r.trigger,
        })),
      );
      await this.options.afterPublish?.(rows.map((r) => r.id));
      await trx
        .updateTable('case_events')
        .set({ published_at: new Date() })
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      return rows.length;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }
}
