import { Writable } from 'node:stream';

export interface CapturedLog {
  stream: Writable;
  /** Every line written so far, as written (JSON). */
  lines: string[];
  /** The lines parsed. */
  entries(): Array<Record<string, unknown>>;
  /** All lines joined: for "never contains" checks. */
  text(): string;
  clear(): void;
}

/** A pino destination that keeps what is written, so a test can read the app's log. */
export function captureLog(): CapturedLog {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(line);
      callback();
    },
  });
  return {
    stream,
    lines,
    entries: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
    text: () => lines.join('\n'),
    clear: () => {
      lines.length = 0;
    },
  };
}
