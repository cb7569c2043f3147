/**
 * Piscina entry of the prepare threads: sniff, fill and the PDF check run here, off the caller's
 * event loop, because zip, XML and PDF work is CPU-bound. The protocol is `src/render/prepare/prepare-task`.
 */
import { runPrepareTask } from '../src/render/prepare/prepare-task.js';

// pdf-lib writes notes about the PDFs it parses with console.warn ("Parsed number that is too
// large for some PDF readers"). In this thread they would reach the worker's stderr as raw lines
// among its JSON logs; what matters about a PDF is what the check decides, and it says so.
console.warn = () => undefined;

export default runPrepareTask;
