import { caseFolder } from '../cases/index.js';

/**
 * Where a sealed document is kept: beside the case's own copy, which stays as the evidence of
 * what was shown (`cases/<company hex>/<case>/sealed-<index>.pdf`). One key per document, so
 * that a seal that is retried after a crash finds the first run's file instead of making a
 * second, different one.
 */
export function sealedDocumentKey(company: string, caseId: string, index: number): string {
  return `${caseFolder(company, caseId)}sealed-${index}.pdf`;
}
