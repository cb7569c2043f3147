import { dirname } from 'node:path';
import { deliveryOf, notAttempted, type ChannelReport } from '../cases/index.js';
import type { ChannelName, ChannelResult } from '../messages/index.js';
import type { EventOutcome } from './event-queue.js';

/**
 * One channel's report of several messages: ok when every one went; `location` says where (an
 * .eml file, the SMTP Message-ID): the one message's, or the folder all of them were written to.
 */
export function combined(sent: readonly { result: ChannelResult }[]): ChannelResult {
  const failed = sent.filter((s) => !s.result.ok);
  if (failed.length === 0) {
    const places = sent.flatMap((s) => (s.result.location ? [s.result.location] : []));
    if (places.length === 1) return { ok: true, location: places[0]! };
    const folders = new Set(places.map((p) => (p.startsWith('/') ? dirname(p) : '')));
    const [folder] = [...folders];
    return folders.size === 1 && folder ? { ok: true, location: folder } : { ok: true };
  }
  const errors = [...new Set(failed.map((f) => f.result.error ?? 'not sent'))];
  const of = failed.length === sent.length ? '' : ` (${failed.length} of ${sent.length})`;
  return { ok: false, error: `${errors.join('; ')}${of}` };
}

/** Every message channel unused, for one reason. */
export function channelsNot(why: string): Record<ChannelName, ChannelReport> {
  return { email: notAttempted(why), sms: notAttempted(why), eboks: notAttempted(why) };
}

/** Nothing sent and no webhook: an event with nothing to do. */
export function notSent(why: string): EventOutcome {
  return deliveryOf({ ...channelsNot(why), webhook: notAttempted(why) });
}
