/** An e-mail address with the name shown beside it. */
export interface MailAddress {
  name: string;
  address: string;
}

/**
 * How messages leave docpipe: read from the environment by loadDeliveryConfig (src/app/config),
 * which names each variable; docs/delivery.md and docs/configuration.md describe them.
 */
export interface DeliveryConfig {
  /**
   * `DOCPIPE_SMTP_URL` (`smtp://user:pass@host:587`, `smtps://host:465`): e-mail over SMTP; or,
   * without it, each message written as an .eml file into `DOCPIPE_MAIL_DIR`. An smtp:// URL's
   * `?tls=` says how STARTTLS is used (smtp-tls.ts): required by default with a user name.
   * @defaultValue `{ kind: 'file', dir: DOCPIPE_DATA_DIR/mail }`
   */
  email: { kind: 'smtp'; url: string } | { kind: 'file'; dir: string };
  /** `DOCPIPE_MAIL_FROM`: the From of every message. @defaultValue `docpipe <noreply@localhost>` */
  from: MailAddress;
  /** `DOCPIPE_DKIM_DOMAIN`, `DOCPIPE_DKIM_SELECTOR`, `DOCPIPE_DKIM_KEY_FILE` (the key's PEM). @defaultValue none: unsigned */
  dkim?: { domainName: string; keySelector: string; privateKey: string };
  /**
   * `DOCPIPE_MAIL_ATTACH_MAX_BYTES`: the signed copy attaches its PDFs when together they are at
   * most this, else links them (0: always links). @defaultValue {@link DEFAULT_ATTACH_MAX_BYTES}
   */
  attachMaxBytes: number;
  /** `DOCPIPE_SMS_URL`, `DOCPIPE_SMS_AUTHORIZATION`, `DOCPIPE_SMS_FROM`. @defaultValue none: SMS not configured */
  sms?: { url: string; authorization?: string; from?: string };
  /** `DOCPIPE_TIME_ZONE`: the zone dates in messages are shown in. @defaultValue 'Europe/Copenhagen' */
  timeZone: string;
  /**
   * How long a connection, a greeting, an idle socket or an SMS gateway's answer may take before
   * the attempt fails: a dead server costs one bounded attempt. @defaultValue {@link DEFAULT_DELIVERY_TIMEOUT_MS}
   */
  timeoutMs: number;
}

/** 10 MB of PDFs is about 13.7 MB once base64-encoded: within the 20 to 25 MB most mail servers take. */
export const DEFAULT_ATTACH_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
export const DEFAULT_MAIL_FROM: MailAddress = { name: 'docpipe', address: 'noreply@localhost' };
