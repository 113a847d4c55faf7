/**
 * Over Node IPC (how VS Code starts the server) the writer counts the messages whose write has not
 * completed, so that work in the background can wait for a large answer to leave (`outputDrained`,
 * lsp/transport.ts). Without it, a warm start's 12 MB workspace part took 1.2 s to leave while the
 * server parsed in slices (bench/notes.md, session 17).
 */
import type { Message } from 'vscode-languageserver/node';
import { describe, expect, it } from 'vitest';
import { CountingIpcWriter, outputDrained } from '../../server/src/lsp/transport';

type SendCallback = (error: Error | null) => void;

/** A channel whose writes complete when the test says so. */
function fakeChannel() {
  const pending: SendCallback[] = [];
  const sent: unknown[] = [];
  const channel = {
    send: (message: unknown, _handle: unknown, _options: unknown, callback: SendCallback) => {
      sent.push(message);
      pending.push(callback);
      return false;
    },
    on: () => channel,
  };
  return { channel: channel as unknown as Pick<NodeJS.Process, 'send' | 'on'>, pending, sent };
}

/** A JSON-RPC notification (the writer's `Message` type has only `jsonrpc`). */
const note = (method: string) => ({ jsonrpc: '2.0', method }) as Message;

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the IPC writer', () => {
  it('sends each message at once, and outputDrained waits until every write has completed', async () => {
    const { channel, pending, sent } = fakeChannel();
    const writer = new CountingIpcWriter(channel);
    await writer.write(note('a'));
    await writer.write(note('b'));
    expect(sent).toEqual([
      { jsonrpc: '2.0', method: 'a' },
      { jsonrpc: '2.0', method: 'b' },
    ]);
    let drained = false;
    void outputDrained().then(() => (drained = true));
    await turn();
    expect(drained).toBe(false);
    pending[0]!(null);
    await turn();
    expect(drained).toBe(false);
    pending[1]!(null);
    await turn();
    expect(drained).toBe(true);
    // Nothing in flight: at once.
    await expect(outputDrained()).resolves.toBeUndefined();
  });

  it('reports a failed write to the connection and still counts it as done', async () => {
    const { channel, pending } = fakeChannel();
    const writer = new CountingIpcWriter(channel);
    const errors: unknown[] = [];
    writer.onError(([error]) => errors.push(error.message));
    await writer.write(note('a'));
    let drained = false;
    void outputDrained().then(() => (drained = true));
    pending[0]!(new Error('channel closed'));
    await turn();
    expect(errors).toEqual(['channel closed']);
    expect(drained).toBe(true);
  });
});
