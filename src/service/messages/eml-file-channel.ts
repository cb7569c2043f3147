import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../../base/log/index.js';
import { errorText, reported } from './channel-report.js';
import type { DeliveryConfig } from './delivery-config.js';
import { emailMessage } from './email-message.js';
import type { ChannelResult, MessageChannel, OutgoingMessage } from './message.js';

/**
 * E-mail without a mail server: each message composed exactly as SMTP would send it (nodemailer's
 * stream transport, CRLF lines, DKIM-signed when configured) and written as an .eml file that any
 * mail program opens. The file holds a signing link, so it is readable by docpipe's user alone
 * (0600, in a 0700 folder), and it appears whole or not at all (written beside, then renamed).
 */
export function emlFileChannel(
  config: DeliveryConfig & { email: { kind: 'file'; dir: string } },
  logger: Logger,
): MessageChannel {
  const dir = config.email.dir;
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
    disableFileAccess: true,
    disableUrlAccess: true,
    ...(config.dkim ? { dkim: config.dkim } : {}),
  });
  return {
    name: 'email',
    configured: true,
    async send(m: OutgoingMessage): Promise<ChannelResult> {
      let result: ChannelResult;
      try {
        const info = await transport.sendMail(await emailMessage(m, config));
        const path = join(dir, emlFileName(new Date(), m));
        await writeAtomically(dir, path, info.message as Buffer);
        result = { ok: true, location: path };
      } catch (err) {
        result = { ok: false, error: errorText(err) };
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
 * `2026-05-14T10-30-12.123Z_<case>_<kind>_<random>.eml` for a case's message, and
 * `2026-05-14T10-30-12.123Z_<label>_<random>.eml` for one of no case (an account's
 * `confirm-email`): sorted by name is sorted by time, and the name says which message it is in
 * words a person reading the folder knows. The case id and the label are cut to safe characters
 * (neither is ever a path), and the random part keeps two messages of one millisecond apart.
 */
export function emlFileName(
  at: Date,
  m: Pick<OutgoingMessage, 'kind' | 'fileLabel'> & { case: Pick<OutgoingMessage['case'], 'id'> },
): string {
  const stamp = at.toISOString().replace(/:/g, '-');
  const what =
    m.fileLabel === undefined
      ? `${safePart(m.case.id) || 'case'}_${m.kind}`
      : safePart(m.fileLabel) || m.kind;
  return `${stamp}_${what}_${randomBytes(4).toString('hex')}.eml`;
}

function safePart(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
}

async function writeAtomically(dir: string, path: string, data: Buffer): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temporary = join(dir, `.${randomBytes(8).toString('hex')}.tmp`);
  try {
    const file = await open(temporary, 'wx', 0o600);
    try {
      await file.writeFile(data);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } finally {
    await rm(temporary, { force: true });
  }
}
