import { describe, expect, it } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import {
  WEBHOOK_FIELDS,
  WebhookRefusedError,
  checkWebhookDestination,
  type NewWebhook,
} from '../../src/service/webhooks/index.js';
import { formErrorsOf, valuesOfPosted } from '../../src/surfaces/http/dashboard/webhooks-form.js';
import type { PageContext } from '../../src/surfaces/http/pages/index.js';
import { DA } from '../../src/surfaces/http/pages/words-da.js';
import { EN } from '../../src/surfaces/http/pages/words-en.js';

const page = (words: PageContext['words']) => ({ words }) as unknown as PageContext;

const input: NewWebhook = {
  url: 'https://hooks.example.test/in',
  method: 'POST',
  active: true,
  triggers: ['case.created'],
  headers: [],
};
const values = valuesOfPosted({ url: input.url, triggers: 'case.created' });
const resolvesTo = (address: string) => () => Promise.resolve([{ address, family: 4 as const }]);

async function refusal(): Promise<WebhookRefusedError> {
  const err: unknown = await checkWebhookDestination(input, {
    allowPrivate: false,
    lookup: resolvesTo('10.1.2.3'),
  }).catch((e: unknown) => e);
  if (!(err instanceof WebhookRefusedError))
    throw new Error(`not refused as expected: ${String(err)}`);
  return err;
}

describe('a refused webhook destination, worded from its reason', () => {
  it('carries the structured reason beside the detail, and keeps it off the wire', async () => {
    const err = await refusal();
    expect(err.slug).toBe('validation-failed');
    expect(err.details).toHaveLength(1);
    const [detail] = err.details;
    expect(err.reasonOf(detail!)).toEqual({
      reason: 'private-address',
      address: '10.1.2.3',
      kind: 'private',
      host: 'hooks.example.test',
    });
    // Spec 7.2: a detail is {field, message}; an API client sees nothing else.
    expect(err.toFailure()).toEqual({
      error: 'validation-failed',
      details: [{ field: WEBHOOK_FIELDS.url, message: detail!.message }],
    });
  });

  it('is worded in the page’s language whatever the service’s English says', async () => {
    const found = await refusal();
    // The service's message reworded: the page must not depend on it.
    const detail = { field: WEBHOOK_FIELDS.url, message: 'destination not allowed' };
    const reworded = new WebhookRefusedError(
      [detail],
      new Map([[detail, found.reasonOf(found.details[0]!)!]]),
    );
    expect(formErrorsOf(reworded, values, page(DA)).url).toBe(
      'Afvist: 10.1.2.3 er en privat adresse (hooks.example.test), som denne installations webhooks ikke når. Brug modtagerens offentlige adresse (driftsansvarlig kan tillade private med DOCPIPE_WEBHOOK_ALLOW_PRIVATE=true).',
    );
    expect(formErrorsOf(reworded, values, page(EN)).url).toMatch(
      /^10\.1\.2\.3 is a private address \(hooks\.example\.test\), which/,
    );
  });

  it('does not read a reason into English text that has none', () => {
    const message =
      'refused: 10.1.2.3 is a private address; set DOCPIPE_WEBHOOK_ALLOW_PRIVATE=true';
    const plain = new DocpipeError('validation-failed', [{ field: WEBHOOK_FIELDS.url, message }]);
    expect(formErrorsOf(plain, values, page(EN)).url).toBe(
      '10.1.2.3 is a private address; set DOCPIPE_WEBHOOK_ALLOW_PRIVATE=true',
    );
  });

  it('puts a detail of a field named like a prototype member under the URL', () => {
    const plain = new DocpipeError('validation-failed', [{ field: 'constructor', message: 'odd' }]);
    expect(Object.keys(formErrorsOf(plain, values, page(EN)))).toEqual(['url']);
  });
});
