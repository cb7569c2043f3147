import type { Selectable } from 'kysely';
import type { Database } from '../db/index.js';
import type { WebhookMethod } from './webhook-input.js';

/** A company's webhook, without its secret (shown once, when it is added). */
export interface Webhook {
  id: string;
  company: string;
  url: string;
  method: WebhookMethod;
  active: boolean;
  /** Name to value; a value may be the receiver's own shared secret: print names only. */
  headers: Record<string, string>;
  triggers: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** One try of one delivery, as `docpipe webhooks runs` lists them. */
export interface WebhookRun {
  deliveryId: string;
  eventId: string;
  caseId: string | null;
  trigger: string;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  /** The answer's HTTP status; null when none came (refused, timed out, unreachable). */
  status: number | null;
  error: string | null;
  /** The start of the answer's body (1 KB at most). */
  response: string | null;
  /** Where the delivery stands now. */
  deliveryStatus: 'pending' | 'succeeded' | 'failed';
}

export type WebhookRow = Selectable<Database['webhooks']>;
export type DeliveryRow = Selectable<Database['webhook_deliveries']>;

export function webhookOf(row: WebhookRow): Webhook {
  return {
    id: row.id,
    company: row.company_id,
    url: row.url,
    method: row.method,
    active: row.active,
    headers: row.headers,
    triggers: row.triggers,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `id` can be a webhook's or a delivery's id (anything else is absent, not a SQL error). */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/** A webhook's URL as reports and logs show it: its query, which may hold a token, left out. */
export function shownUrl(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}
