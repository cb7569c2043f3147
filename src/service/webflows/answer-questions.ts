import type { QuestionKind, TagDefinition } from '../forms/index.js';
import type { FlowForm } from './flow-form.js';

/** What a question asks for, which decides its field on the page and how its answer is checked. */
export type QuestionField = 'text' | 'number' | 'date' | 'boolean' | 'choice' | QuestionKind;

/** One question of a flow: a TagDefinition of its form, as the answer page asks it. */
export interface FlowQuestion {
  /** Its place among the flow's questions: the page's field names are by place, not by tag. */
  index: number;
  tag: string;
  /** The TagDefinition's `name`, else its tag. */
  label: string;
  field: QuestionField;
  /** The TagInput type its answer fills the templates as. */
  type: TagDefinition['type'];
  /** The form's default (or the flow's prefill); null: none. */
  value: TagDefinition['value'];
  choices: string[];
  /**
   * Whether "Send answers" needs an answer: a question with no default, since its case could
   * not fill the tag without one (form submit refuses a tag with neither value nor default).
   */
  required: boolean;
}

export function questionsOf(form: FlowForm): FlowQuestion[] {
  return form.tags.map((t, index) => ({
    index,
    tag: t.tag,
    label: t.name || t.tag,
    field: t.kind ?? (t.choices ? 'choice' : t.type),
    type: t.type,
    value: t.value,
    choices: t.choices ?? [],
    required: t.value === null || t.value === undefined,
  }));
}
