import type { CaseAudit } from '../../../service/cases/index.js';
import { Layout, fill, type PageContext } from '../pages/index.js';
import { methodText } from './method-text.js';
import { shownTime } from './dashboard-time.js';

/**
 * `/dashboard/cases/{id}/audit`: the case's audit trail in the member's language: what the
 * sealed documents' audit pages record (the case, each recipient's method, time, IP address and
 * browser, each document's SHA-256), and what members did to the case (a signing link taken).
 */
export function CaseAuditPage({ page, audit }: { page: PageContext; audit: CaseAudit }) {
  const w = page.words.casePage;
  const at = (d: Date | null) => (d ? shownTime(page, d) : w.none);
  const base = `/dashboard/cases/${encodeURIComponent(audit.case.id)}`;
  return (
    <Layout page={page} title={fill(w.auditTitle, { title: audit.case.title })} section="cases">
      <p>{w.auditIntro}</p>
      <section aria-labelledby="audit-case-title" class="card">
        <h2 id="audit-case-title">{w.auditCase}</h2>
        <dl class="case-details">
          <dt>{w.caseId}</dt>
          <dd>
            <code>{audit.case.id}</code>
          </dd>
          <dt>{w.sender}</dt>
          <dd>{audit.case.sender}</dd>
          <dt>{w.createdAt}</dt>
          <dd>{at(audit.case.createdAt)}</dd>
        </dl>
      </section>
      <section aria-labelledby="audit-recipients-title" class="card">
        <h2 id="audit-recipients-title">{w.recipients}</h2>
        {audit.recipients.map((r) => (
          <div class="audit-recipient">
            <h3>
              {`${r.position}. ${r.name}`}
              {r.email ? ` <${r.email}>` : ''}
            </h3>
            <dl class="case-details">
              <dt>{w.status}</dt>
              <dd>
                {r.signing ? w.statuses[r.status] : w.notSigning}
                {r.denialReason ? <> ({fill(w.reason, { reason: r.denialReason })})</> : null}
              </dd>
              <dt>{w.method}</dt>
              <dd>{methodText(page, r.method)}</dd>
              <dt>{w.time}</dt>
              <dd>{at(r.at)}</dd>
              <dt>{w.ip}</dt>
              <dd>{r.ip ?? w.none}</dd>
              <dt>{w.userAgent}</dt>
              <dd class="audit-agent">{r.userAgent ?? w.none}</dd>
            </dl>
          </div>
        ))}
      </section>
      <section aria-labelledby="audit-documents-title" class="card">
        <h2 id="audit-documents-title">{w.auditDocuments}</h2>
        <ul>
          {audit.documents.map((d) => (
            <li>
              {d.name}:{' '}
              {d.byReference !== null ? (
                fill(w.byReference, { url: d.byReference })
              ) : (
                <>
                  {w.sha256} <code class="audit-hash">{d.sha256 ?? w.none}</code>
                </>
              )}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="audit-records-title" class="card">
        <h2 id="audit-records-title">{w.auditRecords}</h2>
        {audit.records.length === 0 ? (
          <p>{w.noAuditRecords}</p>
        ) : (
          <ul id="audit-records">
            {audit.records.map((r) => (
              <li>
                {at(r.at)}:{' '}
                {fill(w.auditActions[r.action], {
                  by: r.by,
                  recipient: r.recipient ?? w.unknownRecipient,
                })}
              </li>
            ))}
          </ul>
        )}
      </section>
      <p class="actions">
        <a class="button secondary" href={base}>
          {w.backToCase}
        </a>
      </p>
    </Layout>
  );
}
