import type { ComponentChildren } from 'preact';
import { CSRF_FIELD } from './csrf.js';
import { assetUrl } from './page-assets.js';
import type { PageContext } from './page-context.js';
import { fill } from './words.js';

/** The dashboard's sections, as the navigation names them. */
export type Section = 'cases' | 'flows' | 'keys' | 'webhooks' | 'members' | 'credits' | 'settings';

export interface LayoutProps {
  page: PageContext;
  title: string;
  /** The section the page belongs to; the navigation marks it. Absent: no navigation (log-in). */
  section?: Section;
  /** Shown under the title: the sign-up's or log-in's narrow column rather than the wide one. */
  narrow?: boolean;
  children: ComponentChildren;
}

const NAV: readonly { section: Section; href: string; key: Section }[] = [
  { section: 'cases', href: '/dashboard/cases', key: 'cases' },
  { section: 'flows', href: '/dashboard/flows', key: 'flows' },
  { section: 'keys', href: '/dashboard/keys', key: 'keys' },
  { section: 'webhooks', href: '/dashboard/webhooks', key: 'webhooks' },
  { section: 'members', href: '/dashboard/members', key: 'members' },
  { section: 'credits', href: '/dashboard/credits', key: 'credits' },
  { section: 'settings', href: '/dashboard/settings', key: 'settings' },
];

/**
 * Every page's frame: the language, the test environment's banner, a skip link, the
 * navigation (for a logged-in member), the language switch and log-out, and the assets. No
 * inline script or style anywhere (the CSP forbids them): htmx's configuration is in a meta
 * element, and the CSRF token reaches htmx's requests through `hx-headers` on the body.
 */
export function Layout({ page, title, section, narrow, children }: LayoutProps) {
  const w = page.words.common;
  const session = page.session;
  const member = session && !session.secondFactorDue ? session.user : null;
  const navLabel: Record<Section, string> = {
    cases: w.cases,
    flows: page.words.flows.nav,
    keys: w.apiKeys,
    webhooks: w.webhooks,
    members: w.members,
    credits: w.credits,
    settings: w.settings,
  };
  return (
    <html lang={page.language}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta
          name="htmx-config"
          content='{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false,"selfRequestsOnly":true}'
        />
        <title>{`${title} · ${w.product}`}</title>
        <link rel="stylesheet" href={assetUrl('app.css')} />
        <script src={assetUrl('htmx.js')} defer></script>
        <script src={assetUrl('app.js')} defer></script>
      </head>
      <body hx-headers={JSON.stringify({ 'X-CSRF-Token': page.csrf })}>
        <a class="skip-link" href="#main">
          {w.skipToContent}
        </a>
        {page.environment === 'test' ? (
          <div class="test-banner" role="note">
            {w.testBanner}
          </div>
        ) : null}
        <header class="top">
          <a class="brand" href={member ? '/dashboard' : '/'}>
            {w.product}
          </a>
          {member ? (
            <nav aria-label={w.mainNavigation} class="nav">
              <ul>
                {NAV.map((item) => (
                  <li>
                    <a
                      href={item.href}
                      aria-current={item.section === section ? 'page' : undefined}
                    >
                      {navLabel[item.key]}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <div class="top-actions">
            <form method="post" action="/language" class="inline-form">
              <input type="hidden" name={CSRF_FIELD} value={page.csrf} />
              <input type="hidden" name="lang" value={page.language === 'da' ? 'en' : 'da'} />
              <input type="hidden" name="back" value={page.path} />
              <button
                type="submit"
                class="link-button"
                lang={page.language === 'da' ? 'en' : 'da'}
                aria-label={w.switchLanguageLabel}
              >
                {w.switchLanguage}
              </button>
            </form>
            {session ? (
              <form method="post" action="/user/logout" class="inline-form">
                <input type="hidden" name={CSRF_FIELD} value={page.csrf} />
                {/* The name leads to the person's own account (name, language, password, two-factor). */}
                {member ? (
                  <a class="who" href="/dashboard/account">
                    {fill(w.loggedInAs, { name: session.name })}
                  </a>
                ) : (
                  <span class="who">{fill(w.loggedInAs, { name: session.name })}</span>
                )}
                <button type="submit" class="link-button">
                  {w.logOut}
                </button>
              </form>
            ) : null}
          </div>
        </header>
        <main id="main" class={narrow ? 'main narrow' : 'main'} tabindex={-1}>
          <h1>{title}</h1>
          {children}
        </main>
      </body>
    </html>
  );
}
