import type { Kysely } from 'kysely';
import { RecordNotFoundError } from '../companies/index.js';
import type { Database } from '../db/index.js';
import { partnerTriggerAllowed } from './partner-trigger.js';
import { checkWebhook, type NewWebhook } from './webhook-input.js';
import { isUuid, webhookOf, type Webhook, type WebhookRun } from './webhook-records.js';
import { newWebhookSecret } from './webhook-secret.js';

/** `runs` without a limit. */
export const DEFAULT_RUNS_LIMIT = 20;
const MAX_RUNS_LIMIT = 1000;

const FOREIGN_KEY_VIOLATION = '23503';

/**
 * A company's webhooks in PostgreSQL, and the recent runs of each. Every query names the
 * company when one is given (the HTTP surfaces give theirs); the operator's CLI works on all.
 */
export class WebhookRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Adds the webhook `input` describes, with a new secret: DocpipeError `validation-failed`
   * with every problem, RecordNotFoundError for an unknown company. The secret is returned
   * here and never again (it is kept to sign with, but no read answers it).
   */
  async add(company: string, input: NewWebhook): Promise<{ webhook: Webhook; secret: string }> {
    const checked = checkWebhook(input, {
      partnerTrigger: await partnerTriggerAllowed(this.db, company, input.triggers),
    });
    const secret = newWebhookSecret();
    try {
      const row = await this.db
        .insertInto('webhooks')
        .values({
          company_id: company,
          url: checked.url,
          method: checked.method,
          active: checked.active,
          headers: JSON.stringify(checked.headers),
          triggers: JSON.stringify(checked.triggers),
          secret,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { webhook: webhookOf(row), secret };
    } catch (err) {
      if ((err as { code?: unknown }).code === FOREIGN_KEY_VIOLATION)
        throw new RecordNotFoundError('company', company);
      throw err;
    }
  }

  /** The webhooks of a company (RecordNotFoundError when there is no such company), or all. */
  async list(company?: string): Promise<Webhook[]> {
    if (company !== undefined) await this.requireCompany(company);
    let query = this.db.selectFrom('webhooks').selectAll();
    if (company !== undefined) query = query.where('company_id', '=', company);
    const rows = await query.orderBy('company_id').orderBy('created_at').orderBy('id').execute();
    return rows.map(webhookOf);
  }

  /** The webhook with this id (of this company, when given), or undefined. */
  async find(id: string, company?: string): Promise<Webhook | undefined> {
    if (!isUuid(id)) return undefined;
    let query = this.db.selectFrom('webhooks').selectAll().where('id', '=', id);
    if (company !== undefined) query = query.where('company_id', '=', company);
    const row = await query.executeTakeFirst();
    return row && webhookOf(row);
  }

  /** Removes the webhook and, with it, its deliveries and their runs; undefined when absent. */
  async remove(id: string, company?: string): Promise<Webhook | undefined> {
    if (!isUuid(id)) return undefined;
    let query = this.db.deleteFrom('webhooks').where('id', '=', id);
    if (company !== undefined) query = query.where('company_id', '=', company);
    const row = await query.returningAll().executeTakeFirst();
    return row && webhookOf(row);
  }

  /**
   * Switches the webhook on or off; undefined when absent. An inactive webhook gets no new
   * deliveries, and its pending ones fail at their next try, saying why (replay them after).
   */
  async setActive(id: string, active: boolean, company?: string): Promise<Webhook | undefined> {
    if (!isUuid(id)) return undefined;
    let query = this.db
      .updateTable('webhooks')
      .set({ active, updated_at: new Date() })
      .where('id', '=', id);
    if (company !== undefined) query = query.where('company_id', '=', company);
    const row = await query.returningAll().executeTakeFirst();
    return row && webhookOf(row);
  }

  /** The webhook's latest attempts, newest first, each with its delivery. */
  async runs(
    id: string,
    options: { company?: string; limit?: number } = {},
  ): Promise<WebhookRun[]> {
    if (!isUuid(id)) return [];
    const limit = Math.min(Math.max(1, options.limit ?? DEFAULT_RUNS_LIMIT), MAX_RUNS_LIMIT);
    let query = this.db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select([
        'a.delivery_id',
        'a.attempt',
        'a.started_at',
        'a.duration_ms',
        'a.status',
        'a.error',
        'a.response',
        'd.event_id',
        'd.case_id',
        'd.trigger',
        'd.status as delivery_status',
      ])
      .where('d.webhook_id', '=', id);
    if (options.company !== undefined) query = query.where('d.company_id', '=', options.company);
    const rows = await query
      .orderBy('a.started_at', 'desc')
      .orderBy('a.attempt', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      deliveryId: r.delivery_id,
      eventId: r.event_id,
      caseId: r.case_id,
      trigger: r.trigger,
      attempt: r.attempt,
      startedAt: r.started_at,
      durationMs: r.duration_ms,
      status: r.status,
      error: r.error,
      response: r.response,
      deliveryStatus: r.delivery_status,
    }));
  }

  private async requireCompany(company: string): Promise<void> {
    const found = await this.db
      .selectFrom('companies')
      .select('id')
      .where('id', '=', company)
      .executeTakeFirst();
    if (!found) throw new RecordNotFoundError('company', company);
  }
}
