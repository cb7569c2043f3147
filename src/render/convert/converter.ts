/** One document to convert. */
export interface ConvertRequest {
  docx: Uint8Array;
  /** Path of the document in the request (`documents[1]`), named by a failure. */
  field: string;
  /** Title for the PDF's metadata: the document's name. */
  title?: string;
  /** PDF/A-2b instead of plain PDF. */
  pdfa?: boolean;
  /**
   * Where it goes among conversions waiting for an office process: lower first, the same in
   * arrival order (the fair schedule's place). @defaultValue none: after every placed one
   */
  place?: number;
}

/**
 * DOCX to PDF. Rejects with `document-conversion-failed` naming the request's field. The warm
 * office pool and libreoffice-convert both sit behind it.
 */
export interface Converter {
  readonly name: string;
  convert(request: ConvertRequest): Promise<Buffer>;
  close(): Promise<void>;
}
