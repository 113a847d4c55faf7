import { fstatSync, writeSync } from 'node:fs';

/** What the CLI writes to: `write` and, for colours and progress, `isTTY`. */
export interface CliOutput {
  write(chunk: string | Uint8Array, callback?: (error?: Error | null) => void): boolean;
  readonly isTTY?: boolean;
}

/** Standard output or error as the CLI writes it (`syncOutput`). */
export interface SyncOutput extends CliOutput {
  /** Calls back once everything written has reached the file descriptor. */
  flushed(callback: () => void): void;
}

/**
 * Standard output or error written with `fs.writeSync` on the file descriptor. `process.stdout`
 * is a getter that sets up a stream on first use (Node's stream modules, and for a pipe a socket:
 * 2-10 ms of a run that takes 60 ms more than `node -e 0`); Node writes files, pipes and terminals
 * synchronously on Linux anyway. When the descriptor refuses a write (a full non-blocking pipe,
 * a reader that went away), the rest goes through Node's stream from then on, which handles it
 * as before. `isTTY` (colours, progress) asks the stream only for a character device.
 */
export function syncOutput(fd: number, stream: () => NodeJS.WriteStream): SyncOutput {
  let fallback: NodeJS.WriteStream | undefined;
  return {
    get isTTY() {
      // A file, pipe or socket is no terminal: only a character device needs the stream's answer.
      try {
        if (!fstatSync(fd).isCharacterDevice()) return false;
      } catch {
        return false;
      }
      return stream().isTTY;
    },
    write(chunk, callback) {
      if (fallback) return fallback.write(chunk, callback);
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      let written = 0;
      try {
        while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      } catch {
        fallback = stream();
        return fallback.write(bytes.subarray(written), callback);
      }
      if (callback) process.nextTick(callback);
      return true;
    },
    flushed(callback) {
      if (fallback) fallback.write('', () => callback());
      else callback();
    },
  };
}
