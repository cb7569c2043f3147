import nodemailer from 'nodemailer';
import type { Logger } from '../../base/log/index.js';
import { safeUrl } from '../../base/util/index.js';
import { errorText, reported } from './channel-report.js';
import type { DeliveryConfig } from './delivery-config.js';
import { emailMessage, UnsendableMessage } from './email-message.js';
import type { ChannelResult, MessageChannel, OutgoingMessage } from './message.js';
import { smtpTlsOf, type SmtpTls } from './smtp-tls.js';

/**
 * Messages in flight on one pooled transport: a pool keeps a connection to the server open
 * between messages, so a burst of invitations does not pay a TCP and TLS handshake each.
 */
const MAX_CONNECTIONS = 3;

/**
 * E-mail over SMTP (nodemailer, pooled), with STARTTLS as `?tls=` says (smtp-tls.ts: required
 * by default when the URL holds credentials). Every wait is bounded by `timeoutMs` (connection,
 * greeting, an idle socket), and a message whose connection drops is not put back in the pool's
 * queue: a dead server costs one bounded attempt, and the retry is the caller's to schedule.
 */
export function smtpChannel(
  config: DeliveryConfig & { email: { kind: 'smtp'; url: string } },
  logger: Logger,
): MessageChannel {
  const url = new URL(config.email.url);
  const secure = url.protocol === 'smtps:';
  const mode = smtpTlsOf(url);
  // loadDeliveryConfig refused such a URL already: this is a caller that skipped it.
  if ('problem' in mode) throw new Error(`DOCPIPE_SMTP_URL: ${mode.problem}`);
  const { tls } = mode;
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: MAX_CONNECTIONS,
    maxRequeues: 0,
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    // nodemailer's own default is opportunistic: AUTH in clear when no STARTTLS is offered.
    requireTLS: tls === 'required',
    ignoreTLS: tls === 'none',
    ...(url.username
      ? {
          auth: {
            user: decodeURIComponent(url.username),
            pass: decodeURIComponent(url.password),
          },
        }
      : {}),
    connectionTimeout: config.timeoutMs,
    greetingTimeout: config.timeoutMs,
    socketTimeout: config.timeoutMs,
    disableFileAccess: true,
    disableUrlAccess: true,
    ...(config.dkim ? { dkim: config.dkim } : {}),
  });
  // A pooled connection's failure between messages is reported here, not thrown.
  transport.on('error', (err) =>
    logger.warn({ smtp: safeUrl(config.email.url), error: errorText(err) }, 'SMTP pool error'),
  );
  return {
    name: 'email',
    configured: true,
    async send(m: OutgoingMessage): Promise<ChannelResult> {
      let result: ChannelResult;
      try {
        const info = await transport.sendMail(await emailMessage(m, config));
        result = { ok: true, location: info.messageId };
      } catch (err) {
        result = { ok: false, error: smtpError(err, tls) };
      }
      return reported(logger, 'email', m, result);
    },
    close(): Promise<void> {
      transport.close();
      return Promise.resolve();
    },
  };
}

/**
 * The server's own answer when there is one (`550 5.1.1 mailbox unavailable`), else what went
 * wrong on the way (`Greeting never received`, `connect ECONNREFUSED 127.0.0.1:25`).
 */
function smtpError(err: unknown, tls: SmtpTls): string {
  if (err instanceof UnsendableMessage) return err.message;
  const e = err as { response?: unknown; code?: unknown; command?: unknown; message?: unknown };
  // The server answered STARTTLS with a refusal (it offers none), and the session stopped there.
  if (
    tls === 'required' &&
    e.code === 'ETLS' &&
    e.command === 'STARTTLS' &&
    typeof e.response === 'string' &&
    e.response.trim() !== ''
  )
    return (
      `the SMTP server offers no STARTTLS (it answered "${e.response.trim()}"), and TLS is required ` +
      '(the default when DOCPIPE_SMTP_URL holds a user name: the password never goes in clear); ' +
      'nothing was sent. Use smtps://, a server with STARTTLS, or add ?tls=opportunistic to the URL to allow it'
    );
  if (typeof e.response === 'string' && e.response.trim() !== '') return e.response;
  const message = errorText(err);
  return typeof e.code === 'string' && !message.includes(e.code)
    ? `${message} (${e.code})`
    : message;
}
