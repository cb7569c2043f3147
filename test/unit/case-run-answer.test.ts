import { describe, expect, it } from 'vitest';
import type { CaseWebhookRun } from '../../src/service/cases/index.js';
import { runAnswerText } from '../../src/surfaces/http/dashboard/case-run-answer.js';
import type { PageContext } from '../../src/surfaces/http/pages/index.js';
import { DA } from '../../src/surfaces/http/pages/words-da.js';
import { EN } from '../../src/surfaces/http/pages/words-en.js';

const page = (words: PageContext['words']) => ({ words }) as unknown as PageContext;
const run = (attempts: number, lastStatus: number | null, lastError: string | null) =>
  ({ attempts, lastStatus, lastError }) as CaseWebhookRun;

describe("a webhook run's tries on the case page", () => {
  it('counts tries in the singular for one, and says why no answer came, in English', () => {
    const say = (r: CaseWebhookRun) => runAnswerText(page(EN), r);
    expect(say(run(0, null, null))).toBe('not tried yet');
    expect(say(run(1, 200, null))).toBe('1 try, last answer HTTP 200');
    expect(say(run(3, 500, '500 Internal Server Error'))).toBe('3 tries, last answer HTTP 500');
    expect(say(run(1, null, 'connect ECONNREFUSED 127.0.0.1:9'))).toBe(
      '1 try, no answer: the connection was refused',
    );
    expect(say(run(2, null, 'timed out: no answer within 10 s'))).toBe(
      '2 tries, no answer: it timed out after 10 s',
    );
    expect(say(run(1, null, 'getaddrinfo ENOTFOUND hooks.invalid'))).toBe(
      '1 try, no answer: the address was not found',
    );
    expect(say(run(1, null, 'socket hang up'))).toBe(
      '1 try, no answer: the connection was cut off',
    );
    // A message without words of its own is shown as the service recorded it.
    expect(say(run(1, null, 'something new'))).toBe('1 try, no answer: something new');
    expect(say(run(1, null, null))).toBe('1 try, no answer');
  });

  it('says the same in Danish', () => {
    const say = (r: CaseWebhookRun) => runAnswerText(page(DA), r);
    expect(say(run(0, null, null))).toBe('ikke forsøgt endnu');
    expect(say(run(1, 200, null))).toBe('1 forsøg, sidste svar HTTP 200');
    expect(say(run(2, 503, null))).toBe('2 forsøg, sidste svar HTTP 503');
    expect(say(run(1, null, 'connect ECONNREFUSED 127.0.0.1:9'))).toBe(
      '1 forsøg, intet svar: forbindelsen blev afvist',
    );
    expect(say(run(4, null, 'timed out: no answer within 10 s'))).toBe(
      '4 forsøg, intet svar: tidsgrænsen på 10 s blev overskredet',
    );
    expect(say(run(1, null, 'not sent: the webhook is disabled'))).toBe(
      '1 forsøg, intet svar: ikke sendt, webhooken er slået fra',
    );
  });
});
