/**
 * Piscina entry of the thread that decodes images sent by clients (a drawn signature): the
 * decode is CPU-bound and is given a time budget, so it runs off the HTTP server's event loop,
 * and a thread that overruns its budget is ended with whatever it holds. The protocol is
 * `src/formats/raster/png-thread`.
 */
import { runReencodePngTask } from '../src/formats/raster/png-thread.js';

export default runReencodePngTask;
