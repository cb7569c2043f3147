import type { CaseWebhookRun } from '../../../service/cases/index.js';
import { fill, type PageContext } from '../pages/index.js';
import { byCount } from './count-words.js';

type WhyWords = PageContext['words']['casePage']['webhookRunWhy'];

/**
 * What the delivery records when no HTTP answer came (attempt-delivery.ts: Node's socket errors
 * and its own timeout and refusals), each in the member's words. The record is the service's
 * English and may change; a message matched by none is shown as recorded, never dropped.
 */
const WHY: readonly { pattern: RegExp; text: (w: WhyWords, m: RegExpExecArray) => string }[] = [
  { pattern: /\bECONNREFUSED\b/, text: (w) => w.refused },
  {
    pattern: /^timed out: no answer within ([\d.]+) s/,
    text: (w, m) => fill(w.timedOut, { seconds: m[1]! }),
  },
  { pattern: /\b(ENOTFOUND|EAI_AGAIN)\b/, text: (w) => w.notFound },
  { pattern: /\bECONNRESET\b|socket hang up/, text: (w) => w.cutOff },
  { pattern: /^not sent: the webhook is disabled/, text: (w) => w.disabled },
];

function whyText(w: WhyWords, error: string): string {
  for (const { pattern, text } of WHY) {
    const found = pattern.exec(error);
    if (found) return text(w, found);
  }
  return error;
}

/**
 * A webhook run's tries and its last answer, as the case's timeline says it: "2 tries, last
 * answer HTTP 500", "1 try, no answer: the connection was refused", "not tried yet".
 */
export function runAnswerText(page: PageContext, run: CaseWebhookRun): string {
  const w = page.words.casePage;
  if (run.attempts === 0) return w.webhookRunNotTried;
  const tries = fill(byCount(run.attempts, w.webhookRunTries), { count: run.attempts });
  if (run.lastStatus !== null) return fill(w.webhookRunAnswer, { tries, status: run.lastStatus });
  if (run.lastError === null || run.lastError === '')
    return fill(w.webhookRunNoAnswerUnknown, { tries });
  return fill(w.webhookRunNoAnswer, { tries, why: whyText(w.webhookRunWhy, run.lastError) });
}
