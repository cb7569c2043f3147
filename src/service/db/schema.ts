import type { ColumnType, Generated } from 'kysely';

/**
 * The service's tables as queries see them: the one description every typed query is checked
 * against. Each table's shape follows the latest migration (./migrations); a migration that
 * changes a table changes its interface here in the same commit.
 *
 * Columns are snake_case as in SQL. `Generated` marks a column the database fills when an insert
 * leaves it out; timestamps are read as Date.
 */
export interface Database {
  companies: CompaniesTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  folders: FoldersTable;
  presets: PresetsTable;
  message_templates: MessageTemplatesTable;
  cases: CasesTable;
  recipients: RecipientsTable;
  case_documents: CaseDocumentsTable;
  case_events: CaseEventsTable;
  case_audit: CaseAuditTable;
  forms: FormsTable;
  signatures: SignaturesTable;
  signing_logins: SigningLoginsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  messages: MessagesTable;
  contacts: ContactsTable;
  logins: LoginsTable;
  login_sessions: LoginSessionsTable;
  login_links: LoginLinksTable;
  recovery_codes: RecoveryCodesTable;
  partners: PartnersTable;
  credit_purchases: CreditPurchasesTable;
  credit_invoice_numbers: CreditInvoiceNumbersTable;
  credit_lines: CreditLinesTable;
  credit_balances: CreditBalancesTable;
  credit_settings: CreditSettingsTable;
  partner_kickbacks: PartnerKickbacksTable;
  partner_payouts: PartnerPayoutsTable;
  partner_consents: PartnerConsentsTable;
  webflows: WebflowsTable;
  webflow_recipients: WebflowRecipientsTable;
  webflow_answers: WebflowAnswersTable;
  webflow_idempotency: WebflowIdempotencyTable;
}

/** Set by the database on insert, never updated. */
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** A moment that may be unset (null) and set later. */
type Moment = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** A company: the tenant that owns everything else. Its id is the company id of the API (base/tenancy). */
export interface CompaniesTable {
  id: string;
  name: string;
  /** A disabled company's keys are refused (`company-disabled`). */
  disabled: Generated<boolean>;
  /** The host of its signing pages' URLs, when it has its own. */
  signing_domain: string | null;
  /** The language of its cases when a case names none (then Danish). */
  default_language: string | null;
  /** Whether a sealed case's signed copy goes to its sender too (migration 0008; default true). */
  send_signed_copy_to_sender: Generated<boolean>;
  /** The CVR number given at sign-up (migration 0009); null for companies made by the CLI. */
  cvr: string | null;
  /** The settings page's logo (PNG or JPEG by its bytes) and its media type. */
  logo: Buffer | null;
  logo_type: 'image/png' | 'image/jpeg' | null;
  /** Whether it was made by `/user/register` rather than by the operator. */
  created_by_signup: Generated<boolean>;
  /**
   * The company whose referral link it signed up through (migration 0017): written with the
   * company, never after (a trigger refuses any change).
   */
  referred_by: ColumnType<string | null, string | null | undefined, never>;
  created_at: CreatedAt;
}

/** How a case was made: `v3`, `v2` case create, a v2 `form` submit, or the `dashboard`. */
export type CaseSource = 'v3' | 'v2' | 'form' | 'dashboard';

/** A member of a company: the sender of its cases and the owner of API keys. */
export interface UsersTable {
  id: Generated<string>;
  company_id: string;
  /** Unique in the company, whatever its case. */
  email: string;
  name: string;
  admin: Generated<boolean>;
  /** The person who logs in as this member (migration 0009); null until an invitation is taken. */
  login_id: string | null;
  created_at: CreatedAt;
}

/**
 * An API key: its id is in the clear in the key itself (`dp_<id>_<secret>`), its secret only as
 * the SHA-256 of the whole key. `user_id` is null for keys copied from Redis (made before keys
 * had users: `copied_from_redis_at` is set, and they work), and becomes null when the user is
 * removed (`key-has-no-user`).
 */
export interface ApiKeysTable {
  id: string;
  company_id: string;
  user_id: string | null;
  name: string;
  hash: Buffer;
  created_at: CreatedAt;
  expires_at: Moment;
  revoked_at: Moment;
  /** When `docpipe db migrate` copied it from Redis (migration 0002); null for keys made here. */
  copied_from_redis_at: Moment;
  /** When it last authenticated a request (migration 0011), to the minute; null: not since. */
  last_used_at: Moment;
  /** The partner it was made for by the partner webhook (migration 0017): a partner integration. */
  partner_company_id: ColumnType<string | null, string | null | undefined, never>;
}

