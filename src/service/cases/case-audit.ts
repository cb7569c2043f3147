import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';

/** A signer's record as the sealed PDF's audit pages give it (without identity claims). */
export interface AuditedRecipient {
  id: string;
  position: number;
  name: string;
  email: string | null;
  status: 'pending' | 'signed' | 'denied';
  signing: boolean;
  /** `draw`, `typed` or the eID scheme; null until they signed. */
  method: string | null;
  at: Date | null;
  ip: string | null;
  userAgent: string | null;
  denialReason: string | null;
}

/** One thing a member did to the case that fires no webhook (case_audit). */
export interface CaseAuditRecord {
  id: string;
  action: 'signing-link-taken';
  by: string;
  /** The recipient it concerned, by name; null when none or gone. */
  recipient: string | null;
  at: Date;
}

/** The case's audit trail as the dashboard shows it (issue 34). */
export interface CaseAudit {
  case: { id: string; title: string; sender: string; createdAt: Date };
  recipients: AuditedRecipient[];
  documents: { name: string; sha256: string | null; byReference: string | null }[];
  records: CaseAuditRecord[];
}

/**
 * The case's audit trail: what the sealed PDF's audit pages are made from (seal-case.ts reads
 * the same rows: the case, each recipient with how, when and from where they signed, each
 * document's SHA-256 as shown to the signers), and the audit records of what members did to it,
 * such as taking a signing link. Identity claims are left out: an eID's may hold a CPR number,
 * and the sealed PDF, which filters them, is where they are read. Undefined when the case is
 * not the company's.
 */
export async function readCaseAudit(
  db: Kysely<Database>,
  company: string,
  id: string,
): Promise<CaseAudit | undefined> {
  const kase = await db
    .selectFrom('cases')
    .select(['id', 'title', 'sender_name', 'sender_email', 'created_at'])
    .where('company_id', '=', company)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!kase) return undefined;
  const [recipients, documents, records] = await Promise.all([
    db
      .selectFrom('recipients')
      .leftJoin('signatures', (j) =>
        j
          .onRef('signatures.recipient_id', '=', 'recipients.id')
          .onRef('signatures.company_id', '=', 'recipients.company_id'),
      )
      .select([
        'recipients.id',
        'recipients.position',
        'recipients.name',
        'recipients.email',
        'recipients.status',
        'recipients.signing',
        'recipients.acted_at',
        'recipients.denial_reason',
        'signatures.method',
        'signatures.ip',
        'signatures.user_agent',
        'signatures.signed_at',
      ])
      .where('recipients.company_id', '=', company)
      .where('recipients.case_id', '=', id)
      .orderBy('recipients.position')
      .execute(),
    db
      .selectFrom('case_documents')
      .select(['name', 'sha256', 'storage_key', 'url'])
      .where('company_id', '=', company)
      .where('case_id', '=', id)
      .orderBy('index')
      .execute(),
    db
      .selectFrom('case_audit')
      .leftJoin('recipients', (j) =>
        j
          .onRef('recipients.id', '=', 'case_audit.recipient_id')
          .onRef('recipients.company_id', '=', 'case_audit.company_id'),
      )
      .select([
        'case_audit.id',
        'case_audit.action',
        'case_audit.user_name',
        'case_audit.created_at',
        'recipients.name as recipient_name',
      ])
      .where('case_audit.company_id', '=', company)
      .where('case_audit.case_id', '=', id)
      .orderBy('case_audit.created_at')
      .orderBy('case_audit.id')
      .execute(),
  ]);
  return {
    case: {
      id: kase.id,
      title: kase.title,
      sender: `${kase.sender_name} <${kase.sender_email}>`,
      createdAt: new Date(kase.created_at),
    },
    recipients: recipients.map((r) => ({
      id: r.id,
      position: r.position + 1,
      name: r.name,
      email: r.email,
      status: r.status,
      signing: r.signing,
      method: r.method ?? null,
      at: r.signed_at ? new Date(r.signed_at) : r.acted_at ? new Date(r.acted_at) : null,
      ip: r.ip ?? null,
      userAgent: r.user_agent ?? null,
      denialReason: r.denial_reason,
    })),
    // A document kept by reference was never read: it has a link, not a digest.
    documents: documents.map((d) => ({
      name: d.name,
      sha256: d.storage_key === null ? null : (d.sha256 ?? null),
      byReference: d.storage_key === null ? (d.url ?? '') : null,
    })),
    records: records.map((r) => ({
      id: r.id,
      action: r.action,
      by: r.user_name,
      recipient: r.recipient_name ?? null,
      at: new Date(r.created_at),
    })),
  };
}
