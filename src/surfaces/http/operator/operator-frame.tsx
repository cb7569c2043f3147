import type { ComponentChildren } from 'preact';
import { Layout, type PageContext } from '../pages/index.js';

/** Where the operator's pages are. */
export const OPERATOR_PATH = '/admin';
/** The queue dashboard beside them (operations/dashboard-routes.ts serves it). */
export const QUEUES_PATH = '/admin/queues';

export interface OperatorFrameProps {
  page: PageContext;
  title: string;
  /** Which link of the operator's navigation is this page's. */
  current?: 'companies';
  narrow?: boolean;
  children: ComponentChildren;
}

/**
 * An operator page: the pages' Layout without the dashboard's navigation (the operator is no
 * member of a company, and needs no session), with a line saying whose pages these are and the
 * operator's own links: the companies and the queue dashboard.
 */
export function OperatorFrame({ page, title, current, narrow, children }: OperatorFrameProps) {
  const w = page.words.admin;
  return (
    <Layout page={page} title={title} narrow={narrow}>
      <div class="operator-bar">
        <p class="operator-header">{w.header}</p>
        <nav aria-label={w.navigation}>
          <ul class="operator-nav">
            <li>
              <a href={OPERATOR_PATH} aria-current={current === 'companies' ? 'page' : undefined}>
                {w.companies}
              </a>
            </li>
            <li>
              <a href={QUEUES_PATH}>{w.queues}</a>
            </li>
          </ul>
        </nav>
      </div>
      {children}
    </Layout>
  );
}
