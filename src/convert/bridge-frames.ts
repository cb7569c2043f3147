/**
 * Splits what the UNO bridge writes into messages: a JSON line, and when the line announces
 * `bytes`, that many raw bytes right after it (a PDF). Lines that are not JSON objects are
 * skipped, as a bridge's stray output must not break the stream.
 */
export class BridgeFrames {
  private buffered: Buffer = Buffer.alloc(0);
  private header: Record<string, unknown> | undefined;

  constructor(
    private readonly onMessage: (header: Record<string, unknown>, payload: Buffer) => void,
  ) {}

  push(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    for (;;) {
      if (this.header) {
        const size = this.header.bytes as number;
        if (this.buffered.length < size) return;
        const header = this.header;
        // A copy: the payload outlives this buffer, which may be large and mostly consumed.
        const payload = Buffer.from(this.buffered.subarray(0, size));
        this.buffered = this.buffered.subarray(size);
        this.header = undefined;
        this.onMessage(header, payload);
        continue;
      }
      const end = this.buffered.indexOf(0x0a);
      if (end < 0) return;
      const line = this.buffered.subarray(0, end).toString('utf8').trim();
      this.buffered = this.buffered.subarray(end + 1);
      let header: unknown;
      try {
        header = JSON.parse(line);
      } catch {
        continue;
      }
      if (typeof header !== 'object' || header === null || Array.isArray(header)) continue;
      const h = header as Record<string, unknown>;
      const size = h.bytes;
      if (typeof size === 'number' && Number.isSafeInteger(size) && size > 0) this.header = h;
      else this.onMessage(h, Buffer.alloc(0));
    }
  }
}
