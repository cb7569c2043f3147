import { createServer, type Server, type Socket } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message the test SMTP server accepted: its envelope, its bytes, and mailparser's reading. */
export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  /** The user that logged in, when the server asks for one. */
  user?: string;
  raw: Buffer;
  parsed: ParsedMail;
}

/** An SMTP answer the server gives instead of accepting: `550 5.1.1 mailbox unavailable`. */
export interface SmtpRefusal {
  code: number;
  message: string;
  /** Which command is refused. @defaultValue 'rcpt' */
  at?: 'mail' | 'rcpt' | 'data';
}

export interface SmtpTestServer {
  port: number;
  /** `smtp://[user:pass@]127.0.0.1:<port>`, as DOCPIPE_SMTP_URL takes it. */
  url: string;
  /** Every accepted message, in order. */
  messages: ReceivedMail[];
  /** The next message not yet taken by nextMessage (those already received first, in order). */
  nextMessage(): Promise<ReceivedMail>;
  /** From now on refuse with `refusal` (null: accept again). */
  refuse(refusal: SmtpRefusal | null): void;
  /** Connections opened so far. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * A real SMTP server (the smtp-server package) on 127.0.0.1 at a free port, keeping every
 * message parsed by mailparser. Plain SMTP without STARTTLS (nodemailer would refuse the
 * server's self-signed certificate); with `users`, AUTH PLAIN/LOGIN is required and checked.
 */
export async function startSmtpServer(
  options: { users?: Record<string, string> } = {},
): Promise<SmtpTestServer> {
  const messages: ReceivedMail[] = [];
  const waiting: ((m: ReceivedMail) => void)[] = [];
  let taken = 0;
  let refusal: SmtpRefusal | null = null;
  let connections = 0;
  const refused = (at: SmtpRefusal['at']): Error | null => {
    if (!refusal || (refusal.at ?? 'rcpt') !== at) return null;
    return Object.assign(new Error(refusal.message), { responseCode: refusal.code });
  };
  const users = options.users;
  const server = new SMTPServer({
    disabledCommands: users ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    authOptional: !users,
    logger: false,
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onAuth(auth, _session, callback) {
      if (users && auth.username !== undefined && users[auth.username] === auth.password)
        callback(null, { user: auth.username });
      else callback(Object.assign(new Error('5.7.8 invalid credentials'), { responseCode: 535 }));
    },
    onMailFrom(_address, _session, callback) {
      callback(refused('mail'));
    },
    onRcptTo(_address, _session, callback) {
      callback(refused('rcpt'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const error = refused('data');
        if (error) return callback(error);
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            const mail: ReceivedMail = {
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              ...(typeof session.user === 'string' ? { user: session.user } : {}),
              raw,
              parsed,
            };
            messages.push(mail);
            const next = waiting.shift();
            if (next) {
              taken += 1;
              next(mail);
            }
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as { port: number }).port;
  const credentials = users ? Object.entries(users)[0] : undefined;
  const auth = credentials
    ? `${encodeURIComponent(credentials[0])}:${encodeURIComponent(credentials[1])}@`
    : '';
  return {
    port,
    url: `smtp://${auth}127.0.0.1:${port}`,
    messages,
    nextMessage() {
      if (taken < messages.length) return Promise.resolve(messages[taken++]!);
      return new Promise((resolve) => waiting.push(resolve));
    },
    refuse(r) {
      refusal = r;
    },
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A TCP server that accepts connections and never says a word: an SMTP server that hangs before
 * its greeting. Counts connections, so a test can tell how many attempts a send made.
 */
export async function startSilentServer(): Promise<{
  port: number;
  url: string;
  connections: () => number;
  close: () => Promise<void>;
}> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