/** A folder of a company's cases; one per company is the default. Ids are unique per company. */
export interface FoldersTable {
  company_id: string;
  id: Generated<string>;
  name: string;
  is_default: Generated<boolean>;
  created_at: CreatedAt;
}

/** A named set of case settings, applied by `presetId`. */
export interface PresetsTable {
  company_id: string;
  id: Generated<string>;
  name: string;
  /** The case settings as the API takes them (JSON). */
  settings: ColumnType<unknown, string, string>;
  created_at: CreatedAt;
}

/** An invitation's subject and body, with placeholders, chosen by `messageTemplateId`. */
export interface MessageTemplatesTable {
  company_id: string;
  id: Generated<string>;
  name: string | null;
  subject: string;
  body: string;
  created_at: CreatedAt;
}

/** Set by the database on insert, and by the writer on each change. */
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/** JSON, written as its text (JSON.stringify) and read back parsed. */
type Json = ColumnType<unknown, string, string>;

/** A signing case (migration 0003). Its id is unique; every read names the company too. */
export interface CasesTable {
  company_id: string;
  id: Generated<string>;
  title: string;
  state: 'draft' | 'open' | 'signed' | 'denied' | 'expired';
  /** The folder it is filed in: one of the company's (foreign key on both columns). */
  folder_id: string;
  reference_id: string | null;
  /** The case's settings as given (a preset's beneath the body's), defaults filled in. */
  settings: Json;
  language: string;
  signing_schemas: Json;
  message_template_id: string | null;
  expires_at: Date;
  /** The lowest group with pending signers; null when nobody has to sign. */
  active_group: number | null;
  /** Every signer has signed (migration 0005): sealing is due. */
  completed_at: Moment;
  /** Its documents are sealed; the case is `signed` from then. */
  sealed_at: Moment;
  /** Reminders sent so far (migration 0006), and when the next is due (null: none due). */
  reminders_sent: Generated<number>;
  next_reminder_at: Moment;
  /** When expiry ended the case. */
  expired_at: Moment;
  /** Null when the member was removed since; their name and e-mail stay below. */
  sender_id: string | null;
  sender_name: string;
  sender_email: string;
  /** The API key that made it; null for a case made otherwise. */
  created_by_key: string | null;
  /** Where it came from (migration 0012); null for a case made before it recorded that. */
  source: ColumnType<CaseSource | null, CaseSource | null | undefined, CaseSource | null>;
  /** The member who made it in the dashboard (migration 0012); null when a key made it. */
  created_by_user: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * Its title, reference and recipients' names and e-mails, folded (migration 0016), for the
   * dashboard's search: written with the case by service/cases/case-search-text.ts.
   */
  search_text: ColumnType<string, string | undefined, string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** Who signs or receives a case. Only the SHA-256 of the signing token is kept. */
export interface RecipientsTable {
  company_id: string;
  case_id: string;
  id: Generated<string>;
  /** A short public id, unique in its case. */
  uid: string;
  /** Its place in the request's list, from 0. */
  position: number;
  name: string;
  email: string | null;
  phone: string | null;
  type: 'email' | 'sms' | 'eboks';
  signing: boolean;
  group: number;
  message_template_id: string | null;
  /** The v2 recipient fields v3 keeps (signingSchema, redirectUrl, position...), as given. */
  details: Json;
  status: 'pending' | 'signed' | 'denied';
  signing_token_hash: Buffer;
  /**
   * The recipient's CPR number, encrypted (migration 0004; service/forms' CprCipher: format and
   * key id, nonce, AES-256-GCM ciphertext and tag); null when none was given. Never the number.
   */
  cpr_encrypted: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
  /** When they signed or denied (migration 0005). */
  acted_at: Moment;
  denial_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** The address they denied from (migration 0008; a signer's is its signature's `ip`). */
  acted_ip: ColumnType<string | null, string | null | undefined, string | null>;
  /** When its invitation was sent (migration 0006); null until then. */
  invited_at: Moment;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** A case's document: its stored PDF (content, library) or the URL it came by (url). */
export interface CaseDocumentsTable {
  company_id: string;
  case_id: string;
  /** Its place in the request's `documents`, from 0. */
  index: number;
  name: string;
  source: 'content' | 'url' | 'library';
  storage_key: string | null;
  url: string | null;
  sha256: string | null;
  bytes: number | null;
  pages: number | null;
  library_document_id: string | null;
  library_version_id: string | null;
  /** Signature places (migration 0005): SignaturePlace[] in PDF points. */
  places: ColumnType<unknown, string | undefined, string>;
  /** v2 `documentMustBeRead`: the signer must page through it before signing. */
  must_be_read: Generated<boolean>;
  sealed_storage_key: ColumnType<string | null, string | null | undefined, string | null>;
  sealed_sha256: ColumnType<string | null, string | null | undefined, string | null>;
  sealed_bytes: ColumnType<number | null, number | null | undefined, number | null>;
  /** The document's evidence (hashes, fonts, page count, versions), written when it is sealed. */
  evidence: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: CreatedAt;
}

/**
 * The outbox: each event written in the transaction of its change, its payload fixed then, and
 * marked when the relay has published it.
 */
export interface CaseEventsTable {
  id: Generated<string>;
  company_id: string;
  /** The case; null for a web-flow's event (migration 0019): exactly one of the two. */
  case_id: string | null;
  /** The web-flow (migration 0019), for its events (`workflow.completed`). */
  flow_id: string | null;
  /** `case.created`, ... */
  trigger: string;
  payload: Json;
  created_at: CreatedAt;
  published_at: Moment;
}

/**
 * A case's audit record (migration 0014): something a member did to the case that fires no
 * webhook, such as taking a recipient's signing link (`signing-link-taken`).
 */
export interface CaseAuditTable {
  id: Generated<string>;
  company_id: string;
  case_id: string;
  action: 'signing-link-taken';
  /** The member; null once removed (their name stays). */
  user_id: string | null;
  user_name: string;
  recipient_id: string | null;
  created_at: CreatedAt;
}

/**
 * A v2 form (migration 0004): imported by `docpipe forms import`, replaced by a re-import of its
 * id. Its templates are in storage, under the keys its `documents` name.
 */
export interface FormsTable {
  company_id: string;
  /** The operator's id (form.json's, else the folder's name), unique in the company. */
  id: string;
  title: string;
  /** The folder its cases are filed in, by name; null: the company's default folder. */
  folder_name: string | null;
  active: Generated<boolean>;
  /** CaseSettings (spec 2.1), as form.json gives them. */
  settings: Json;
  /** TagDefinitions (spec 2.1): `_id`, `name`, `tag`, `value` (the default), `type`. */
  tags: Json;
  /** Preset recipients (v2 recipient input), as form.json gives them. */
  recipients: Json;
  /** Per document: name, storage key and SHA-256 of its template, its kind and v2 flags. */
  documents: Json;
  /** Whether it can start web-flows (form.json's `webflow`, migration 0018); needs `active`. */
  webflow: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/**
 * A recipient's signature (migration 0005): at most one per recipient. `image` is the drawn
 * signature re-encoded as PNG; `identity` the eID broker's claims (never a CPR number).
 */
export interface SignaturesTable {
  recipient_id: string;
  company_id: string;
  case_id: string;
  /** `draw`, `typed`, or the eID scheme (`urn:grn:authn:dk:mitid:substantial`, ...). */
  method: string;
  typed_name: string | null;
  image: Buffer | null;
  identity: ColumnType<unknown, string | null | undefined, string | null>;
  /** null: no CPR number was asked for. */
  cpr_matched: boolean | null;
  ip: string;
  user_agent: string;
  signed_at: CreatedAt;
}

/** An eID login under way (migration 0005), found by the SHA-256 of its OAuth state. */
export interface SigningLoginsTable {
  state_hash: Buffer;
  company_id: string;
  case_id: string;
  recipient_id: string;
  /** What the broker's answer is checked against: nonce, PKCE verifier, scheme. */
  pending: ColumnType<unknown, string, string>;
  expires_at: Date;
  /**
   * The SHA-256 of the value the starting browser holds in its cookie (migration 0007); null
   * for a login started before: its callback signs nothing.
   */
  browser_hash: ColumnType<Buffer | null, Buffer | undefined, Buffer | null>;
}

/** A company's webhook (migration 0006). `secret` signs its deliveries (HMAC-SHA256). */
export interface WebhooksTable {
  company_id: string;
  id: Generated<string>;
  url: string;
  method: Generated<'POST' | 'PUT' | 'PATCH'>;
  active: Generated<boolean>;
  /** Custom headers, name to value. */
  headers: ColumnType<Record<string, string>, string | undefined, string>;
  /** The triggers it receives (`case.created`, ...). */
  triggers: ColumnType<string[], string, string>;
  secret: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** One event to one webhook (migration 0006): its fixed body and its state. */
export interface WebhookDeliveriesTable {
  id: Generated<string>;
  company_id: string;
  webhook_id: string;
  event_id: string;
  case_id: string | null;
  trigger: string;
  /** The exact bytes sent on every try (JSON text). */
  body: string;
  status: Generated<'pending' | 'succeeded' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: Moment;
  last_status: number | null;
  last_error: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** One try of a delivery (migration 0006). */
export interface WebhookAttemptsTable {
  delivery_id: string;
  attempt: number;
  started_at: Date;
  duration_ms: number;
  /** The HTTP status; null when no answer came (refused, timed out). */
  status: number | null;
  error: string | null;
  /** The start of the answer's body, capped. */
  response: string | null;
}

/** A message a case sent or tried to send (migration 0006), once per addressee, channel, kind and sequence. */
export interface MessagesTable {
  id: Generated<string>;
  company_id: string;
  /** The case it belongs to; null for a web-flow's (migration 0019): exactly one of the two. */
  case_id: string | null;
  recipient_id: string | null;
  /** The web-flow it belongs to (migration 0019), when it is not a case's. */
  flow_id: string | null;
  /** The flow's person it goes to (webflow_recipients.id). */
  flow_recipient_id: string | null;
  /** The recipient's id, or `sender`. */
  addressee: string;
  channel: 'email' | 'sms' | 'eboks';
  kind: 'invitation' | 'reminder' | 'signed-copy' | 'denial' | 'flow-invitation' | 'flow-reminder';
  /** A reminder's number (from 1); 0 for the others. */
  sequence: Generated<number>;
  status: Generated<'pending' | 'sent' | 'failed'>;
  to_address: string | null;
  attempts: Generated<number>;
  /** Held by a sender until then. */
  claimed_until: Moment;
  /** When it is (tried) again: set while pending or failed with tries left; null otherwise. */
  next_attempt_at: Moment;
  error: string | null;
  /** Where it went: an .eml path, the SMTP Message-ID, the SMS gateway's id. */
  location: string | null;
  created_at: CreatedAt;
  sent_at: Moment;
}

/** Someone a company has sent a case to (migration 0006), unique by e-mail in the company. */
export interface ContactsTable {
  company_id: string;
  id: Generated<string>;
  name: string;
  email: string;
  phone: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/**
 * A person who logs in to the dashboard (migration 0009): one per e-mail address, a member of
 * one or more companies through `users.login_id`.
 */
export interface LoginsTable {
  id: Generated<string>;
  email: string;
  name: string;
  /** argon2id, as a PHC string; null for a login that only uses its company's OIDC provider. */
  password_hash: string | null;
  email_confirmed_at: Moment;
  /** The dashboard's language the person chose; null: the browser's, then Danish. */
  language: 'da' | 'en' | null;
  /** The TOTP secret, encrypted; set while two-factor log-in is being or has been turned on. */
  totp_secret: string | null;
  /** When two-factor log-in was turned on (the first code checked); null: off. */
  totp_enabled_at: Moment;
  /** The time step of the last TOTP code taken (migration 0010): a code of it or before is refused. */
  totp_last_step: ColumnType<number | null, number | null | undefined, number | null>;
  password_changed_at: Moment;
  created_at: CreatedAt;
}

/** A browser's dashboard session; its token is stored as SHA-256 only. */
export interface LoginSessionsTable {
  id: Generated<string>;
  token_hash: Buffer;
  login_id: string;
  /** The membership (company) it works in; null when the login has none left. */
  user_id: string | null;
  /** Passed the password, waiting for the TOTP code: opens only the code's page. */
  second_factor_due: Generated<boolean>;
  created_at: CreatedAt;
  last_seen_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** The absolute end, whatever the activity. */
  expires_at: ColumnType<Date, Date | string, Date | string>;
  ip: string | null;
  user_agent: string | null;
}

/** A link sent by e-mail: confirm an address, reset a password, take an invitation. */
export interface LoginLinksTable {
  token_hash: Buffer;
  purpose: 'confirm' | 'reset' | 'invite';
  login_id: string | null;
  user_id: string | null;
  email: string;
  created_at: CreatedAt;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: Moment;
}

/** A one-time code for a lost authenticator, stored as SHA-256 only. */
export interface RecoveryCodesTable {
  login_id: string;
  code_hash: Buffer;
  used_at: Moment;
}

/**
 * A PostgreSQL bigint: read as its decimal string (pg's default, exact beyond 2^53), written as
 * a bigint, a safe integer or a string. Money (øre) and credits are bigints.
 */
type Int8 = ColumnType<string, bigint | number | string, bigint | number | string>;
/** A bigint the database fills (an identity), read as its decimal string. */
type Identity = ColumnType<string, never, never>;
/** Written once with the row, never updated (the row is append-only). */
type Fixed<T> = ColumnType<T, T, never>;

/** The operator's partner configuration of a company (spec 2.5, migration 0017). */
export interface PartnersTable {
  company_id: string;
  is_partner: Generated<boolean>;
  /** Unique without regard to case; without one, the referral link names the company id. */
  code: string | null;
  /** Fractions in parts per million (0.15 is 150000): exact, unlike a float. */
  kickback_ppm: Generated<number>;
  discount_ppm: Generated<number>;
  webhook_enabled: Generated<boolean>;
  updated_at: Generated<Date>;
}

export type PaymentMethod = 'card' | 'invoice' | 'ean';

/**
 * A pack of credits bought: every rate and amount (øre) used copied onto it. Only an open
 * purchase's payment (`status`, `paid_at`) is ever written after (a trigger refuses the rest).
 */
export interface CreditPurchasesTable {
  id: Generated<string>;
  company_id: Fixed<string>;
  idempotency_key: Fixed<string>;
  credits: Fixed<string | bigint>;
  method: Fixed<PaymentMethod>;
  auto_refill: Fixed<boolean>;
  unit_price_ore: Fixed<string | bigint>;
  discount_ppm: Fixed<number>;
  vat_ppm: Fixed<number>;
  referrer_company_id: Fixed<string | null>;
  /** The referrer was an active partner when the purchase was recorded. */
  referrer_partner: Fixed<boolean>;
  kickback_ppm: Fixed<number>;
  gross_ore: Fixed<string | bigint>;
  discount_ore: Fixed<string | bigint>;
  net_ore: Fixed<string | bigint>;
  vat_ore: Fixed<string | bigint>;
  total_ore: Fixed<string | bigint>;
  invoice_number: Fixed<string>;
  reference: Fixed<string | null>;
  ean_gln: Fixed<string | null>;
  ean_order_number: Fixed<string | null>;
  ean_contact: Fixed<string | null>;
  status: ColumnType<'open' | 'paid', 'open' | 'paid' | undefined, 'paid'>;
  paid_at: ColumnType<Date | null, Date | null | undefined, Date>;
  /** Who recorded it: `member:<user id>`, `operator`, `auto-refill`. */
  created_by: Fixed<string>;
  created_at: CreatedAt;
}

/** The last invoice number given: one row, taken in each purchase's transaction. */
export interface CreditInvoiceNumbersTable {
  only_row: Generated<boolean>;
  last: Int8;
}

export type CreditLineKind = 'purchase' | 'referral' | 'case' | 'correction';

/** One line of a company's append-only credit ledger (a trigger refuses updates and deletes). */
export interface CreditLinesTable {
  id: Identity;
  company_id: Fixed<string>;
  kind: Fixed<CreditLineKind>;
  paid_credits: ColumnType<string, bigint | number | string | undefined, never>;
  free_credits: ColumnType<string, bigint | number | string | undefined, never>;
  /** Unique in the company: a line recorded twice is recorded once. */
  idempotency_key: Fixed<string>;
  purchase_id: ColumnType<string | null, string | null | undefined, never>;
  case_id: ColumnType<string | null, string | null | undefined, never>;
  referred_company_id: ColumnType<string | null, string | null | undefined, never>;
  note: ColumnType<string | null, string | null | undefined, never>;
  created_by: Fixed<string>;
  created_at: CreatedAt;
}

/** The sums of a company's ledger, written in the same transaction as each of its lines. */
export interface CreditBalancesTable {
  company_id: string;
  paid: Int8;
  free: Int8;
  updated_at: Generated<Date>;
}

/** A company's auto-refill: a pack bought when its balance falls below `refill_below`. */
export interface CreditSettingsTable {
  company_id: string;
  refill_below: Int8 | null;
  refill_credits: Int8 | null;
  refill_method: PaymentMethod | null;
  ean_gln: string | null;
  ean_order_number: string | null;
  ean_contact: string | null;
  updated_at: Generated<Date>;
}

/** What a partner is owed for one paid invoice of a customer it referred (append-only). */
export interface PartnerKickbacksTable {
  id: Identity;
  partner_company_id: Fixed<string>;
  customer_company_id: Fixed<string>;
  purchase_id: Fixed<string>;
  invoice_number: Fixed<string>;
  base_ore: Fixed<string | bigint>;
  kickback_ppm: Fixed<number>;
  amount_ore: Fixed<string | bigint>;
  created_at: CreatedAt;
}

/** A payout the operator made to a partner by hand (append-only). */
export interface PartnerPayoutsTable {
  id: Identity;
  partner_company_id: Fixed<string>;
  amount_ore: Fixed<string | bigint>;
  reference: Fixed<string | null>;
  idempotency_key: Fixed<string>;
  created_by: Fixed<string>;
  created_at: CreatedAt;
}

/** A new customer's consent to its API key going to its partner, as it was shown. */
export interface PartnerConsentsTable {
  company_id: string;
  partner_company_id: string;
  user_id: string | null;
  email: string;
  text: string;
  language: string;
  ip: string | null;
  user_agent: string | null;
  created_at: CreatedAt;
}

/** A flow's state (migration 0018): pending until someone answers, then in progress. */
export type WebflowState = 'pending' | 'in_progress' | 'completed' | 'expired';
/** How far one person asked is. */
export type WebflowRecipientStatus = 'pending' | 'opened' | 'answered';

/** A web-flow (migration 0018): one request for information, with its form as it was. */
export interface WebflowsTable {
  id: Generated<string>;
  company_id: string;
  form_id: string;
  /** The form as it was when the flow was made (service/webflows' FlowForm). */
  form: Json;
  title: string;
  message: string | null;
  /** Null once the member is removed: then `sender-not-in-company`. */
  sender_user_id: string | null;
  sender_email: string;
  sender_name: string;
  state: Generated<WebflowState>;
  /** `{expiresInDays, reminders}` as resolved at creation. */
  settings: Json;
  /** The request's `case` member: the case a completed flow makes; null: none. */
  case_request: Json | null;
  case_id: string | null;
  /** Why the case could not be made (slug and details), when it could not. */
  case_error: Json | null;
  expires_at: Date;
  completed_at: Moment;
  /** The next reminder of a running flow (migration 0019); null: none due. */
  next_reminder_at: Moment;
  reminders_sent: Generated<number>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** A person a flow asks (migration 0018); the link's token kept as its SHA-256 only. */
export interface WebflowRecipientsTable {
  id: Generated<string>;
  flow_id: string;
  company_id: string;
  position: number;
  name: string;
  email: string;
  language: string | null;
  token_sha256: Buffer;
  status: Generated<WebflowRecipientStatus>;
  opened_at: Moment;
  answered_at: Moment;
}

/** A flow's answer to one question (migration 0018): whoever answered it last. */
export interface WebflowAnswersTable {
  flow_id: string;
  tag: string;
  type: string;
  /** The value as JSON; null for a CPR number, which is in value_encrypted only. */
  value: Json | null;
  value_encrypted: Buffer | null;
  answered_by: string;
  answered_at: Generated<Date>;
}

/** An `Idempotency-Key` of POST /v3/api/webflows (migration 0018), kept 24 hours. */
export interface WebflowIdempotencyTable {
  company_id: string;
  key: string;
  /** SHA-256 of the request body's canonical JSON. */
  fingerprint: Buffer;
  flow_id: string;
  created_at: CreatedAt;
  expires_at: Date;
}
