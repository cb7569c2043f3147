/**
 * The preparer's task protocol: what a prepare thread is asked (`PrepareTask`) and answers
 * (`PrepareReply`). Typed failures come back as data (`{error, details}`), since error classes do
 * not survive the thread boundary; the caller rebuilds them with `DocpipeError.fromFailure`.
 */
import { isDocpipeError, type Failure } from '../../base/errors/index.js';
import { fillTemplate, type FillOptions } from '../../document/fill/index.js';
import { templateFields, type FieldsOptions } from '../../document/inspect/index.js';
import { documentFontFacts, prepareDocument, sniffCache } from './prepare-document.js';
import { checkPdfFidelity, finishProducedPdf, type StampOptions } from '../../formats/pdf/index.js';
import { sniff, type SniffLimits } from '../../formats/sniff/index.js';

export type PrepareTask =
  | { op: 'sniff'; bytes: Uint8Array; limits: SniffLimits }
  | { op: 'fill'; bytes: Uint8Array; tags: unknown; options: FillOptions }
  | { op: 'fields'; bytes: Uint8Array; options: FieldsOptions }
  | {
      op: 'prepare';
      bytes: Uint8Array;
      tags: unknown;
      options: FillOptions & { limits: SniffLimits };
    }
  | { op: 'check-pdf'; bytes: Uint8Array; field: string }
  | { op: 'document-fonts'; bytes: Uint8Array; limits: SniffLimits }
  | { op: 'finish-pdf'; bytes: Uint8Array; field: string; stamp: StampOptions; pdfa: boolean };

export type PrepareReply = { ok: true; value: unknown } | { ok: false; failure: Failure };

/** Runs one task where it is called: in a prepare thread, or in-thread for `InlinePreparer`. */
export async function runPrepareTask(task: PrepareTask): Promise<PrepareReply> {
  try {
    switch (task.op) {
      case 'sniff':
        return { ok: true, value: await sniff(task.bytes, task.limits) };
      case 'fill': {
        const { docx, fields, anchors } = fillTemplate(task.bytes, task.tags, task.options);
        return { ok: true, value: { docx, fields, anchors } };
      }
      case 'fields':
        return { ok: true, value: templateFields(task.bytes, task.options) };
      case 'prepare':
        return { ok: true, value: prepareDocument(task.bytes, task.tags, task.options) };
      case 'check-pdf':
        return { ok: true, value: await checkPdfFidelity(task.bytes, task.field, 'input') };
      case 'document-fonts': {
        // The package prepare sniffed, when this thread rendered the template before.
        const sniffed = sniffCache.sniffPackage(task.bytes, task.limits);
        const facts =
          sniffed.kind === 'docx'
            ? documentFontFacts(sniffed.pkg, task.limits)
            : { asked: [], embedded: [] };
        return { ok: true, value: facts };
      }
      case 'finish-pdf':
        return {
          ok: true,
          value: await finishProducedPdf(task.bytes, task.field, task.stamp, task.pdfa),
        };
    }
  } catch (err) {
    if (isDocpipeError(err)) return { ok: false, failure: err.toFailure() };
    throw err;
  }
}
