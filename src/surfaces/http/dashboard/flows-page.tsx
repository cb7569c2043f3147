import type { ComponentChildren } from 'preact';
import type {
  WebflowAnswerView,
  WebflowDetail,
  WebflowInvitationView,
} from '../../../service/webflows/index.js';
import { Layout, fill, type PageContext } from '../pages/index.js';
import { FLOWS_PATH, flowStateText, recipientStatusText } from './flows-state.js';
import { When } from './home-when.js';
import { TitledTable } from './titled-table.js';

/** An answer's value as a person reads it: by its type, a CPR number never. */
function answerText(
  page: PageContext,
  answer: WebflowAnswerView,
  encrypted: boolean,
): ComponentChildren {
  const w = page.words.flows;
  if (encrypted) return <em>{w.encrypted}</em>;
  const { value } = answer;
  if (value === null) return w.never;
  if (typeof value === 'boolean') return value ? w.yes : w.no;
  if (typeof value === 'number')
    return value.toLocaleString(page.language === 'da' ? 'da-DK' : 'en-GB');
  return value;
}

/** What a person's invitation e-mail did, as the API's `invitation` says it. */
function invitationText(page: PageContext, invitation: WebflowInvitationView): ComponentChildren {
  const w = page.words.flows;
  if (invitation.status === 'sent')
    return invitation.sentAt ? (
      <>
        {w.invitationSent} <When at={new Date(invitation.sentAt)} page={page} />
      </>
    ) : (
      w.invitationSent
    );
  if (invitation.status === 'failed')
    return fill(w.invitationFailed, { error: invitation.error ?? '' });
  return invitation.error
    ? fill(w.invitationRetrying, { error: invitation.error })
    : w.invitationPending;
}

/**
 * /dashboard/flows/:id: the flow's details and progress, the people asked with their status,
 * the answers by question (named as the flow's own copy of its form names them), and the
 * signing case it made, or why it made none.
 */
export function FlowPage({ page, detail }: { page: PageContext; detail: WebflowDetail }) {
  const w = page.words.flows;
  const { view } = detail;
  const names = new Map(view.recipients.map((r) => [r.id, r.name]));
  const questionName = new Map(detail.questions.map((q) => [q.tag, q.name || q.tag]));
  const order = new Map(detail.questions.map((q, i) => [q.tag, i]));
  const answers = [...view.answers].sort(
    (a, b) => (order.get(a.tag) ?? Infinity) - (order.get(b.tag) ?? Infinity),
  );
  const at = (d: Date | null | undefined) => (d ? <When at={d} page={page} /> : w.never);
  return (
    <Layout
      page={page}
      title={fill(w.flowTitle, { title: view.title || w.untitled })}
      section="flows"
    >
      <p>
        <a href={FLOWS_PATH}>{w.back}</a>
      </p>
      <section aria-labelledby="flow-details-title" class="card">
        <h2 id="flow-details-title">{w.details}</h2>
        <dl class="case-details">
          <dt>{w.form}</dt>
          <dd>
            {detail.formTitle} (<code>{view.formId}</code>)
          </dd>
          <dt>{w.state}</dt>
          <dd>{flowStateText(w, view.state)}</dd>
          <dt>{w.progressLabel}</dt>
          <dd>
            {fill(w.progressOf, { answered: view.progress.answered, total: view.progress.total })}
          </dd>
          <dt>{w.sender}</dt>
          <dd>
            {detail.sender.removed
              ? fill(w.senderRemoved, { name: detail.sender.name, email: detail.sender.email })
              : `${detail.sender.name} <${detail.sender.email}>`}
          </dd>
          {detail.message ? (
            <>
              <dt>{w.message}</dt>
              <dd>{detail.message}</dd>
            </>
          ) : null}
          <dt>{w.created}</dt>
          <dd>{at(new Date(view.createdAt))}</dd>
          <dt>{w.expires}</dt>
          <dd>{at(detail.expiresAt)}</dd>
          {detail.completedAt ? (
            <>
              <dt>{w.completed}</dt>
              <dd>{at(detail.completedAt)}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <TitledTable label={w.recipients} id="flow-recipients">
        <caption class="visually-hidden">{w.recipientsCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{w.colName}</th>
            <th scope="col">{w.colEmail}</th>
            <th scope="col">{w.colStatus}</th>
            <th scope="col">{w.colWhen}</th>
            <th scope="col">{w.colInvitation}</th>
          </tr>
        </thead>
        <tbody>
          {view.recipients.map((r) => {
            const moments = detail.moments.get(r.id);
            const when =
              r.status === 'answered'
                ? moments?.answeredAt
                : r.status === 'opened'
                  ? moments?.openedAt
                  : null;
            return (
              <tr>
                <td data-label={w.colName}>{r.name}</td>
                <td data-label={w.colEmail}>{r.email}</td>
                <td data-label={w.colStatus}>{recipientStatusText(w, r.status)}</td>
                <td data-label={w.colWhen}>{at(when)}</td>
                <td data-label={w.colInvitation} data-invitation={r.invitation.status}>
                  {invitationText(page, r.invitation)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </TitledTable>
      <TitledTable
        label={w.answers}
        id="flow-answers"
        empty={answers.length === 0 ? w.noAnswers : undefined}
      >
        <caption class="visually-hidden">{w.answersCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{w.colQuestion}</th>
            <th scope="col">{w.colAnswer}</th>
            <th scope="col">{w.colAnsweredBy}</th>
            <th scope="col">{w.colAnsweredAt}</th>
          </tr>
        </thead>
        <tbody>
          {answers.map((a) => {
            const encrypted = detail.encrypted.has(a.tag);
            return (
              <tr data-tag={a.tag}>
                <th scope="row" data-label={w.colQuestion}>
                  {questionName.get(a.tag) ?? a.tag}
                </th>
                <td data-label={w.colAnswer} title={encrypted ? w.encryptedHint : undefined}>
                  {answerText(page, a, encrypted)}
                </td>
                <td data-label={w.colAnsweredBy}>{names.get(a.answeredBy) ?? w.someoneGone}</td>
                <td data-label={w.colAnsweredAt}>{at(new Date(a.answeredAt))}</td>
              </tr>
            );
          })}
        </tbody>
      </TitledTable>
      {detail.encrypted.size > 0 ? <p class="hint">{w.encryptedHint}</p> : null}
      <section aria-labelledby="flow-case-title" class="card">
        <h2 id="flow-case-title">{w.caseTitle}</h2>
        <FlowCase page={page} detail={detail} />
      </section>
    </Layout>
  );
}

/** The case the flow made, why it made none, or whether it will make one. */
function FlowCase({ page, detail }: { page: PageContext; detail: WebflowDetail }) {
  const w = page.words.flows;
  const { view } = detail;
  const { caseError } = view;
  if (view.caseId)
    return (
      <p>
        {w.caseMade}{' '}
        <a href={`/dashboard/cases/${encodeURIComponent(view.caseId)}`}>{w.caseLink}</a>
      </p>
    );
  if (caseError)
    return (
      <>
        <p>{fill(w.caseRefused, { slug: caseError.slug })}</p>
        {caseError.details.length > 0 ? (
          <ul>
            {caseError.details.map((d) => (
              <li>{d.field ? fill(w.caseProblem, { ...d }) : d.message}</li>
            ))}
          </ul>
        ) : null}
      </>
    );
  if (!detail.makesCase) return <p>{w.caseNone}</p>;
  return <p>{w.caseWaiting}</p>;
}
