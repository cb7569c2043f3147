import { CsrfField, Layout, type PageContext } from '../pages/index.js';

/**
 * A webhook action's confirmation that works without script (rotating the secret, removing the
 * webhook): the question, what follows, and the form that posts the action.
 */
export function WebhookConfirmPage(props: {
  page: PageContext;
  webhookId: string;
  question: string;
  text: string;
  action: string;
  button: string;
}) {
  const { page } = props;
  return (
    <Layout page={page} title={props.question} section="webhooks">
      <p>{props.text}</p>
      <form method="post" action={props.action} class="actions">
        <CsrfField page={page} />
        <button type="submit" class="danger">
          {props.button}
        </button>
        <a class="button secondary" href={`/dashboard/webhooks/${props.webhookId}`}>
          {page.words.common.cancel}
        </a>
      </form>
    </Layout>
  );
}
