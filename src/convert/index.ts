export type { Converter, ConvertRequest } from './converter.js';
export { OfficePool, type OfficePoolStats } from './office-pool.js';
export {
  OfficeProcess,
  OfficeFailure,
  canIsolateNetwork,
  type OfficeFailureKind,
} from './office-process.js';
export { oslPipePath, singleOfficePipeName, officePipeSockets } from './osl-pipes.js';
export {
  DEFAULT_OFFICE_POOL_OPTIONS,
  fillOfficePoolOptions,
  type OfficePoolOptions,
  type NetworkIsolation,
} from './convert-options.js';
export {
  allocatorLibrary,
  hardenedRegistry,
  writeHardenedProfile,
  CLOSED_PROXY,
} from './office-profile.js';
export { LibreOfficeConvertEngine } from './libreoffice-convert-engine.js';
export { LazyConverter } from './lazy-converter.js';
export { createConverter, type ConverterName } from './create-converter.js';
