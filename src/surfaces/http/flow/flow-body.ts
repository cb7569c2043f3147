import type { FlowSitting } from '../../../service/webflows/index.js';
import { fieldName } from './flow-fields.js';

/** What a post of the answer page asks for. */
export interface FlowPost {
  action: 'save' | 'send';
  /** The answers by question tag, as typed. */
  answers: Map<string, string>;
  /** The same by field name, to show them again as typed. */
  typed: Map<string, string>;
}

/**
 * The answer page's form body (`application/x-www-form-urlencoded`, parsed): `action` and one
 * `q<i>` per question. A field the form did not send (a yes-or-no left unchosen) is left out, so
 * that its saved answer stays; a repeated or non-text field is not one the page sends and is
 * ignored. Anything but `send` saves: Enter in a field submits the form's first button, Save.
 */
export function flowPostOf(body: unknown, sitting: FlowSitting): FlowPost {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const answers = new Map<string, string>();
  const typed = new Map<string, string>();
  for (const q of sitting.questions) {
    const value = fields[fieldName(q)];
    if (typeof value !== 'string') continue;
    answers.set(q.tag, value);
    typed.set(fieldName(q), value);
  }
  return { action: fields.action === 'send' ? 'send' : 'save', answers, typed };
}
