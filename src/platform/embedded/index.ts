export {
  acquireDataLock,
  dataLockFile,
  DataFolderInUseError,
  type DataLock,
  type DataLockOptions,
} from './data-lock.js';
export { freePort, isPortFree } from './loopback-port.js';
export { makeDataFolderPrivate, type PrivateDataFolderOptions } from './private-data-folder.js';
export { ServerProcess, STOP_GRACE_MS, type ServerProcessSpec } from './server-process.js';
export { stopStale } from './stale-server.js';
export { SupervisedServer, type ServerSpec } from './supervised-server.js';
export { UrlFile } from './url-file.js';
