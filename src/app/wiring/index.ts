export { startRuntime, type Runtime } from './runtime.js';
export { copyKeysOfRedis, openServiceDatabase, type ServiceDatabase } from './database.js';
export { connectClient } from './client.js';
export { createPreparer } from './preparer.js';
export { openStorage } from './storage.js';
export { testDataSweep } from './test-data-sweep.js';
export {
  openHttpDependencies,
  type HttpDependencies,
  type HttpDependenciesOptions,
} from './http-dependencies.js';
