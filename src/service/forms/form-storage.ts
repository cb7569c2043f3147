/**
 * Where a form keeps its templates: `forms/<company as UTF-8 hex>/<import id>/<index>.<docx|pdf>`,
 * outside the folders retention sweeps (a form's templates live as long as the form). Each import
 * writes under an id of its own (a UUID), so that a re-import never overwrites the templates the
 * form in use reads: the row is switched to the new ones in one write, and the old ones removed
 * after. Keys are lower case, as storage wants: the company is hex-encoded as in case keys, and
 * the form's own id (which may have capitals) is not in the key at all.
 */
export function formTemplateKey(
  company: string,
  importId: string,
  index: number,
  kind: 'docx' | 'pdf',
): string {
  return `${formsFolder(company)}${importId.toLowerCase()}/${index}.${kind}`;
}

/** The folder of every form template of a company (ends with `/`). */
export function formsFolder(company: string): string {
  return `forms/${Buffer.from(company, 'utf8').toString('hex')}/`;
}
