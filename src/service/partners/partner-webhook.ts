import { sql, type Kysely } from 'kysely';
import type { Logger } from '../../base/log/index.js';
import type { Database } from '../db/index.js';
import type { KeyStore } from '../keys/index.js';
import {
  PARTNER_TRIGGER,
  partnerTriggerAllowed,
  resolveDestination,
  sendWebhookRequest,
  unsendableHeader,
  type LookupAll,
} from '../webhooks/index.js';

/** The longest a sign-up waits for the partner's receivers: spec 6 says a slow one slows it. */
export const PARTNER_WEBHOOK_TIMEOUT_MS = 5_000;

/** The name of the key the partner webhook hands over, as the customer's key list shows it. */
export const PARTNER_KEY_NAME = 'Partner integration';

export interface PartnerWebhookDeps {
  db: Kysely<Database>;
  keys: Pick<KeyStore, 'create'>;
  /** DOCPIPE_WEBHOOK_ALLOW_PRIVATE: the same destinations as every webhook. */
  allowPrivate: boolean;
  lookup?: LookupAll;
  /** @defaultValue PARTNER_WEBHOOK_TIMEOUT_MS */
  timeoutMs?: number;
  logger?: Logger;
}

/** The new customer whose key goes to its partner. */
export interface NewCustomer {
  partner: string;
  companyId: string;
  name: string;
  cvr: string;
  /** The admin who signed up: the key acts as them. */
  adminEmail: string;
}

/** What became of one receiver's one request: its HTTP status, or why there was none. */
export interface PartnerDelivery {
  webhookId: string;
  status?: number;
  error?: string;
}

/**
 * Spec 6's `partner.customer.registered`, at sign-up, after the customer's company is written and
 * only when the customer ticked the consent (the caller's part): when the partner is an active
 * partner with `webhookEnabled` and has at least one active webhook naming this trigger, a key is
 * made for the new admin (never expiring, listed as a partner integration, spec 5.6) and sent to
 * each such webhook once: exactly `{trigger, company: {id, name, cvr, apiKey}}`, with the
 * webhook's method and headers and `Content-Type: application/json` unless it sets one; not
 * signed, never retried nor sent again, written to no run, to the destinations every webhook may
 * reach. Otherwise, and when no receiver may be sent to (each destination and header is checked
 * before the key exists), no key is made. Every request shares one deadline, so that the sign-up waits
 * at most `timeoutMs`. The key and the body are in no log line and no row but the key's hash.
 */
export async function handOverCustomerKey(
  deps: PartnerWebhookDeps,
  customer: NewCustomer,
): Promise<{ keyId?: string; deliveries: PartnerDelivery[] }> {
  if (!(await partnerTriggerAllowed(deps.db, customer.partner, [PARTNER_TRIGGER])))
    return { deliveries: [] };
  const webhooks = await deps.db
    .selectFrom('webhooks')
    .select(['id', 'url', 'method', 'headers'])
    .where('company_id', '=', customer.partner)
    .where('active', '=', true)
    .where(sql<boolean>`triggers @> ${JSON.stringify([PARTNER_TRIGGER])}::jsonb`)
    .orderBy('created_at')
    .execute();
  if (webhooks.length === 0) return { deliveries: [] };
  const timeoutMs = deps.timeoutMs ?? PARTNER_WEBHOOK_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  // Each receiver's destination and headers checked before the key exists: a key that no
  // receiver may be sent (a private address, a header that cannot be sent) is never made.
  const checked = await Promise.all(
    webhooks.map(async (w) => {
      const bad = unsendableHeader(w.headers);
      if (bad !== undefined)
        return { webhook: w, error: `a header cannot be sent (${bad})` } as const;
      try {
        const url = new URL(w.url);
        const address = await withDeadline(
          resolveDestination(url, { allowPrivate: deps.allowPrivate, lookup: deps.lookup }),
          deadline,
        );
        return { webhook: w, url, address } as const;
      } catch (err) {
        return { webhook: w, error: err instanceof Error ? err.message : String(err) } as const;
      }
    }),
  );
  const refused = checked.flatMap((c): PartnerDelivery[] =>
    'error' in c ? [{ webhookId: c.webhook.id, error: c.error }] : [],
  );
  const sendable = checked.flatMap((c) => ('error' in c ? [] : [c]));
  if (sendable.length === 0) {
    deps.logger?.warn(
      { partner: customer.partner, company: customer.companyId, deliveries: refused },
      "no partner webhook may receive a referred customer's key: none was made",
    );
    return { deliveries: refused };
  }
  const key = await deps.keys.create({
    company: customer.companyId,
    user: customer.adminEmail,
    name: PARTNER_KEY_NAME,
    partner: customer.partner,
  });
  const body = JSON.stringify({
    trigger: PARTNER_TRIGGER,
    company: {
      id: customer.companyId,
      name: customer.name,
      cvr: customer.cvr,
      apiKey: key.key,
    },
  });
  const sent = await Promise.all(
    sendable.map(async ({ webhook: w, url, address }): Promise<PartnerDelivery> => {
      const headers = w.headers;
      try {
        const own = Object.keys(headers).map((h) => h.toLowerCase());
        const answer = await sendWebhookRequest({
          url,
          method: w.method,
          headers: {
            ...(own.includes('content-type') ? {} : { 'Content-Type': 'application/json' }),
            ...headers,
          },
          body,
          address,
          timeoutMs: Math.max(1, deadline - Date.now()),
        });
        return { webhookId: w.id, status: answer.status };
      } catch (err) {
        return { webhookId: w.id, error: err instanceof Error ? err.message : String(err) };
      }
    }),
  );
  const deliveries = [...refused, ...sent];
  // Which receivers answered what, never the key nor the body.
  deps.logger?.info(
    { partner: customer.partner, company: customer.companyId, key: key.id, deliveries },
    "a referred customer's key was sent to its partner",
  );
  return { keyId: key.id, deliveries };
}

/** `promise`, or a rejection at `deadline` (a resolver that does not answer). */
function withDeadline<T>(promise: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error('no answer before the sign-up could wait no longer')),
      Math.max(0, deadline - Date.now()),
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
