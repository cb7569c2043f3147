import type { Kysely, Selectable } from 'kysely';
import type { Database, MessageTemplatesTable } from '../db/index.js';
import { companyMissing, requireCompany } from './company-scope.js';
import { placeholderProblems } from './message-placeholders.js';
import { foreignKeyViolation, uniqueViolation } from './pg-violation.js';
import {
  RecordExistsError,
  RecordNotFoundError,
  refuseProblems,
  type RecordProblem,
} from './record-errors.js';
import { collect, nameProblem, recordIdProblem } from './record-fields.js';
import { fileMembers, stringMember } from './record-file.js';
import type { MessageTemplate } from './records.js';

/** A message template as its file gives it: `{id?, name?, subject, body}`. */
export interface NewMessageTemplate {
  /** Chosen by the operator for `messageTemplateId`; made by the database (a UUID) when absent. */
  id?: string;
  name?: string;
  subject: string;
  body: string;
}

const TEMPLATE_MEMBERS = ['id', 'name', 'subject', 'body'] as const;

/** A subject is one line of an e-mail's header. */
const MAX_SUBJECT_CHARS = 998;

/** A body is a message, not a document: 100,000 characters is far more than any invitation. */
const MAX_BODY_CHARS = 100_000;

/**
 * The template a file describes, or RecordInvalidError with every problem: members by their
 * path, and each unknown placeholder with its line and column in `subject` or `body`.
 */
export function parseMessageTemplate(data: unknown): NewMessageTemplate {
  const problems: RecordProblem[] = [];
  const file = fileMembers(data, TEMPLATE_MEMBERS, problems);
  const id = stringMember(file, 'id', false, problems);
  if (id !== undefined) collect(problems, 'id', recordIdProblem(id));
  const name = stringMember(file, 'name', false, problems);
  if (name !== undefined) collect(problems, 'name', nameProblem(name));
  const subject = stringMember(file, 'subject', true, problems);
  if (subject !== undefined) {
    if (subject.trim() === '') problems.push({ path: 'subject', message: 'must not be empty' });
    else if (/[\r\n]/.test(subject))
      problems.push({ path: 'subject', message: 'must be one line (an e-mail header)' });
    else if (subject.length > MAX_SUBJECT_CHARS)
      problems.push({
        path: 'subject',
        message: `must be at most ${MAX_SUBJECT_CHARS} characters`,
      });
    problems.push(...placeholderProblems(subject, 'subject'));
  }
  const body = stringMember(file, 'body', true, problems);
  if (body !== undefined) {
    if (body.trim() === '') problems.push({ path: 'body', message: 'must not be empty' });
    else if (body.length > MAX_BODY_CHARS)
      problems.push({ path: 'body', message: `must be at most ${MAX_BODY_CHARS} characters` });
    problems.push(...placeholderProblems(body, 'body'));
  }
  refuseProblems('message template', problems);
  return {
    ...(id === undefined ? {} : { id }),
    ...(name === undefined ? {} : { name }),
    subject: subject!,
    body: body!,
  };
}

/**
 * A company's message templates: the subject and body of invitations, chosen by a case's or a
 * recipient's `messageTemplateId`. Ids are unique in the company. Every query names the company.
 */
export class MessageTemplateRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds the template `data` describes; RecordExistsError for a taken id. */
  async add(company: string, data: unknown): Promise<MessageTemplate> {
    const template = parseMessageTemplate(data);
    try {
      const row = await this.db
        .insertInto('message_templates')
        .values({
          company_id: company,
          ...(template.id === undefined ? {} : { id: template.id }),
          name: template.name ?? null,
          subject: template.subject,
          body: template.body,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return messageTemplateOf(row);
    } catch (err) {
      if (uniqueViolation(err) === 'message_templates_pk')
        throw new RecordExistsError('message template', template.id!, company);
      if (companyMissing(foreignKeyViolation(err)))
        throw new RecordNotFoundError('company', company);
      throw err;
    }
  }

  /** The company's templates, by id. */
  async list(company: string): Promise<MessageTemplate[]> {
    await requireCompany(this.db, company);
    const rows = await this.db
      .selectFrom('message_templates')
      .selectAll()
      .where('company_id', '=', company)
      .orderBy('id')
      .execute();
    return rows.map(messageTemplateOf);
  }

  /**
   * Replaces the name, subject and body of the company's template `id` with what `data`
   * describes (checked by parseMessageTemplate; an `id` in it must be `id`);
   * RecordNotFoundError when the company has no such template. Invitations sent after use it.
   */
  async update(company: string, id: string, data: unknown): Promise<MessageTemplate> {
    const template = parseMessageTemplate(data);
    if (template.id !== undefined && template.id !== id)
      refuseProblems('message template', [
        { path: 'id', message: `must be the template's own id, ${id}` },
      ]);
    const row = await this.db
      .updateTable('message_templates')
      .set({ name: template.name ?? null, subject: template.subject, body: template.body })
      .where('company_id', '=', company)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new RecordNotFoundError('message template', id, company);
    return messageTemplateOf(row);
  }

  /** The company's template with this id, or undefined (also for another company's). */
  async find(company: string, id: string): Promise<MessageTemplate | undefined> {
    const row = await this.db
      .selectFrom('message_templates')
      .selectAll()
      .where('company_id', '=', company)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && messageTemplateOf(row);
  }
}

export function messageTemplateOf(row: Selectable<MessageTemplatesTable>): MessageTemplate {
  return {
    id: row.id,
    company: row.company_id,
    name: row.name,
    subject: row.subject,
    body: row.body,
    createdAt: row.created_at,
  };
}
