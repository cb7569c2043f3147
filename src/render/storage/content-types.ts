const TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  json: 'application/json',
};

/**
 * The content type a key's extension stands for: what a backend reports when it keeps no type
 * of its own (a file on disk, an S3 listing).
 */
export function typeOfKey(key: string): string {
  return TYPES[key.split('.').pop() ?? ''] ?? 'application/octet-stream';
}
