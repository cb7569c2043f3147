// The parts a one-off command opens for itself (a queue client, a prepare pool, the storage):
// kept apart from wiring/, whose roles (start, serve, worker) load the service and its database,
// so that `docpipe check` or `render` does not load them to start.
export { connectClient } from './client.js';
export { createPreparer } from './preparer.js';
export { openStorage } from './storage.js';
