import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { defineRule, type Rule } from '../../server/src/core';
import { startServer } from '../../server/src/lsp/server';

/**
 * A newer edit never waits for a stale pass (issue 17): a pass that a didChange overtakes stops at
 * its next slice and publishes nothing. Slow rules (each busy for longer than a slice) make
 * the pass of the opened version long; the edits sent right after the open make it stale. In-process
 * over a pair of streams, with the slow rules injected through startServer's options.
 */
const BUSY_MS = 20;
const RULES = 8;
const checked: number[] = [];
/** Called as a rule starts checking a version: the test sends its edits from there, mid-pass. */
let onCheck: (version: number) => void = () => undefined;

function slowRule(n: number): Rule {
  return defineRule({
    code: `ANF28${n}`,
    name: `slow-${n}`,
    domain: 'mount',
    defaultSeverity: 'warning',
    fixes: [],
    doc: { title: 'Test rule that takes its time', what: '-', why: '-', instead: '-' },
    appliesTo: (file) => file.kind === 'fstab',
    check(context) {
      checked.push(context.file.version);
      onCheck(context.file.version);
      const until = performance.now() + BUSY_MS;
      while (performance.now() < until) {
        // busy, as a long rule on a large file is
      }
      if (n === 1) context.report({ span: { start: 0, end: 4 }, message: `checked version ${context.file.version}` });
    },
  });
}

describe('a pass that a newer edit overtakes', () => {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  let client: MessageConnection;
  const published: { uri: string; version?: number; diagnostics: { code: string; message: string }[] }[] = [];

  beforeAll(async () => {
    startServer(createConnection(ProposedFeatures.all, toServer, toClient), {
      rules: Array.from({ length: RULES }, (_, i) => slowRule(i + 1)),
    });
    client = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
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
      if (Date.now() - started > 10000) throw new Error(`timed out; published: ${JSON.stringify(published)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  it('stops at its next slice and never publishes; the newest version is published', async () => {
    const uri = 'file:///tmp/anf-stale/etc/fstab';
    const text = (n: number) => `UUID=${n} /data xfs defaults 0 0\n`;
    // The edits arrive while the open's pass (no typing pause) is in its first rule.
    onCheck = (version) => {
      if (version !== 1 || checked.length !== 1) return;
      void client.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: 2 },
        contentChanges: [{ text: text(2) }],
      });
      void client.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: 3 },
        contentChanges: [{ text: text(3) }],
      });
    };
    void client.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'fstab', version: 1, text: text(1) },
    });
    await until(() => published.some((p) => p.uri === uri && p.version === 3));
    // Room for a stale pass to publish late, if one still could.
    await new Promise((r) => setTimeout(r, 3 * BUSY_MS));
    expect(published.filter((p) => p.uri === uri).map((p) => p.version)).toEqual([3]);
    expect(published.find((p) => p.version === 3)!.diagnostics.map((d) => d.message)).toEqual(['checked version 3']);
    // The first pass stopped at a slice before its last rule (in-process, the edits are read one
    // slice late); version 2 was never checked (its typing pause was cut short by version 3).
    expect(checked.filter((v) => v === 1).length).toBeLessThan(RULES);
    expect(checked.filter((v) => v === 2)).toEqual([]);
    expect(checked.filter((v) => v === 3)).toHaveLength(RULES);
  });
});
