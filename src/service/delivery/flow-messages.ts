import { linkBase } from '../cases/index.js';
import type { OutgoingMessage } from '../messages/index.js';
import { webflowTokenFor, webflowUrl } from '../webflows/index.js';
import { flowRunning, type FlowContext } from './flow-context.js';
import type { LedgerRow } from './message-ledger.js';

/** Why a web-flow's message is not sent: for good (no later try would send it). */
export class FlowMessageRefused extends Error {}

/**
 * The message of a web-flow's ledger row, with the person's link written again from the signing
 * secret (webflowTokenFor): the token is never stored, only its SHA-256, which the link is
 * checked against. Throws FlowMessageRefused when the message must not go: the flow or its
 * person is gone, the flow no longer takes answers, the person has answered (a reminder), or
 * the link cannot be written again (another signing secret).
 */
export function flowMessageOf(
  row: LedgerRow,
  c: FlowContext | undefined,
  deps: { signingSecret: string; publicUrl: () => string },
  now: Date,
): OutgoingMessage {
  if (!c) throw new FlowMessageRefused('the web-flow is gone');
  const person = c.people.find((p) => p.id === row.flowRecipientId);
  if (!person) throw new FlowMessageRefused('the person asked is gone from the web-flow');
  if (!flowRunning(c, now))
    throw new FlowMessageRefused(
      `not sent: the web-flow is ${c.state === 'pending' || c.state === 'in_progress' ? 'expired' : c.state}`,
    );
  if (row.kind === 'flow-reminder' && person.status === 'answered')
    throw new FlowMessageRefused('not sent: the person has sent their answers');
  const { token, hash } = webflowTokenFor(deps.signingSecret, person.id);
  if (!hash.equals(person.tokenHash))
    throw new FlowMessageRefused(
      'the web-flow link cannot be written again: the flow was made with another signing secret (DOCPIPE_SIGNING_SECRET changed)',
    );
  return {
    id: row.id,
    kind: row.kind,
    language: person.language,
    to: { name: person.name, email: person.email },
    company: { name: c.company.name },
    sender: c.sender,
    case: { id: c.id, title: c.title, expiresAt: c.expiresAt, message: c.message },
    template: null,
    signingUrl: flowLink(c.company.signingDomain, deps.publicUrl(), token),
    ...(row.kind === 'flow-reminder'
      ? { reminder: { number: row.sequence, of: c.reminders.amount } }
      : {}),
  };
}

/** The person's page, `/flow/<token>`, under the company's link base, as its signing links are. */
export function flowLink(signingDomain: string | null, publicUrl: string, token: string): string {
  return webflowUrl(linkBase(signingDomain, publicUrl), token);
}
