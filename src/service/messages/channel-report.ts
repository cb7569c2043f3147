import type { Logger } from '../../base/log/index.js';
import type { ChannelName, ChannelResult, OutgoingMessage } from './message.js';

/**
 * Logs what became of a message: its case, kind and channel and the result, never its body or
 * its signing link (a token). The error is the server's or gateway's answer with the message's
 * signing link taken out, should the answer quote it back.
 */
export function reported(
  logger: Logger,
  channel: ChannelName,
  m: OutgoingMessage,
  result: ChannelResult,
): ChannelResult {
  const out: ChannelResult = result.error
    ? { ...result, error: withoutSecrets(result.error, m) }
    : result;
  // A web-flow's messages are about the flow (OutgoingMessage.case holds its id): said so.
  const about = m.kind.startsWith('flow-') ? { flow: m.case.id } : { caseId: m.case.id };
  const fields = { ...about, kind: m.kind, channel, ok: out.ok };
  // The location is an .eml path or a Message-ID or gateway id: where to look, no secret.
  if (out.ok) logger.info({ ...fields, location: out.location }, 'message sent');
  else logger.warn({ ...fields, error: out.error }, 'message not sent');
  return out;
}

/** An error as one line of at most 500 characters, without the message's signing link. */
export function withoutSecrets(error: string, m: OutgoingMessage): string {
  let text = error;
  if (m.signingUrl) text = text.split(m.signingUrl).join('<signing link>');
  // eslint-disable-next-line no-control-regex
  text = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}

/** An exception as a channel's error: the message, never a stack. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
