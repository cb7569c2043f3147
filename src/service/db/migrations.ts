import type { Migration } from 'kysely';
import { tenancy } from './migrations/0001-tenancy.js';
import { apiKeysFromRedis } from './migrations/0002-api-keys-from-redis.js';
import { cases } from './migrations/0003-cases.js';
import { forms } from './migrations/0004-forms.js';
import { signing } from './migrations/0005-signing.js';
import { delivery } from './migrations/0006-delivery.js';
import { eidLoginBrowser } from './migrations/0007-eid-login-browser.js';
import { caseViews } from './migrations/0008-case-views.js';
import { accounts } from './migrations/0009-accounts.js';
import { totpStep } from './migrations/0010-totp-step.js';
import { keyLastUsed } from './migrations/0011-key-last-used.js';
import { caseSource } from './migrations/0012-case-source.js';
import { caseSearch } from './migrations/0013-case-search.js';
import { caseAudit } from './migrations/0014-case-audit.js';
import { caseStateIndex } from './migrations/0015-case-state-index.js';
import { caseSearchText } from './migrations/0016-case-search-text.js';
import { partners } from './migrations/0017-partners.js';
import { webflows } from './migrations/0018-webflows.js';
import { webflowDelivery } from './migrations/0019-webflow-delivery.js';

/**
 * Every migration, in the order they apply, under the name each is recorded by. Listed in code,
 * not found by scanning a folder: the build, the package and a bundle all hold the same list,
 * and a migration cannot be left out by a file that did not ship. A name, once released, never
 * changes; a new migration is added at the end with the next number.
 */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-tenancy': tenancy,
  '0002-api-keys-from-redis': apiKeysFromRedis,
  '0003-cases': cases,
  '0004-forms': forms,
  '0005-signing': signing,
  '0006-delivery': delivery,
  '0007-eid-login-browser': eidLoginBrowser,
  '0008-case-views': caseViews,
  '0009-accounts': accounts,
  '0010-totp-step': totpStep,
  '0011-key-last-used': keyLastUsed,
  '0012-case-source': caseSource,
  '0013-case-search': caseSearch,
  '0014-case-audit': caseAudit,
  '0015-case-state-index': caseStateIndex,
  '0016-case-search-text': caseSearchText,
  '0017-partners': partners,
  '0018-webflows': webflows,
  '0019-webflow-delivery': webflowDelivery,
};
