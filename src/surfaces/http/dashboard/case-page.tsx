import type { FailureDetail } from '../../../base/errors/index.js';
import {
  MAX_EXTEND_DAYS,
  type CaseTimelineEvent,
  type CaseTrail,
  type CaseView,
  type CaseWebhookRun,
  type TakenSigningLink,
} from '../../../service/cases/index.js';
import { CsrfField, Field, Layout, Notice, fill, type PageContext } from '../pages/index.js';
import { methodText } from './method-text.js';
import { runAnswerText } from './case-run-answer.js';
import { CopyButton } from './dashboard-copy-button.js';
import { flowHref } from './flows-state.js';
import { shownTime } from './dashboard-time.js';
import { TitledTable } from './titled-table.js';

/** What the case page says on top: a flash, or a refused send with its problems. */
export interface CaseNoticeShown {
  kind: 'done' | 'problem';
  text: string;
  problems?: FailureDetail[];
}

/** `/dashboard/cases/{id}`: the case, its recipients, timeline, documents and delivery report, and its actions. */
export function CasePage(props: {
  page: PageContext;
  view: CaseView;
  trail: CaseTrail;
  notice?: CaseNoticeShown | undefined;
  /** A signing link an admin just took, shown once in this answer's body. */
  link?: TakenSigningLink | undefined;
}) {
  const { page, view, notice, link } = props;
  const w = page.words.casePage;
  const base = `/dashboard/cases/${encodeURIComponent(view.id)}`;
  return (
    <Layout page={page} title={fill(w.title, { title: view.title })} section="cases">
      {notice ? (
        <Notice kind={notice.kind}>
          <p>{notice.text}</p>
          {notice.problems?.length ? (
            <ul>
              {notice.problems.map((p) => (
                <li>
                  {p.field ? <code>{p.field}</code> : null} {p.message}
                </li>
              ))}
            </ul>
          ) : null}
        </Notice>
      ) : null}
      {link ? <SigningLink page={page} link={link} /> : null}
      <CaseLive page={page} view={view} trail={props.trail} />
      <section aria-labelledby="case-actions-title" class="card">
        <h2 id="case-actions-title">{w.actions}</h2>
        <div class="actions">
          {view.state === 'draft' ? (
            <>
              <a class="button secondary" href={`${base}/places`}>
                {w.placeSignatures}
              </a>
              <form method="post" action={`${base}/send`}>
                <CsrfField page={page} />
                <button type="submit">{w.send}</button>
              </form>
            </>
          ) : null}
          {view.state === 'open' && view.activeGroup !== null ? (
            <form method="post" action={`${base}/remind`}>
              <CsrfField page={page} />
              <button type="submit">{w.remind}</button>
            </form>
          ) : null}
          {view.state === 'open' ? (
            <form method="post" action={`${base}/extend`}>
              <CsrfField page={page} />
              <Field
                name="days"
                type="number"
                label={w.extendDays}
                hint={fill(w.extendHint, { max: String(MAX_EXTEND_DAYS) })}
                value="7"
                inputmode="numeric"
                required
              />
              <button type="submit">{w.extend}</button>
            </form>
          ) : null}
          <a class="button secondary" href={`${base}/audit`}>
            {w.openAudit}
          </a>
          <a class="button danger" href={`${base}/delete`}>
            {w.delete}
          </a>
        </div>
      </section>
    </Layout>
  );
}

/**
 * The part of the page that changes while the case runs, polled by htmx (`/live?v=`): the
 * answer is 204 while nothing changed (htmx then keeps it), else this part anew.
 */
