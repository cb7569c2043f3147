/**
 * Piscina task: sniff, fill and fields run here, off the caller's event loop, because zip and
 * XML work is CPU-bound. Typed failures come back as data (`{error, details}`), since error
 * classes do not survive the thread boundary.
 */
import { isDocpipeError, type Failure } from '../src/errors/index.js';
import { fillTemplate, type FillOptions } from '../src/fill/index.js';
import { templateFields, type FieldsOptions } from '../src/inspect/index.js';
import { prepareDocument } from '../src/pipeline/prepare.js';
import { checkPdf, finishProducedPdf, type StampOptions } from '../src/pdf/index.js';
import { sniff, type SniffLimits } from '../src/sniff/index.js';

// pdf-lib writes notes about the PDFs it parses with console.warn ("Parsed number that is too
// large for some PDF readers"). In this thread they would reach the worker's stderr as raw lines
// among its JSON logs; what matters about a PDF is what the check decides, and it says so.
console.warn = () => undefined;

export type EngineTask =
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
  | { op: 'finish-pdf'; bytes: Uint8Array; field: string; stamp: StampOptions; pdfa: boolean };

export type EngineReply = { ok: true; value: unknown } | { ok: false; failure: Failure };

export default async function engineTask(task: EngineTask): Promise<EngineReply> {
  try {
    switch (task.op) {
      case 'sniff':
        return { ok: true, value: await sniff(task.bytes, task.limits) };
      case 'fill': {
        const { docx, fields } = fillTemplate(task.bytes, task.tags, task.options);
        return { ok: true, value: { docx, fields } };
      }
      case 'fields':
        return { ok: true, value: templateFields(task.bytes, task.options) };
      case 'prepare':
        return { ok: true, value: prepareDocument(task.bytes, task.tags, task.options) };
      case 'check-pdf':
        return { ok: true, value: await checkPdf(task.bytes, task.field, 'input') };
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
