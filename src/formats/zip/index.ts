export { ZipArchive, type ZipEntry } from './zip-reader.js';
export { DamagedPartError, ZipError, locatedAt, type ZipProblem } from './zip-error.js';
export { DEFAULT_ZIP_LIMITS, zipLimitsProblems, type ZipLimits } from './zip-limits.js';
export { writeZip, type ZipItem, type NewZipItem, type CopiedZipItem } from './zip-writer.js';
