export { startRuntime, type Runtime } from './runtime.js';
export { connectClient } from './client.js';
export { createEngine } from './engine.js';
export { openStorage } from './storage.js';
