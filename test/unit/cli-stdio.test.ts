import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { syncOutput } from '../../server/src/cli/stdio';

/** cli/stdio.ts: the CLI writes its output on the file descriptor and needs Node's stream only when the descriptor refuses. */
describe('syncOutput', () => {
  it('writes on the descriptor without setting up the stream', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'anf-stdio-')), 'out.txt');
    const fd = openSync(path, 'w');
    let streamAsked = false;
    const out = syncOutput(fd, () => {
      streamAsked = true;
      return new PassThrough() as unknown as NodeJS.WriteStream;
    });
    out.write('etc/fstab:1:1  warning  é\n');
    out.write(new Uint8Array([0x6f, 0x6b, 0x0a]));
    closeSync(fd);
    expect(readFileSync(path, 'utf8')).toBe('etc/fstab:1:1  warning  é\nok\n');
    expect(streamAsked).toBe(false);
  });

  it('hands the rest to the stream when the descriptor refuses a write, and waits for it', async () => {
    const stream = new PassThrough();
    const chunks: string[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c.toString()));
    const fd = openSync(join(mkdtempSync(join(tmpdir(), 'anf-stdio-')), 'closed.txt'), 'w');
    closeSync(fd); // writeSync now fails with EBADF
    const out = syncOutput(fd, () => stream as unknown as NodeJS.WriteStream);
    out.write('first\n');
    out.write('second\n');
    await new Promise<void>((resolve) => out.flushed(resolve));
    expect(chunks.join('')).toBe('first\nsecond\n');
  });
});
