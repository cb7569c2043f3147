/**
 * Splits what the UNO bridge writes into messages: a JSON line, and when the line announces
 * `bytes`, that many raw bytes right after it (a PDF). Lines that are not JSON objects are
 * skipped, as a bridge's stray output must not break the stream. A large PDF arrives in many
 * chunks: they are kept as they come and joined once, when the last one is in.
 */
export class BridgeFrames {
  private chunks: Buffer[] = [];
  private length = 0;
  private header: Record<string, unknown> | undefined;

  constructor(
    private readonly onMessage: (header: Record<string, unknown>, payload: Buffer) => void,
  ) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    for (;;) {
      if (this.header) {
        const size = this.header.bytes as number;
        if (this.length < size) return;
        const header = this.header;
        this.header = undefined;
        this.onMessage(header, this.take(size));
        continue;
      }
      const end = this.indexOfNewline();
      if (end < 0) return;
      const line = this.take(end + 1)
        .subarray(0, end)
        .toString('utf8')
        .trim();
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        continue;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) continue;
      const h = parsed as Record<string, unknown>;
      const size = h.bytes;
      if (typeof size === 'number' && Number.isSafeInteger(size) && size > 0) this.header = h;
      else this.onMessage(h, Buffer.alloc(0));
    }
  }

  /** Where the first line ends in what is buffered, or -1. */
  private indexOfNewline(): number {
    let offset = 0;
    for (const chunk of this.chunks) {
      const at = chunk.indexOf(0x0a);
      if (at >= 0) return offset + at;
      offset += chunk.length;
    }
    return -1;
  }

  /** Removes and returns the first `size` bytes buffered. */
  private take(size: number): Buffer {
    const whole = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    // What follows is copied out (it is small: the start of the next message), so that it does
    // not keep a large payload's memory alive while it waits.
    const rest = whole.length > size ? Buffer.from(whole.subarray(size)) : undefined;
    this.chunks = rest ? [rest] : [];
    this.length = rest?.length ?? 0;
    return whole.subarray(0, size);
  }
}
