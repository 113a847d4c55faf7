/**
 * Deep nesting in a manifest or `.anf-lint.yaml` (issue 32): a 3-10 KB file nested a few thousand
 * deep used to abort the CLI and the language server (SIGABRT, "RegExpCompiler Allocation failed -
 * process out of memory") at depths that depended on the stack already in use. The readers now
 * refuse a text nested past MAX_NESTING_DEPTH before any parser sees it (core/text/nesting.ts).
 * Each case runs in a child process, so an abort shows as a signal or exit code 134.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH, nestingPastBound } from '../../server/src/core/text/nesting';
import { LspClient, TempWorkspace } from '../lsp/support/lspClient';
import { run, tempProject } from './helpers';

const SHAPES: Record<string, (depth: number) => string> = {
  'flow sequences': (d) => `accounts: ${'['.repeat(d)}${']'.repeat(d)}\n`,
  'unclosed flow mappings': (d) => `accounts: ${'{a: '.repeat(d)}\n`,
  'compact block sequences': (d) => `accounts:\n  ${'- '.repeat(d)}x\n`,
  // One more space a level: 1,000 levels are 0.5 MB (the configuration file is read up to 1 MiB).
  'indented block mappings': (d) =>
    `accounts:\n${Array.from({ length: Math.min(d, 1000) }, (_, i) => `${' '.repeat(i + 2)}- a:\n`).join('')}`,
  'JSON objects': (d) => `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`,
  'JSON arrays': (d) => `{"accounts": ${'['.repeat(d)}${']'.repeat(d)}}`,
};
const DEPTHS = [MAX_NESTING_DEPTH + 5, 1000, 2000, 5000];
const TOO_DEEP = /nests deeper than \d+ levels/;

describe('the nesting pre-scan', () => {
  it('counts what the parsers recurse on, and nothing in strings, comments or block scalars', () => {
    expect(nestingPastBound('a:\n  b:\n    c: 1\n', 3)).toBeUndefined();
    expect(nestingPastBound('a:\n  b:\n    c: [1]\n', 3)).toEqual({ offset: 15, depth: 4 });
    expect(nestingPastBound(`a: "${'['.repeat(500)}"\nb: '${'{'.repeat(500)}'\n`, 10)).toBeUndefined();
    expect(nestingPastBound(`a: 1 # ${'['.repeat(500)}\n`, 10)).toBeUndefined();
    expect(nestingPastBound(`a: |\n  ${'['.repeat(500)}\n  ${'- '.repeat(500)}\nb: 1\n`, 10)).toBeUndefined();
    expect(nestingPastBound(`a: x[${'['.repeat(500)}\n`, 10)).toBeUndefined(); // a plain scalar
    expect(nestingPastBound(`- ${'- '.repeat(20)}x\n`, 10)?.depth).toBe(11);
  });

  it('every shape, just under the bound: read as usual', () => {
    for (const [shape, make] of Object.entries(SHAPES))
      expect(nestingPastBound(make(MAX_NESTING_DEPTH - 5)), shape).toBeUndefined();
  });
});

describe('the CLI, in a child process', () => {
  it.each(DEPTHS)(
    'a manifest and a configuration %i deep: one finding, never an abort',
    (depth) => {
      for (const [shape, make] of Object.entries(SHAPES)) {
        const json = shape.startsWith('JSON');
        const dir = tempProject({
          [json ? 'deep.anf.json' : 'deep.anf.yaml']: make(depth),
          'cfg/.anf-lint.yaml': make(depth),
          'cfg/etc/fstab': '10.0.0.4:/vol1 /mnt/vol1 nfs rw,hard,vers=3 0 0\n',
        });
        const manifest = run(['--format', 'json', '--exit-zero', json ? 'deep.anf.json' : 'deep.anf.yaml'], {
          cwd: dir,
        });
        expect(`${shape}: exit ${manifest.code} ${manifest.stderr.slice(0, 300)}`).toBe(`${shape}: exit 0 `);
        const files = JSON.parse(manifest.stdout) as { diagnostics: { code: string; message: string }[] }[];
        expect(
          files.flatMap((f) => f.diagnostics).map((f) => `${f.code} ${TOO_DEEP.test(f.message)}`),
          shape,
        ).toEqual(['ANF100 true']);
        const config = run(['etc/fstab'], { cwd: `${dir}/cfg` });
        expect(`${shape}: exit ${config.code}`).toBe(`${shape}: exit 2`);
        expect(config.stderr, shape).toMatch(TOO_DEEP);
        expect(config.stderr, shape).toMatch(/ANF900/);
      }
    },
    120_000,
  );
});

describe('the language server, in a child process', () => {
  const ws = new TempWorkspace({
    '.anf-lint.yaml': SHAPES['compact block sequences']!(3000),
    'deep.anf.json': SHAPES['JSON objects']!(3000),
  });
  let client: LspClient;
  beforeAll(async () => {
    ({ client } = await LspClient.startIndexed({ rootUri: ws.uri }));
  });
  afterAll(() => {
    client.dispose();
    ws.remove();
  });

  it('a deep configuration and deep manifests, on disk and open: findings, answers, no abort', async () => {
    for (const [shape, make] of Object.entries(SHAPES)) {
      for (const depth of DEPTHS) {
        const uri = ws.uriOf(`open-${depth}.anf.${shape.startsWith('JSON') ? 'json' : 'yaml'}`);
        const text = make(depth);
        const published = await client.openAndWait(uri, text);
        expect(
          published.diagnostics.map((d) => `${d.code} ${TOO_DEEP.test(d.message)}`),
          `${shape} ${depth}`,
        ).toEqual(['ANF100 true']);
        // A hover on the first key, a completion and a sizing insertion parse the text too.
        await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 2 } });
        await client.request('textDocument/completion', { textDocument: { uri }, position: { line: 0, character: 5 } });
        client.close(uri);
      }
    }
    const config = await client.openAndWait(ws.uriOf('.anf-lint.yaml'), SHAPES['JSON objects']!(4000));
    expect(config.diagnostics.map((d) => d.code)).toEqual(['ANF900']);
    expect(client.exitCode).toBeUndefined();
  }, 120_000);
});
