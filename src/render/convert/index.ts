export type { Converter, ConvertRequest } from './converter.js';
export { OfficePool, type OfficePoolStats } from './office-pool.js';
export { OfficeProcess, OfficeFailure, type OfficeFailureKind } from './office-process.js';
export { canIsolateNetwork } from './network-isolation.js';
export { oslPipePath, singleOfficePipeName, officePipeSockets } from './osl-pipes.js';
export {
  DEFAULT_OFFICE_POOL_OPTIONS,
  DEFAULT_LIBREOFFICE_CONVERT_OPTIONS,
  fillOfficePoolOptions,
  fillLibreOfficeConvertOptions,
  type OfficePoolOptions,
  type LibreOfficeConvertOptions,
  type NetworkIsolation,
} from './convert-options.js';
export {
  allocatorLibrary,
  hardenedRegistry,
  writeHardenedProfile,
  CLOSED_PROXY,
} from './office-profile.js';
export { PerCallConverter } from './per-call-converter.js';
export { LazyConverter } from './lazy-converter.js';
export { createConverter, type ConverterName } from './create-converter.js';
