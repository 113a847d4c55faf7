/**
 * The bundled language server (dist/server/server.js over stdio) survives what a confused or
 * hostile client and workspace give it: requests for every method about documents it never opened,
 * edits to unknown documents and edits out of range, a malformed `.anf-lint.yaml` (syntax error,
 * alias bomb, wrong types) on disk and open in the editor, and hostile documents. After each, it
 * still answers and still publishes correct diagnostics. (A rule that throws: test/lsp/ruleFault.test.ts
 * in-process, and unit-level below.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineRule, lintFile, Workspace, ALL_RULES } from '../../server/src/core';
import { LspClient, PULL_CLIENT_CAPABILITIES, TempWorkspace } from '../lsp/support/lspClient';
import { config } from './check';
import { CORPUS } from './corpus';

const FSTAB_SOFT = '10.0.0.4:/vol1 /mnt/vol1 nfs soft,vers=3 0 0\n';
const BOMB = [
  'a: &a ["x","x","x","x","x","x","x","x","x"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
  'rules: *f',
  '',
].join('\n');

/** Every request the server answers, with params about `uri` at line 2. */
function requestsAbout(uri: string): [string, unknown][] {
  const position = { line: 2, character: 5 };
  const range = { start: { line: 0, character: 0 }, end: { line: 9, character: 0 } };
  return [
    ['textDocument/hover', { textDocument: { uri }, position }],
    ['textDocument/completion', { textDocument: { uri }, position }],
    ['textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics: [] } }],
    [
      'textDocument/codeAction',
      { textDocument: { uri }, range, context: { diagnostics: [], only: ['source.fixAll.anf-lint'] } },
    ],
    ['textDocument/documentSymbol', { textDocument: { uri } }],
    ['textDocument/foldingRange', { textDocument: { uri } }],
    ['textDocument/codeLens', { textDocument: { uri } }],
    ['textDocument/inlayHint', { textDocument: { uri }, range }],
    ['textDocument/diagnostic', { textDocument: { uri } }],
    ['anf/hierarchy', {}],
    ['anf/recommendedMount', { uri, volume: 'nowhere' }],
    ['anf/adviseSizing', { throughput: 'fast', capacity: -1 }],
    ['textDocument/hover', { textDocument: { uri }, position: { line: -5, character: 1e9 } }],
    ['textDocument/hover', { textDocument: null, position: null }],
    ['textDocument/completion', {}],
  ];
}

async function answersAll(client: LspClient, uri: string): Promise<void> {
  for (const [method, params] of requestsAbout(uri)) {
    // An answer (possibly empty) or a JSON-RPC error, never silence or a dead process.
    const outcome = await client.request(method, params).then(
      () => 'answered',
      (error: { code?: number }) => (typeof error?.code === 'number' ? 'answered' : `failed: ${String(error)}`),
    );
    expect(`${method}: ${outcome}`).toBe(`${method}: answered`);
  }
  expect(client.exitCode).toBeUndefined();
}

describe('language server: documents it never opened', () => {
  for (const [name, capabilities] of [
    ['push client', undefined],
    ['pull client', PULL_CLIENT_CAPABILITIES],
  ] as const) {
    describe(name, () => {
      const ws = new TempWorkspace({ 'etc/fstab': FSTAB_SOFT });
      let client: LspClient;
      beforeAll(async () => {
        ({ client } = await LspClient.startIndexed({ rootUri: ws.uri, ...(capabilities ? { capabilities } : {}) }));
      });
      afterAll(() => {
        client.dispose();
        ws.remove();
      });

      it('answers every request about a never-opened document, on disk or not', async () => {
        await answersAll(client, 'file:///never/opened/estate.anf.yaml');
        await answersAll(client, ws.uriOf('etc/fstab'));
        await answersAll(client, 'untitled:Untitled-1');
        await answersAll(client, 'not a uri at all');
      });

      it('ignores changes and closes of documents it never opened, and out-of-range edits', async () => {
        const uri = 'file:///never/opened/etc/fstab';
        client.change(uri, [
          { range: { start: { line: 5, character: 0 }, end: { line: 6, character: 0 } }, text: 'x' },
        ]);
        client.close(uri);
        client.notify('textDocument/didChange', {
          textDocument: { uri: ws.uriOf('etc/fstab'), version: 7 },
          contentChanges: [{ text: 'y' }],
        });
        client.notify('textDocument/didOpen', { textDocument: null });
        client.notify('textDocument/didChange', { textDocument: { uri }, contentChanges: null });
        client.notify('workspace/didChangeWatchedFiles', {
          changes: [
            { uri: 'file:///nowhere/x.anf.yaml', type: 2 },
            { uri: 'garbage', type: 99 },
          ],
        });
        await answersAll(client, uri);
      });

      it('still lints: an opened fstab with a soft mount reports ANF207, and edits far outside the text are clamped', async () => {
        const uri = ws.uriOf('etc/fstab');
        if (!capabilities) {
          const published = await client.openAndWait(uri, FSTAB_SOFT);
          expect(published.diagnostics.map((d) => d.code)).toContain('ANF207');
          const version = client.change(uri, [
            { range: { start: { line: 99, character: 99 }, end: { line: 120, character: 0 } }, text: '\n# tail\n' },
          ]);
          const next = await client.nextDiagnostics(uri, (p) => p.version === version);
          expect(next.diagnostics.map((d) => d.code)).toContain('ANF207');
        } else {
          client.open(uri, FSTAB_SOFT);
          const report = await client.request<{ items: { code: string }[] }>('textDocument/diagnostic', {
            textDocument: { uri },
          });
          expect(report.items.map((d) => d.code)).toContain('ANF207');
        }
      });
    });
  }
});

describe('language server: a malformed .anf-lint.yaml', () => {
  for (const [name, text] of [
    ['a YAML syntax error', 'rules:\n  ANF207: [off\nregion: "eastus\n'],
    ['an alias bomb', BOMB],
    ['wrong types everywhere', 'rules: 5\nregion: [1, 2]\nworkload: {a: b}\nnetwork: "fast"\nprices: -1\n'],
    ['binary garbage', '\u0000\u0001\u0002\uFFFD\uFFFD: : : -\n\t- [\n'],
  ] as const) {
    it(`${name}: the server starts, lints with defaults, and reports the file's problems when it is open`, async () => {
      const ws = new TempWorkspace({ '.anf-lint.yaml': text, 'etc/fstab': FSTAB_SOFT });
      const client = new LspClient();
      try {
        await client.initialize({ rootUri: ws.uri });
        await client.indexed();
        const fstab = await client.openAndWait(ws.uriOf('etc/fstab'), FSTAB_SOFT);
        expect(fstab.diagnostics.map((d) => d.code)).toContain('ANF207');
        const configUri = ws.uriOf('.anf-lint.yaml');
        const published = await client.openAndWait(configUri, text);
        expect(published.diagnostics.length).toBeGreaterThan(0);
        expect(published.diagnostics.every((d) => /^ANF9\d\d$/.test(String(d.code)))).toBe(true);
        await answersAll(client, configUri);
      } finally {
        client.dispose();
        ws.remove();
      }
    });
  }
});

describe('language server: hostile documents', () => {
  const ws = new TempWorkspace({});
  let client: LspClient;
  beforeAll(async () => {
    ({ client } = await LspClient.startIndexed({ rootUri: ws.uri }));
  });
  afterAll(() => {
    client.dispose();
    ws.remove();
  });

  it('NUL bytes, U+FFFD, a 1 MB line, an alias bomb and deep nesting: diagnostics arrive and the server answers', async () => {
    const documents: [string, string][] = [
      ['etc/fstab', `\u0000\uFFFD\uFFFD 10.0.0.4:/v\u0000 /m nfs soft 0 0\n${'x'.repeat(1024 * 1024)}\n`],
      ['estate.anf.yaml', `${BOMB}accounts: *f\n`],
      ['deep.anf.yaml', `accounts: ${'['.repeat(5000)}${']'.repeat(5000)}\n`],
      ['etc/sysctl.d/90.conf', `\uFEFFnet.core.rmem_max = ${'9'.repeat(100_000)}\r\nvm.dirty_ratio\t=\t-1\r\n`],
    ];
    for (const [path, text] of documents) {
      const published = await client.openAndWait(ws.uriOf(path), text);
      expect(Array.isArray(published.diagnostics), path).toBe(true);
      await answersAll(client, ws.uriOf(path));
    }
  }, 120_000);
});

describe('a rule that throws (unit level, every kind of file)', () => {
  const throwing = defineRule({
    code: 'ANF298',
    name: 'throws-everywhere',
    domain: 'mount',
    defaultSeverity: 'warning',
    fixes: [],
    doc: { title: 'Test rule that throws', what: '-', why: '-', instead: '-' },
    appliesTo: () => true,
    check: () => {
      throw new RangeError('boom');
    },
  });
  const throwingAppliesTo = {
    ...throwing,
    code: 'ANF297',
    appliesTo: () => {
      throw new Error('appliesTo failed');
    },
  };

  it('is contained: ANF002 for each, and every other rule still reports', () => {
    for (const file of CORPUS) {
      const workspace = new Workspace(config);
      workspace.set(file.uri, file.text);
      const normal = lintFile(workspace, file.uri, config).map((d) => d.code);
      const faulty = lintFile(workspace, file.uri, config, { rules: [...ALL_RULES, throwing, throwingAppliesTo] });
      expect(
        faulty
          .filter((d) => d.code === 'ANF002')
          .map((d) => d.message)
          .sort(),
        file.uri,
      ).toEqual([
        'Rule ANF297 (throws-everywhere) failed on this file: appliesTo failed',
        'Rule ANF298 (throws-everywhere) failed on this file: boom',
      ]);
      expect(
        faulty.filter((d) => d.code !== 'ANF002').map((d) => d.code),
        file.uri,
      ).toEqual(normal);
    }
  });
});
