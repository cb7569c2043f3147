export { acquireDataLock, dataLockFile, DataFolderInUseError, type DataLock } from './data-lock.js';
export { freePort, isPortFree } from './loopback-port.js';
export { SupervisedServer, STOP_GRACE_MS, type ServerSpec } from './supervised-server.js';
export { UrlFile } from './url-file.js';
