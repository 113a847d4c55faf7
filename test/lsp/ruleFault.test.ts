import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { ALL_RULES, defineRule } from '../../server/src/core';
import { startServer } from '../../server/src/lsp/server';

/**
 * A rule that throws must not take the server down: the engine reports it as ANF002 on the file,
 * the server logs it once (not on every keystroke) and keeps answering. The faulty rule is injected
 * through startServer's options, so this test runs the server in-process over a pair of streams.
 */
const faulty = defineRule({
  code: 'ANF299',
  name: 'always-throws',
  domain: 'mount',
  defaultSeverity: 'warning',
  fixes: [],
  doc: { title: 'Test rule that throws', what: '-', why: '-', instead: '-' },
  appliesTo: (file) => file.kind === 'fstab',
  check: () => {
    throw new TypeError('cannot read the option list');
  },
});

describe('a rule that throws', () => {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  let client: MessageConnection;
  const logs: { type: number; message: string }[] = [];
  const published: { uri: string; version?: number; diagnostics: { code: string; message: string }[] }[] = [];

  beforeAll(async () => {
    startServer(createConnection(ProposedFeatures.all, toServer, toClient), { rules: [...ALL_RULES, faulty] });
    client = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
    client.onNotification('window/logMessage', (p: { type: number; message: string }) => {
      logs.push(p);
    });
    client.onNotification('textDocument/publishDiagnostics', (p: (typeof published)[number]) => {
      published.push(p);
    });
    client.listen();
    await client.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {} });
    await client.sendNotification('initialized', {});
  });
  afterAll(() => {
    // No `exit` notification and no end of stream: in-process, the library would end the test runner's process.
    client.dispose();
  });

  const until = async (condition: () => boolean) => {
    const started = Date.now();
    while (!condition()) {
      if (Date.now() - started > 10000) throw new Error(`timed out; logs: ${JSON.stringify(logs)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  it('is reported as ANF002 on each check, logged once, and the server keeps answering', async () => {
    const uri = 'file:///tmp/anf-fault/etc/fstab';
    await client.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'fstab', version: 1, text: 'UUID=1 /data xfs defaults 0 0\n' },
    });
    await until(() => published.some((p) => p.uri === uri && p.version === 1));
    await client.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: 'UUID=2 /data xfs defaults 0 0\n' }],
    });
    await until(() => published.some((p) => p.uri === uri && p.version === 2));
    for (const p of published.filter((d) => d.uri === uri)) {
      expect(p.diagnostics.map((d) => d.code)).toEqual(['ANF002']);
      expect(p.diagnostics[0]!.message).toBe(
        'Rule ANF299 (always-throws) failed on this file: cannot read the option list',
      );
    }
    const faults = logs.filter((l) => l.message.includes('rule ANF299 (always-throws) failed'));
    expect(faults).toHaveLength(1);
    expect(faults[0]!.type).toBe(1);
    expect(faults[0]!.message).toContain('TypeError: cannot read the option list');
    const symbols = await client.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
    expect(symbols).toEqual([expect.objectContaining({ name: '/data' })]);
  });
});
