import {
  CsrfField,
  ErrorSummary,
  Field,
  Layout,
  Notice,
  fill,
  type FieldErrors,
  type PageContext,
} from '../pages/index.js';
import type { ApiKeyRecord, KeyEnvironment } from '../../../service/keys/index.js';
import { keyTokenPrefix } from '../../../service/keys/index.js';
import { CopyButton } from './dashboard-copy-button.js';
import { shownTime } from './dashboard-time.js';
import { KEY_EXPIRIES, type KeyExpiry } from './keys-form.js';

/** A key of the list, with the name of the member it acts for (absent: none). */
export interface ListedKey extends ApiKeyRecord {
  userName?: string;
  /** A partner integration's partner, by name (spec 5.6). */
  partnerName?: string;
}

export interface KeysListProps {
  page: PageContext;
  companyId: string;
  companyName: string;
  environment: KeyEnvironment;
  keys: readonly ListedKey[];
  now: Date;
  /** The create form's values and problems, when it came back refused. */
  values?: { name?: string; expires?: string };
  errors?: FieldErrors;
  /** A key just revoked, by name. */
  revoked?: string;
}

/**
 * The visible start of a key, from its record: the environment's prefix and the key's id (the
 * part after it is the secret, which nobody can show). A key copied from Redis was made before
 * keys named their environment, as `dp_<id>_`.
 */
export function keyStart(key: ApiKeyRecord, environment: KeyEnvironment): string {
  return key.copiedFromRedisAt ? `dp_${key.id}_…` : `${keyTokenPrefix(environment)}${key.id}_…`;
}

/** `/dashboard/keys`: the company id, the create form, and every key of the company. */
export function KeysListPage(props: KeysListProps) {
  const { page } = props;
  const w = page.words.keys;
  const errors = props.errors ?? {};
  const expiryLabel: Record<KeyExpiry, string> = {
    never: w.expiresNever,
    '30': w.expires30,
    '90': w.expires90,
    '365': w.expires365,
  };
  const chosen = props.values?.expires ?? 'never';
  const expiresError = errors.expires;
  return (
    <Layout page={page} title={w.title} section="keys">
      {props.revoked !== undefined ? (
        <Notice kind="done">{fill(w.revoked, { name: props.revoked })}</Notice>
      ) : null}
      <ErrorSummary page={page} errors={errors} />
      <p>{fill(w.intro, { company: props.companyName })}</p>
      <section class="card" aria-labelledby="company-id-title">
        <h2 id="company-id-title">{w.companyIdTitle}</h2>
        <p class="hint">{w.companyIdHint}</p>
        <p class="copy-line">
          <code id="company-id">{props.companyId}</code>{' '}
          <CopyButton page={page} target="company-id" />
        </p>
      </section>
      <section class="card" aria-labelledby="create-key-title">
        <h2 id="create-key-title">{w.createTitle}</h2>
        <form method="post" action="/dashboard/keys" novalidate>
          <CsrfField page={page} />
          <Field
            name="name"
            label={w.name}
            hint={w.nameHint}
            value={props.values?.name}
            errors={errors}
            required
            maxLength={200}
            autocomplete="off"
          />
          <div class={expiresError ? 'field has-error' : 'field'}>
            <label for="field-expires">{w.expires}</label>
            {expiresError ? (
              <p class="field-error" id="field-expires-error">
                {expiresError}
              </p>
            ) : null}
            <select
              id="field-expires"
              name="expires"
              aria-invalid={expiresError ? 'true' : undefined}
              aria-describedby={expiresError ? 'field-expires-error' : undefined}
            >
              {KEY_EXPIRIES.map((e) => (
                <option value={e} selected={e === chosen}>
                  {expiryLabel[e]}
                </option>
              ))}
            </select>
          </div>
          <button type="submit">{w.create}</button>
        </form>
      </section>
      <h2 id="keys-title">{w.listTitle}</h2>
      {props.keys.length === 0 ? (
        <p>{w.none}</p>
      ) : (
        <div class="table-wrap" role="region" aria-labelledby="keys-title" tabindex={0}>
          <table class="keys-table stack-table">
            <thead>
              <tr>
                <th scope="col">{w.colName}</th>
                <th scope="col">{w.colPrefix}</th>
                <th scope="col">{w.colCreatedBy}</th>
                <th scope="col">{w.colCreated}</th>
                <th scope="col">{w.colLastUsed}</th>
                <th scope="col">{w.colExpires}</th>
                <th scope="col">{w.colState}</th>
              </tr>
            </thead>
            <tbody>
              {props.keys.map((k) => (
                <KeyRow page={page} keyRecord={k} environment={props.environment} now={props.now} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Layout>
  );
}

function KeyRow({
  page,
  keyRecord: k,
  environment,
  now,
}: {
  page: PageContext;
  keyRecord: ListedKey;
  environment: KeyEnvironment;
  now: Date;
}) {
  const w = page.words.keys;
  const at = (d: Date) => shownTime(page, d);
  const expired = k.expiresAt !== undefined && k.expiresAt.getTime() <= now.getTime();
  // Without a user and not copied from Redis: its member was removed, and it answers
  // key-has-no-user (a key copied from Redis never had one, and works).
  const orphan = k.userId === undefined && k.copiedFromRedisAt === undefined;
  const revokeUrl = `/dashboard/keys/${k.id}/revoke`;
  return (
    // Each cell carries its column's name (data-label): at 360 px the row stacks, and app.css
    // shows the name above the value (the header row is then out of sight).
    <tr>
      <th scope="row" data-label={w.colName}>
        {k.partner === undefined ? (
          k.name
        ) : (
          // The partner webhook names its key in English; the list names it in the page's
          // language, with the partner that received it (spec 5.6: "partner integration").
          <>
            {w.partnerIntegration}
            <br />
            <span class="hint">
              {fill(w.partnerIntegrationBy, { partner: k.partnerName ?? k.partner })}
            </span>
          </>
        )}
      </th>
      <td data-label={w.colPrefix}>
        <code>{keyStart(k, environment)}</code>
      </td>
      <td data-label={w.colCreatedBy}>
        {k.userName ?? k.user ?? (orphan ? w.removedUser : w.noUser)}
      </td>
      <td data-label={w.colCreated}>{at(k.createdAt)}</td>
      <td data-label={w.colLastUsed}>{k.lastUsedAt ? at(k.lastUsedAt) : w.notUsed}</td>
      <td data-label={w.colExpires}>{k.expiresAt ? at(k.expiresAt) : w.expiresNever}</td>
      <td data-label={w.colState}>
        {k.revokedAt ? (
          fill(w.revokedOn, { date: at(k.revokedAt) })
        ) : expired ? (
          w.expiredState
        ) : (
          // The confirmation is a page of its own (GET), with or without script: a revoked key
          // cannot be brought back, and the page says what follows.
          <form method="get" action={revokeUrl} class="inline-form">
            <span class="state">{orphan ? w.noUserState : w.working}</span>
            <button type="submit" class="danger" aria-label={fill(w.revokeLabel, { name: k.name })}>
              {w.revoke}
            </button>
          </form>
        )}
      </td>
    </tr>
  );
}
