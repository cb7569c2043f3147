import { attempted, deliveryOf, type CaseDelivery, type Delivery } from '../cases/index.js';
import type { EventQueue } from './event-queue.js';

/** How long case creation waits for the first delivery: a webhook's 10 s timeout and some. */
export const DEFAULT_DELIVERY_WAIT_MS = 15_000;

/**
 * Case creation's delivery through the events queue: the `case.created` job is added as soon as
 * the case is committed (the outbox relay adds it too, a moment later; the job id makes it one),
 * and the answer waits for the job's first delivery over each channel. When the wait ends first
 * (no worker is running, a receiver is slow), the answer says the messages are on their way:
 * they are sent all the same, and a failed channel never fails the created case.
 */
export class QueueCaseDelivery implements CaseDelivery {
  constructor(
    private readonly queue: Pick<EventQueue, 'publish' | 'outcome'>,
    private readonly waitMs = DEFAULT_DELIVERY_WAIT_MS,
  ) {}

  async firstDelivery(event: {
    eventId: string;
    company: string;
    caseId: string;
    trigger: string;
  }): Promise<Delivery> {
    try {
      await this.queue.publish([event]);
      const outcome = await this.queue.outcome(event.eventId, this.waitMs);
      if (outcome) return outcome;
      return pending(
        `still being sent after ${Math.round(this.waitMs / 1000)} s (is a worker running?): it is sent in the background; the case's events say when`,
      );
    } catch (err) {
      // Redis did not take the job: the outbox relay publishes the event when it can.
      return pending(`queued: ${(err as Error).message}; the outbox relay sends it when it can`);
    }
  }
}

/** Not known to have gone yet: not ok (a client should not take it as sent), but tried. */
function pending(why: string): Delivery {
  const channel = attempted({ ok: false, error: why });
  return deliveryOf({ email: channel, eboks: channel, sms: channel, webhook: channel });
}
