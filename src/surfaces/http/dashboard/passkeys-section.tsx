import { createElement } from 'preact';
import type { Passkey } from '../../../service/accounts/index.js';
import { CsrfField, Field, Layout, Notice, fill, type PageContext } from '../pages/index.js';
import { shownTime } from './dashboard-time.js';

export const PASSKEYS_PATH = '/dashboard/account/security/passkeys';
/** The scripts the security page loads for the passkey ceremony (Layout's `scripts`). */
export const PASSKEY_SCRIPTS = ['webauthn.js', 'passkeys.js'] as const;

/** What a finished passkey step says at the top of the section (`?done=`). */
export type PasskeyDone = 'passkey-added' | 'passkey-removed';

/**
 * The security page's "Passkeys" section: the login's passkeys (name, added, last used, a
 * "Remove" link to its confirmation page) and "Add a passkey", a form that assets/pages/
 * passkeys.js's <passkey-add> shows and drives where the browser can make passkeys; without
 * script it stays hidden and a sentence says why.
 */
export function PasskeysSection({
  page,
  passkeys,
  done,
}: {
  page: PageContext;
  passkeys: readonly Passkey[];
  done?: string | undefined;
}) {
  const w = page.words.passkeys;
  return (
    <section aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">{w.heading}</h2>
      {done === 'passkey-added' ? <Notice kind="done">{w.added}</Notice> : null}
      {done === 'passkey-removed' ? <Notice kind="done">{w.removed}</Notice> : null}
      <p>{w.intro}</p>
      {passkeys.length === 0 ? (
        <p>{w.none}</p>
      ) : (
        <div class="table-wrap" role="region" aria-label={w.listLabel} tabindex={0}>
          <table class="passkeys-table">
            <thead>
              <tr>
                <th scope="col">{w.name}</th>
                <th scope="col">{w.created}</th>
                <th scope="col">{w.lastUsed}</th>
                <td></td>
              </tr>
            </thead>
            <tbody>
              {passkeys.map((p) => (
                <tr>
                  <th scope="row">
                    {p.name}
                    {p.backedUp ? ` (${w.synced})` : ''}
                  </th>
                  <td>{shownTime(page.language, p.createdAt)}</td>
                  <td>{p.lastUsedAt ? shownTime(page.language, p.lastUsedAt) : w.never}</td>
                  <td>
                    <a
                      href={`${PASSKEYS_PATH}/${p.id}/remove`}
                      aria-label={fill(w.removeNamed, { name: p.name })}
                    >
                      {w.remove}
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {createElement(
        'passkey-add',
        {
          'data-options': `${PASSKEYS_PATH}/options`,
          'data-verify': PASSKEYS_PATH,
          'data-working': w.working,
          'data-failed': w.addFailed,
          'data-cancelled': w.addCancelled,
          'data-unsupported': w.unsupported,
        },
        <p class="passkey-noscript">{w.needsScript}</p>,
        <form method="post" action={`${PASSKEYS_PATH}/options`} hidden novalidate>
          <CsrfField page={page} />
          <Field
            name="name"
            label={w.nameLabel}
            hint={w.nameHint}
            required
            autocomplete="off"
            maxLength={100}
          />
          <div class="actions">
            <button type="submit">{w.add}</button>
          </div>
          <p class="passkey-status" role="status"></p>
        </form>,
      )}
    </section>
  );
}

/** `GET .../passkeys/:id/remove`: the confirmation, a page of its own that works without script. */
export function PasskeyRemovePage({ page, passkey }: { page: PageContext; passkey: Passkey }) {
  const w = page.words.passkeys;
  return (
    <Layout page={page} title={w.removeTitle} narrow>
      <p>{fill(w.removeIntro, { name: passkey.name })}</p>
      <form method="post" action={`${PASSKEYS_PATH}/${passkey.id}/remove`} class="actions">
        <CsrfField page={page} />
        <button type="submit" class="danger">
          {w.removeConfirm}
        </button>
        <a class="button secondary" href="/dashboard/account/security">
          {page.words.common.cancel}
        </a>
      </form>
    </Layout>
  );
}
