/**
 * Test and bench support for the live event stream: reads server-sent events from a Response
 * body (app.fetch / app.request, or a real fetch) frame by frame. Tests and benches only.
 */

/** One SSE block (text up to a blank line): its fields and comment lines. */
export interface SseFrame {
  id?: string;
  data?: string;
  retry?: string;
  event?: string;
  /** Comment lines without the leading ':' and one optional space. */
  comments: string[];
}

/** Thrown by SseReader.next when nothing arrives in time. */
export class SseTimeout extends Error {
  constructor(ms: number) {
    super(`no server-sent event within ${ms} ms`);
    this.name = 'SseTimeout';
  }
}

/** Parses one block of lines (without the terminating blank line) into a frame. */
export function parseSseBlock(block: string): SseFrame {
  const frame: SseFrame = { comments: [] };
  for (const line of block.split(/\r\n|\r|\n/)) {
    if (line.startsWith(':')) {
      frame.comments.push(line.slice(1).replace(/^ /, ''));
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
    else if (field === 'id' || field === 'retry' || field === 'event') frame[field] = value;
  }
  return frame;
}

/** Reads frames from a server-sent event body. */
export class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private pendingRead: ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']> | null = null;
  /** True once the server ended the body. */
  done = false;

  constructor(body: ReadableStream<Uint8Array>) {
    this.reader = body.getReader();
  }

  /**
   * The next frame → resolves with it; null when the stream ended first. Rejects with SseTimeout
   * after `timeoutMs` (the pending read is kept for the next call, so nothing is lost).
   */
  async next(timeoutMs = 2000): Promise<SseFrame | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.buffer.search(/\r?\n\r?\n/);
      if (end !== -1) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        return parseSseBlock(block);
      }
      if (this.done) return null;
      const left = deadline - Date.now();
      if (left <= 0) throw new SseTimeout(timeoutMs);
      this.pendingRead ??= this.reader.read();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), left);
      });
      const result = await Promise.race([this.pendingRead, timeout]);
      clearTimeout(timer);
      if (result === 'timeout') throw new SseTimeout(timeoutMs);
      this.pendingRead = null;
      if (result.done) this.done = true;
      else this.buffer += this.decoder.decode(result.value, { stream: true });
    }
  }

  /** The next frame that carries data (skipping retry and comment-only frames); null at the end. */
  async nextEvent(timeoutMs = 2000): Promise<SseFrame | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const f = await this.next(Math.max(1, deadline - Date.now()));
      if (f === null || f.data !== undefined) return f;
    }
  }

  /** Cancels the body (the client goes away). */
  async cancel(): Promise<void> {
    this.done = true;
    await this.reader.cancel().catch(() => undefined);
  }
}
