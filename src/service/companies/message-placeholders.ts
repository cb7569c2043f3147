import type { RecordProblem } from './record-errors.js';

/**
 * The placeholders a message template's subject and body may hold, written `{{recipient.name}}`
 * (spaces inside the braces allowed), each with what it is replaced by when an invitation is
 * sent. docs/companies.md lists them; a template naming another is refused when it is added,
 * so that no invitation goes out with a placeholder left in it.
 */
export const MESSAGE_PLACEHOLDERS = {
  'recipient.name': "the recipient's name",
  'recipient.email': "the recipient's e-mail address",
  'sender.name': "the sender's name (the user who sends the case)",
  'sender.email': "the sender's e-mail address",
  'company.name': "the company's name",
  'case.title': "the case's title",
  'case.referenceId': "the case's referenceId, or nothing",
  'case.expiresAt': 'the date the signing link expires',
  'case.message': "the case's settings.message, or nothing",
  signingUrl: "the recipient's signing link",
} as const;

export type MessagePlaceholder = keyof typeof MESSAGE_PLACEHOLDERS;

/** A placeholder found in a text: its name and where it begins (1-based line and column). */
export interface PlaceholderUse {
  name: string;
  line: number;
  column: number;
}

/** Every `{{...}}` in `text`, and where an opening `{{` has no closing `}}`. */
export function placeholdersIn(text: string): {
  uses: PlaceholderUse[];
  unclosed: PlaceholderUse[];
} {
  const uses: PlaceholderUse[] = [];
  const unclosed: PlaceholderUse[] = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf('{{', from);
    if (open < 0) break;
    const close = text.indexOf('}}', open + 2);
    const at = position(text, open);
    if (close < 0) {
      unclosed.push({ name: '', ...at });
      break;
    }
    uses.push({ name: text.slice(open + 2, close).trim(), ...at });
    from = close + 2;
  }
  return { uses, unclosed };
}

/** The problems of one text (`subject` or `body`): unknown placeholders and unclosed braces. */
export function placeholderProblems(text: string, path: string): RecordProblem[] {
  const { uses, unclosed } = placeholdersIn(text);
  const problems: RecordProblem[] = [];
  for (const use of uses)
    if (!Object.hasOwn(MESSAGE_PLACEHOLDERS, use.name))
      problems.push({
        path,
        message: `${where(use)}: unknown placeholder {{${use.name}}} (known: ${Object.keys(MESSAGE_PLACEHOLDERS).join(', ')})`,
      });
  for (const use of unclosed)
    problems.push({ path, message: `${where(use)}: "{{" is not closed by "}}"` });
  return problems;
}

/** `text` with each known placeholder replaced by its value (missing values become ''). */
export function fillPlaceholders(
  text: string,
  values: Partial<Record<MessagePlaceholder, string>>,
): string {
  return text.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(MESSAGE_PLACEHOLDERS, name) ? (values[name as MessagePlaceholder] ?? '') : whole,
  );
}

function where(use: PlaceholderUse): string {
  return `line ${use.line}, column ${use.column}`;
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