export function CaseLive(props: { page: PageContext; view: CaseView; trail: CaseTrail }) {
  const { page, view, trail } = props;
  // The web-flow that made the case, when one did: "Created by" links to it.
  const flow = trail.flowId ?? undefined;
  const w = page.words.casePage;
  const at = (iso: string | Date | null | undefined) =>
    iso ? shownTime(page, typeof iso === 'string' ? new Date(iso) : iso) : w.none;
  const base = `/dashboard/cases/${encodeURIComponent(view.id)}`;
  const live = `${base}/live?v=${encodeURIComponent(trail.version)}`;
  const names = new Map(view.recipients.map((r) => [r.id, r.name]));
  // Admins only: a signing link lets its holder sign as the recipient.
  const admin = page.session?.user?.admin === true;
  const links = admin && view.state === 'open';
  const rows = timelineOf(trail.events, trail.webhookRuns);
  return (
    <div id="case-live" hx-get={live} hx-trigger="every 3s" hx-swap="outerHTML">
      <section aria-labelledby="case-details-title" class="card">
        <h2 id="case-details-title">{w.details}</h2>
        <dl class="case-details">
          <dt>{w.state}</dt>
          <dd>
            <span class={`case-state case-state-${view.state}`}>{w.states[view.state]}</span>
            {view.sealing ? <> {w.sealing}</> : null}
          </dd>
          <dt>{w.reference}</dt>
          <dd>{view.referenceId ?? w.none}</dd>
          <dt>{w.sender}</dt>
          <dd>{view.sender ? `${view.sender.name} <${view.sender.email}>` : w.none}</dd>
          {flow !== undefined ? (
            <>
              <dt>{page.words.caseList.colCreator}</dt>
              <dd>
                <a href={flowHref(flow)}>{page.words.caseList.creatorWebflow}</a>
              </dd>
            </>
          ) : null}
          <dt>{w.folder}</dt>
          <dd>{view.folder.name}</dd>
          <dt>{w.activeGroup}</dt>
          <dd>{view.activeGroup ?? w.none}</dd>
          <dt>{w.expires}</dt>
          <dd>{at(view.expiresAt)}</dd>
        </dl>
      </section>
      <TitledTable label={w.recipients} id="case-recipients">
        <thead>
          <tr>
            <th scope="col">{w.name}</th>
            <th scope="col">{w.address}</th>
            <th scope="col">{w.status}</th>
            <th scope="col">{w.group}</th>
            <th scope="col">{w.invited}</th>
            <th scope="col">{w.remindedAt}</th>
            <th scope="col">{w.acted}</th>
            <th scope="col">{w.method}</th>
            {links ? <th scope="col">{w.signingLink}</th> : null}
          </tr>
        </thead>
        <tbody>
          {view.recipients.map((r) => {
            const extra = trail.recipients.get(r.id);
            return (
              <tr data-recipient={r.uid}>
                <td data-label={w.name}>{r.name}</td>
                <td data-label={w.address}>{r.email ?? r.phone ?? w.none}</td>
                <td data-label={w.status}>
                  {r.signing ? w.statuses[r.status] : w.notSigning}
                  {r.denialReason ? <> ({fill(w.reason, { reason: r.denialReason })})</> : null}
                </td>
                <td data-label={w.group}>{r.group}</td>
                <td data-label={w.invited}>{at(extra?.invitedAt)}</td>
                <td data-label={w.remindedAt}>{at(extra?.remindedAt)}</td>
                <td data-label={w.acted}>{at(r.actedAt)}</td>
                <td data-label={w.method}>{methodText(page, r.method ?? extra?.method)}</td>
                {links ? (
                  <td data-label={w.signingLink}>
                    {r.signing && r.status === 'pending' ? (
                      <form method="post" action={`${base}/link`}>
                        <CsrfField page={page} />
                        <input type="hidden" name="recipient" value={r.id} />
                        <button
                          type="submit"
                          class="secondary"
                          aria-label={fill(w.takeLinkOf, { name: r.name })}
                        >
                          {w.takeLink}
                        </button>
                      </form>
                    ) : (
                      w.none
                    )}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </TitledTable>
      <section aria-labelledby="case-documents-title" class="card">
        <h2 id="case-documents-title">{w.documents}</h2>
        <ul>
          {view.documents.map((d) => (
            <li>
              <a href={d.url} download={d.name}>
                {fill(w.download, { name: d.name })}
              </a>
              {d.sealed ? <> ({w.sealed})</> : null}
            </li>
          ))}
        </ul>
      </section>
      <TitledTable
        label={w.timeline}
        id="case-timeline"
        empty={rows.length === 0 ? w.noEvents : undefined}
      >
        <thead>
          <tr>
            <th scope="col">{w.time}</th>
            <th scope="col">{w.event}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr data-trigger={row.kind === 'event' ? row.event.trigger : 'webhook.run'}>
              <td data-label={w.time}>{at(row.at)}</td>
              <td data-label={w.event}>
                {row.kind === 'event' ? (
                  <EventText page={page} event={row.event} />
                ) : (
                  <RunText page={page} run={row.run} admin={admin} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </TitledTable>
      <TitledTable
        label={w.delivery}
        id="case-delivery"
        empty={trail.messages.length === 0 ? w.noMessages : undefined}
      >
        <thead>
          <tr>
            <th scope="col">{w.time}</th>
            <th scope="col">{w.kind}</th>
            <th scope="col">{w.channel}</th>
            <th scope="col">{w.to}</th>
            <th scope="col">{w.status}</th>
          </tr>
        </thead>
        <tbody>
          {trail.messages.map((m) => (
            <tr>
              <td data-label={w.time}>{at(m.at)}</td>
              <td data-label={w.kind}>
                {w.messageKinds[m.kind as keyof typeof w.messageKinds] ?? m.kind}
              </td>
              <td data-label={w.channel}>
                {w.channels[m.channel as keyof typeof w.channels] ?? m.channel}
              </td>
              <td data-label={w.to}>
                {(m.recipientId ? names.get(m.recipientId) : undefined) ?? w.sender}
                {m.to ? ` (${m.to})` : ''}
              </td>
              <td data-label={w.status}>
                {w.messageStatuses[m.status as 'pending' | 'sent' | 'failed'] ?? m.status}
                {m.error ? ` (${m.error})` : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </TitledTable>
    </div>
  );
}

/** A timeline row: an event of the case, or one of its webhook runs, in the order they happened. */
type TimelineRow =
  | { kind: 'event'; at: Date; event: CaseTimelineEvent }
  | { kind: 'run'; at: Date; run: CaseWebhookRun };

function timelineOf(events: CaseTimelineEvent[], runs: CaseWebhookRun[]): TimelineRow[] {
  return [
    ...events.map((event): TimelineRow => ({ kind: 'event', at: event.at, event })),
    ...runs.map((run): TimelineRow => ({ kind: 'run', at: run.at, run })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** The event in the member's words; a trigger the words do not know yet keeps its name. */
function triggerText(page: PageContext, trigger: string): string {
  const words: Record<string, string> = page.words.casePage.triggers;
  return Object.hasOwn(words, trigger) ? words[trigger]! : trigger;
}

function EventText({ page, event }: { page: PageContext; event: CaseTimelineEvent }) {
  const w = page.words.casePage;
  const text = triggerText(page, event.trigger);
  return (
    <>
      {event.recipient ? fill(w.eventRecipient, { event: text, name: event.recipient }) : text}
      {event.reason ? <> {fill(w.reason, { reason: event.reason })}</> : null}
    </>
  );
}

/** A webhook run: where it went, what it carried, how it went; its detail page for admins. */
function RunText({ page, run, admin }: { page: PageContext; run: CaseWebhookRun; admin: boolean }) {
  const w = page.words.casePage;
  return (
    <>
      {fill(w.webhookRun, {
        // The webhooks' settings are an admin's: a member sees where it went, not its path.
        url: admin ? run.url : new URL(run.url).host,
        event: triggerText(page, run.trigger),
        status: w.runStatuses[run.status],
      })}{' '}
      ({runAnswerText(page, run)})
      {admin ? (
        <>
          {' '}
          <a
            href={`/dashboard/webhooks/${encodeURIComponent(run.webhookId)}/runs/${encodeURIComponent(run.id)}`}
          >
            {w.openRun}
          </a>
        </>
      ) : null}
    </>
  );
}

/**
 * The signing link an admin took: a read-only field to select, and the kit's copy button. It
 * is in this answer only; the page it leads back to never shows it again.
 */
function SigningLink({ page, link }: { page: PageContext; link: TakenSigningLink }) {
  const w = page.words.casePage;
  return (
    <section aria-labelledby="signing-link-title" class="card signing-link">
      <h2 id="signing-link-title">{fill(w.linkTitle, { name: link.recipient.name })}</h2>
      <p class="hint" id="signing-link-hint">
        {fill(w.linkHint, { name: link.recipient.name })}
      </p>
      <div class="field">
        <label for="signing-link">{w.signingLink}</label>
        <input
          id="signing-link"
          type="text"
          readOnly
          value={link.url}
          aria-describedby="signing-link-hint"
          autocomplete="off"
          spellcheck={false}
        />
      </div>
      <CopyButton page={page} target="signing-link" />
    </section>
  );
}

/** The delete's confirmation, which works without script. */
export function CaseDeletePage(props: { page: PageContext; view: CaseView }) {
  const { page, view } = props;
  const w = page.words.casePage;
  const base = `/dashboard/cases/${encodeURIComponent(view.id)}`;
  return (
    <Layout page={page} title={fill(w.deleteQuestion, { title: view.title })} section="cases">
      <p>{w.deleteText}</p>
      <form method="post" action={`${base}/delete`} class="actions">
        <CsrfField page={page} />
        <button type="submit" class="danger">
          {w.delete}
        </button>
        <a class="button secondary" href={base}>
          {page.words.common.cancel}
        </a>
      </form>
    </Layout>
  );
}
