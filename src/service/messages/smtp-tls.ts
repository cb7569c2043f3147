/**
 * How an `smtp://` connection uses STARTTLS, from `DOCPIPE_SMTP_URL`'s `?tls=`:
 * - `required`: STARTTLS or nothing: a server that offers none gets no AUTH and no message.
 * - `opportunistic`: STARTTLS when the server offers it, else the session (AUTH too) in clear.
 * - `none`: never STARTTLS (a relay on the same host whose certificate cannot be checked).
 * `smtps://` is TLS from the first byte (`implicit`) and takes no `?tls=`.
 */
export type SmtpTls = 'required' | 'opportunistic' | 'none' | 'implicit';

export const SMTP_TLS_PARAMETER = 'tls';

const CHOICES = ['required', 'opportunistic', 'none'] as const;

/**
 * The STARTTLS use of an SMTP URL, or the problem with its `?tls=`. Without `?tls=`, a URL with
 * a user name requires TLS, so that its password never goes over the wire in clear (nodemailer
 * would send AUTH unencrypted to a server that offers no STARTTLS, or to one in the middle that
 * strips the offer); one without stays opportunistic, as a relay on port 25 often has no TLS.
 */
export function smtpTlsOf(url: URL): { tls: SmtpTls } | { problem: string } {
  const given = url.searchParams.getAll(SMTP_TLS_PARAMETER);
  if (url.protocol === 'smtps:')
    return given.length === 0
      ? { tls: 'implicit' }
      : { problem: '?tls= is for smtp:// (smtps:// is TLS from its first byte): leave it out' };
  if (given.length === 0) return { tls: url.username ? 'required' : 'opportunistic' };
  const [choice] = given;
  if (given.length > 1 || !(CHOICES as readonly string[]).includes(choice!))
    return {
      problem: `?tls= must be one of ${CHOICES.join(', ')} (got ${given.map((g) => JSON.stringify(g)).join(', ')})`,
    };
  return { tls: choice as SmtpTls };
}
