import { createElement } from 'preact';
import { Layout, Notice, fill, type Member, type PageContext } from '../pages/index.js';
import { CasesTable } from './home-cases-table.js';
import type { RecentCase } from './home-recent-cases.js';

export interface HomePageProps {
  page: PageContext;
  member: Member;
  /** The login's address, when it is not confirmed yet. */
  unconfirmedEmail: string | undefined;
  /** The curl command of the getting-started card. */
  command: string;
  cases: readonly RecentCase[];
}

/**
 * `/dashboard`: the company, a getting-started card that leads from nothing to a first case
 * (a key, a command to paste, a webhook), and the company's most recent cases.
 */
export function HomePage({ page, member, unconfirmedEmail, command, cases }: HomePageProps) {
  const w = page.words.home;
  const company = member.companyName;
  const keyPrefix = page.environment === 'test' ? 'dp_test_' : 'dp_live_';
  return (
    <Layout page={page} title={w.title}>
      {unconfirmedEmail ? (
        <Notice kind="problem">
          <p>{fill(w.unconfirmed, { email: unconfirmedEmail })}</p>
          <p>
            <a href="/user/confirm/resend">{w.resend}</a>
          </p>
        </Notice>
      ) : null}
      <dl class="home-company">
        <dt>{page.words.common.company}</dt>
        <dd>{company}</dd>
        <dt>{w.companyId}</dt>
        <dd>
          <code>{member.companyId}</code>
        </dd>
      </dl>
      <section class="card" aria-labelledby="getting-started">
        <h2 id="getting-started">{w.gettingStarted}</h2>
        <p>{w.gettingStartedIntro}</p>
        <ol class="home-steps">
          <li>
            <h3>{w.keyStep}</h3>
            <p>{fill(member.admin ? w.keyStepAdmin : w.keyStepMember, { company })}</p>
            <pre>
              <code>{`export DOCPIPE_KEY='${keyPrefix}...'`}</code>
            </pre>
            {member.admin ? (
              <p>
                <a href="/dashboard/keys">{w.keyStepLink}</a>
              </p>
            ) : null}
          </li>
          <li>
            <h3>{w.caseStep}</h3>
            <p>{fill(w.caseStepText, { company, email: member.session.email })}</p>
            <pre id="first-case-command" role="region" aria-label={w.commandLabel} tabindex={0}>
              {command}
            </pre>
            {
              // A custom element (assets/pages/app.js) that JSX's typed elements do not list.
              createElement(
                'copy-button',
                { for: 'first-case-command', 'data-copied': page.words.common.copied },
                w.copyCommand,
              )
            }
            <p>{w.caseStepMore}</p>
            <p>
              {
                // The contract the server serves itself: a dashboard user can open it, where
                // the repository's docs/ may be out of their reach.
                w.apiReference
              }{' '}
              <a href="/openapi.json">
                <code>/openapi.json</code>
              </a>
            </p>
          </li>
          <li>
            <h3>{w.webhookStep}</h3>
            <p>{w.webhookStepText}</p>
            {member.admin ? (
              <p>
                <a href="/dashboard/webhooks">{w.webhookStepLink}</a>
              </p>
            ) : (
              <p>{fill(w.webhookStepMember, { company })}</p>
            )}
          </li>
        </ol>
      </section>
      <section aria-labelledby="recent-cases">
        <h2 id="recent-cases">{w.recentCases}</h2>
        {cases.length === 0 ? (
          <p>{w.noCases}</p>
        ) : (
          <CasesTable page={page} cases={cases} caption={w.recentCases} />
        )}
        <p>
          <a href="/dashboard/cases">{w.allCases}</a>
        </p>
      </section>
    </Layout>
  );
}
