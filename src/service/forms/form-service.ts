import { DocpipeError } from '../../base/errors/index.js';
import type { KeyCreator } from '../cases/index.js';
import { FolderRepository } from '../companies/index.js';
import { FormRepository } from './form-repository.js';
import type { FormRecord, FormView, TagDefinition } from './form-types.js';
import { formView } from './form-view.js';
import {
  submitForm,
  type FormSubmitted,
  type SubmitFormDeps,
  type SubmitFormOptions,
} from './submit-form.js';

/**
 * The v2 forms of a company (spec 4.1) as the HTTP surface serves them: a form, its tags, and
 * submit. Every read names the company: another company's form is `form-not-found`, as an
 * absent one is, in the same words.
 */
export class FormService {
  constructor(private readonly deps: SubmitFormDeps) {}

  /** spec 2.1's Form. */
  async getForm(company: string, id: string): Promise<FormView> {
    const form = await this.find(company, id);
    const folder = await new FolderRepository(this.deps.db).defaultFolder(company);
    return formView(form, folder.name);
  }

  /** The form's TagDefinitions. */
  async getTags(company: string, id: string): Promise<TagDefinition[]> {
    return (await this.find(company, id)).tags;
  }

  /** See submitForm. */
  submit(
    company: string,
    creator: KeyCreator,
    id: string,
    body: unknown,
    options: SubmitFormOptions,
  ): Promise<FormSubmitted> {
    return submitForm(this.deps, company, creator, id, body, options);
  }

  private async find(company: string, id: string): Promise<FormRecord> {
    const form = await new FormRepository(this.deps.db).find(company, id);
    if (!form)
      throw new DocpipeError('form-not-found', [
        { field: 'form_id', message: `the company has no form ${JSON.stringify(id)}` },
      ]);
    return form;
  }
}
