import type { Kysely } from 'kysely';
import { DEFAULT_LANGUAGE, reminderSettings, type ReminderSettings } from '../cases/index.js';
import type { Database, WebflowRecipientStatus, WebflowState } from '../db/index.js';

/** What a web-flow's messages say of it, read once per batch of its messages. */
export interface FlowContext {
  company: { id: string; name: string; signingDomain: string | null };
  id: string;
  title: string;
  message: string | null;
  state: WebflowState;
  expiresAt: Date;
  reminders: Pick<ReminderSettings, 'send' | 'amount' | 'daysBetween'>;
  sender: { name: string; email: string };
  people: FlowPerson[];
}

export interface FlowPerson {
  id: string;
  name: string;
  email: string;
  /** The language the person's messages are written in: theirs, else the company's, else docpipe's. */
  language: string;
  status: WebflowRecipientStatus;
  tokenHash: Buffer;
}

/** The flow with its company and people; undefined when it is gone (deleted). */
export async function readFlowContext(
  db: Kysely<Database>,
  company: string,
  flowId: string,
): Promise<FlowContext | undefined> {
  const row = await db
    .selectFrom('webflows')
    .innerJoin('companies', 'companies.id', 'webflows.company_id')
    .select([
      'webflows.id',
      'webflows.title',
      'webflows.message',
      'webflows.state',
      'webflows.expires_at',
      'webflows.settings',
      'webflows.sender_name',
      'webflows.sender_email',
      'companies.name as company_name',
      'companies.signing_domain',
      'companies.default_language',
    ])
    .where('webflows.company_id', '=', company)
    .where('webflows.id', '=', flowId)
    .executeTakeFirst();
  if (!row) return undefined;
  const people = await db
    .selectFrom('webflow_recipients')
    .select(['id', 'name', 'email', 'language', 'status', 'token_sha256'])
    .where('company_id', '=', company)
    .where('flow_id', '=', flowId)
    .orderBy('position')
    .execute();
  const settings = (row.settings ?? {}) as { reminders?: Partial<ReminderSettings> };
  const { send, amount, daysBetween } = reminderSettings(settings.reminders);
  // As a case chooses its language when it is made: the one asked for, else the company's.
  const fallback = row.default_language ?? DEFAULT_LANGUAGE;
  return {
    company: { id: company, name: row.company_name, signingDomain: row.signing_domain },
    id: row.id,
    title: row.title,
    message: row.message,
    state: row.state,
    expiresAt: row.expires_at,
    reminders: { send, amount, daysBetween },
    sender: { name: row.sender_name, email: row.sender_email },
    people: people.map((p) => ({
      id: p.id,
      name: p.name,
      email: p.email,
      language: p.language ?? fallback,
      status: p.status,
      tokenHash: p.token_sha256,
    })),
  };
}

/** Whether the flow still takes answers at `now`: running and not past its expiry. */
export function flowRunning(c: Pick<FlowContext, 'state' | 'expiresAt'>, now: Date): boolean {
  return (
    (c.state === 'pending' || c.state === 'in_progress') && c.expiresAt.getTime() > now.getTime()
  );
}

/** The people a reminder goes to: those who have not sent their answers. */
export function waitingPeople(c: FlowContext): FlowPerson[] {
  return c.people.filter((p) => p.status !== 'answered');
}
