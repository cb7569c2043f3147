import type { Kysely } from 'kysely';
import { reminderSettings, type ReminderSettings } from '../cases/index.js';
import type { Database } from '../db/index.js';
import { StatementBatcher, batcherFor } from '../webhooks/index.js';

/** What a case's messages say of it, read once per batch of messages. */
export interface CaseContext {
  company: {
    id: string;
    name: string;
    signingDomain: string | null;
    /** Whether the sender gets the signed copy too (the company's setting). */
    sendSignedCopyToSender: boolean;
  };
  id: string;
  title: string;
  state: string;
  language: string;
  referenceId: string | null;
  expiresAt: Date;
  activeGroup: number | null;
  message: string | null;
  messageTemplateId: string | null;
  reminders: ReminderSettings;
  /** Whether invitations go out when the case opens (`settings.autoSend`, true unless false). */
  autoSend: boolean;
  sender: { name: string; email: string };
  recipients: ContextRecipient[];
}

export interface ContextRecipient {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  type: 'email' | 'sms' | 'eboks';
  signing: boolean;
  group: number;
  status: 'pending' | 'signed' | 'denied';
  messageTemplateId: string | null;
  tokenHash: Buffer;
  denialReason: string | null;
}

/** The case with its company and recipients; undefined when it is gone (deleted). */
export function readCaseContext(
  db: Kysely<Database>,
  company: string,
  caseId: string,
  /** Cases read together by one pair of statements. @defaultValue 1 */
  batchSize = 1,
): Promise<CaseContext | undefined> {
  return batcherFor(
    contexts,
    db,
    batchSize,
    (max) =>
      new StatementBatcher<CaseKey, CaseContext | undefined>(
        (keys) => readCaseContexts(db, keys),
        max,
      ),
  ).add({ company, caseId });
}

interface CaseKey {
  company: string;
  caseId: string;
}

const contexts = new WeakMap<
  Kysely<Database>,
  Map<number, StatementBatcher<CaseKey, CaseContext | undefined>>
>();

/** Many cases' contexts by two statements (the cases, their recipients), in the keys' order. */
export async function readCaseContexts(
  db: Kysely<Database>,
  keys: readonly CaseKey[],
): Promise<(CaseContext | undefined)[]> {
  const ids = [...new Set(keys.map((k) => k.caseId))];
  const companies = [...new Set(keys.map((k) => k.company))];
  const rows = await db
    .selectFrom('cases')
    .innerJoin('companies', 'companies.id', 'cases.company_id')
    .select([
      'cases.id',
      'cases.company_id',
      'cases.title',
      'cases.state',
      'cases.language',
      'cases.reference_id',
      'cases.expires_at',
      'cases.active_group',
      'cases.settings',
      'cases.message_template_id',
      'cases.sender_name',
      'cases.sender_email',
      'companies.name as company_name',
      'companies.signing_domain',
      'companies.send_signed_copy_to_sender',
    ])
    .where('cases.company_id', 'in', companies)
    .where('cases.id', 'in', ids)
    .execute();
  if (rows.length === 0) return keys.map(() => undefined);
  const recipients = await db
    .selectFrom('recipients')
    .select([
      'id',
      'company_id',
      'case_id',
      'name',
      'email',
      'phone',
      'type',
      'signing',
      'group',
      'status',
      'message_template_id',
      'signing_token_hash',
      'denial_reason',
    ])
    .where('company_id', 'in', companies)
    .where(
      'case_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('case_id')
    .orderBy('position')
    .execute();
  return keys.map(({ company, caseId }) => {
    // A case is only ever its own company's: the pair is checked, not the id alone.
    const row = rows.find((r) => r.id === caseId && r.company_id === company);
    if (!row) return undefined;
    const settings = (row.settings ?? {}) as {
      message?: unknown;
      autoSend?: unknown;
      reminders?: Partial<ReminderSettings>;
    };
    return {
      company: {
        id: company,
        name: row.company_name,
        signingDomain: row.signing_domain,
        sendSignedCopyToSender: row.send_signed_copy_to_sender,
      },
      id: row.id,
      title: row.title,
      state: row.state,
      language: row.language,
      referenceId: row.reference_id,
      expiresAt: row.expires_at,
      activeGroup: row.active_group,
      message: typeof settings.message === 'string' ? settings.message : null,
      messageTemplateId: row.message_template_id,
      reminders: reminderSettings(settings.reminders),
      autoSend: settings.autoSend !== false,
      sender: { name: row.sender_name, email: row.sender_email },
      recipients: recipients
        .filter((r) => r.case_id === caseId && r.company_id === company)
        .map((r) => ({
          id: r.id,
          name: r.name,
          email: r.email,
          phone: r.phone,
          type: r.type,
          signing: r.signing,
          group: r.group,
          status: r.status,
          messageTemplateId: r.message_template_id,
          tokenHash: r.signing_token_hash,
          denialReason: r.denial_reason,
        })),
    };
  });
}

/** The signers the case waits for now: pending, in the active group. */
export function waitingSigners(c: CaseContext): ContextRecipient[] {
  if (c.activeGroup === null) return [];
  return c.recipients.filter(
    (r) => r.signing && r.status === 'pending' && r.group === c.activeGroup,
  );
}
