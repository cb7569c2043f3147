import { Layout, Notice, type PageContext } from '../pages/index.js';
import type { Webhook } from '../../../service/webhooks/index.js';
import { CopyButton } from './dashboard-copy-button.js';

/**
 * A webhook's signing secret, once: the answer of adding the webhook or of rotating its secret
 * (the POST's own answer, never cached; no redirect could show it again).
 */
export function WebhookSecretPage({
  page,
  webhook,
  secret,
  rotated,
}: {
  page: PageContext;
  webhook: Webhook;
  secret: string;
  rotated: boolean;
}) {
  const w = page.words.webhooks;
  return (
    <Layout page={page} title={rotated ? w.rotatedTitle : w.addedTitle} section="webhooks">
      <p class="wrap-anywhere">
        <code>
          {webhook.method} {webhook.url}
        </code>
      </p>
      <Notice kind="problem">{w.secretWarning}</Notice>
      <h2 id="secret-title">{w.secretTitle}</h2>
      <code id="webhook-secret" class="secret">
        {secret}
      </code>
      <CopyButton page={page} target="webhook-secret" />
      <p class="actions">
        <a class="button" href={`/dashboard/webhooks/${webhook.id}`}>
          {w.toWebhook}
        </a>
        <a class="button secondary" href="/dashboard/webhooks">
          {w.backToWebhooks}
        </a>
      </p>
    </Layout>
  );
}
