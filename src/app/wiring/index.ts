export { startRuntime, type Runtime } from './runtime.js';
export { copyKeysOfRedis, openServiceDatabase, type ServiceDatabase } from './database.js';
export { testDataSweep } from './test-data-sweep.js';
export {
  openHttpDependencies,
  type HttpDependencies,
  type HttpDependenciesOptions,
} from './http-dependencies.js';
export { caseCreditsFor, cprCipherFor } from './case-parts.js';
