import type { AnswerProblem, FlowSitting } from '../../../service/webflows/index.js';
import {
  CsrfField,
  ErrorSummary,
  fill,
  Layout,
  Notice,
  type FieldErrors,
  type PageContext,
} from '../pages/index.js';
import { fieldName, QuestionField } from './flow-fields.js';

export interface FlowPageProps {
  page: PageContext;
  token: string;
  sitting: FlowSitting;
  /** What was typed in a sitting whose answers were refused, by field name: shown as typed. */
  typed?: ReadonlyMap<string, string>;
  problems?: readonly AnswerProblem[];
  saved?: boolean;
  /** The service holds no CPR key, so a CPR answer could not be taken. */
  cprUnavailable?: boolean;
}

/**
 * The answer page: the flow's title, its message and who sends it, how far the answers are,
 * then one field per question, and Save and Send answers. A plain form post (no script
 * needed); `novalidate`, so that the server's check, which is the pipeline's, reports every
 * problem at once at its field rather than the browser stopping at the first.
 */
export function FlowPage(props: FlowPageProps) {
  const { page, sitting } = props;
  const w = page.words.flow;
  const errors = errorsOf(page, sitting, props.problems ?? []);
  const progress = { answered: sitting.progress.answered, total: sitting.progress.total };
  return (
    <Layout page={page} title={sitting.title} narrow>
      <p>{fill(w.from, { name: sitting.senderName, company: sitting.companyName })}</p>
      {(sitting.message ?? '')
        .split(/\n+/)
        .filter((line) => line.trim() !== '')
        .map((line) => (
          <p>{line}</p>
        ))}
      {props.saved && Object.keys(errors).length === 0 ? (
        <Notice kind="done">{fill(w.saved, progress)}</Notice>
      ) : null}
      {props.cprUnavailable ? <Notice kind="problem">{w.cprUnavailable}</Notice> : null}
      <ErrorSummary page={page} errors={summaryOf(sitting, errors)} />
      <p class="hint">
        <strong>{fill(w.progress, progress)}</strong>
      </p>
      <p class="hint">{w.intro}</p>
      <form method="post" action={`/flow/${props.token}`} novalidate>
        <CsrfField page={page} />
        {sitting.questions.map((q) => {
          const answer = sitting.answers.get(q.tag);
          const typed = props.typed?.get(fieldName(q));
          const stored = answer ? answer.value : q.value;
          const shown =
            typed ??
            (stored === null || stored === undefined
              ? ''
              : q.type === 'number'
                ? pageNumber(String(stored), page.language)
                : String(stored));
          return (
            <QuestionField
              page={page}
              question={q}
              value={shown}
              secret={answer?.secret ?? false}
              error={errors[fieldName(q)]}
            />
          );
        })}
        <div class="actions">
          <button type="submit" name="action" value="save" class="secondary">
            {w.save}
          </button>
          <button type="submit" name="action" value="send">
            {w.send}
          </button>
        </div>
      </form>
    </Layout>
  );
}

/** The thank-you page after Send answers: the link opens nothing any more. */
export function FlowThanksPage({
  page,
  sitting,
}: {
  page: PageContext;
  /** The flow just answered; none on FLOW_SENT_PATH, which no token reaches. */
  sitting?: FlowSitting | undefined;
}) {
  const w = page.words.flow;
  // The language switch comes back to FLOW_SENT_PATH: the link itself is used up and answers
  // as an unknown one does, and a token-free page can name neither the sender nor the flow.
  const here = { ...page, path: FLOW_SENT_PATH };
  return (
    <Layout page={here} title={w.thanksTitle} narrow>
      <Notice kind="done">
        {sitting ? fill(w.thanks, { name: sitting.senderName }) : w.thanksSent}
      </Notice>
      {sitting ? <p>{sitting.title}</p> : null}
    </Layout>
  );
}

/** The thank-you page without a token: where its language switch leads. */
export const FLOW_SENT_PATH = '/flow/sent';

/**
 * Each refused answer's sentence by field name: the page's words for its kind, and on the
 * English page the pipeline's own message for a text, number or date value (the message an
 * API caller gets for the same TagInput).
 */
function errorsOf(
  page: PageContext,
  sitting: FlowSitting,
  problems: readonly AnswerProblem[],
): FieldErrors {
  const w = page.words.flow;
  const out: Record<string, string> = {};
  for (const p of problems) {
    const q = sitting.questions[p.index];
    if (!q || out[fieldName(q)]) continue;
    const piped = p.code === 'text' || p.code === 'number' || p.code === 'date';
    out[fieldName(q)] =
      page.language === 'en' && piped ? capitalized(p.message) : w.problem[p.code];
  }
  return out;
}

/** The summary's lines name their question, since they are read away from the field. */
function summaryOf(sitting: FlowSitting, errors: FieldErrors): FieldErrors {
  const out: Record<string, string> = {};
  for (const q of sitting.questions) {
    const error = errors[fieldName(q)];
    if (error) out[fieldName(q)] = `${q.label}: ${error}`;
  }
  return out;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A stored number as the page's language writes it, so that it is read back as the same number
 * when the page is sent again (service/webflows' answer-number.ts): `8500,5` on a Danish page.
 */
function pageNumber(plain: string, language: string): string {
  return language === 'da' && /^-?\d+(\.\d+)?$/.test(plain) ? plain.replace('.', ',') : plain;
}
