import type { ComponentChildren } from 'preact';
import { Layout, type PageContext } from '../pages/index.js';

/** Why a link from an e-mail did not work, as a page with what to do next (`children`). */
export function LinkProblemPage({
  page,
  state,
  children,
}: {
  page: PageContext;
  state: 'used' | 'expired' | 'unknown';
  children?: ComponentChildren;
}) {
  const w = page.words.account;
  const [title, text] =
    state === 'used'
      ? [w.linkUsedTitle, w.linkUsed]
      : state === 'expired'
        ? [w.linkExpiredTitle, w.linkExpired]
        : [w.linkUnknownTitle, w.linkUnknown];
  return (
    <Layout page={page} title={title} narrow>
      <p>{text}</p>
      {children}
    </Layout>
  );
}

/** A used or expired link answers 410 (it was real, and is gone), an unknown one 404. */
export function linkProblemStatus(state: 'used' | 'expired' | 'unknown'): number {
  return state === 'unknown' ? 404 : 410;
}
