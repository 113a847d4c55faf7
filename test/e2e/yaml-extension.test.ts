import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient, TempWorkspace, type LspDiagnostic } from '../lsp/support/lspClient';

/**
 * Red Hat's YAML extension beside anf-lint (issue 16 item 8). Its server, yaml-language-server (from
 * npm, as the extension runs it), on a manifest with an unknown key and a wrong service level:
 *
 * - With the manifest schema associated to `*.anf.yaml`, as the extension did from our
 *   `yamlValidation` contribution: it reports both mistakes again, next to anf-lint's ANF102 and
 *   ANF103 (what a user saw: every shape error twice, one of them without a code or a fix).
 * - Without the association (package.json no longer contributes `yamlValidation` for manifests):
 *   it reports nothing on the same text, so anf-lint's findings are the only ones. YAML syntax
 *   errors are still the YAML extension's too (it selects `*.yaml` by pattern): docs/vscode.md.
 */
const ROOT = join(__dirname, '..', '..');
const YAML_LS = join(ROOT, 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server');
const SCHEMA = pathToFileURL(join(ROOT, 'schemas', 'anf-manifest.schema.json')).href;
const MANIFEST = [
  'accounts:',
  '  - name: eda-prod',
  '    pools:',
  '      - name: eda-premium',
  '        serviceLevel: Gold',
  '        size: 8 TiB',
  '        volumes:',
  '          - name: eda-tools',
  '            quota: 4 TiB',
  '            quotta: 5 TiB',
  '',
].join('\n');

async function yamlDiagnostics(ws: TempWorkspace, schemas: Record<string, string[]>): Promise<LspDiagnostic[]> {
  const client = new LspClient({ script: YAML_LS, args: ['--stdio'] });
  try {
    const settings = {
      validate: true,
      hover: true,
      completion: true,
      schemas,
      schemaStore: { enable: false },
      format: { enable: false },
    };
    client.settings = settings;
    await client.initialize({ rootUri: ws.uri });
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { yaml: settings } });
    const uri = ws.uriOf('eda.anf.yaml');
    // The YAML extension sends the document as `yaml`, or by its `*.y(a)ml` pattern whatever its language.
    const published = client.nextDiagnostics(uri, () => true, 30_000);
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'yaml', version: 1, text: MANIFEST },
    });
    return (await published).diagnostics;
  } finally {
    client.dispose();
  }
}

describe('Red Hat YAML (yaml-language-server) beside anf-lint', () => {
  const ws = new TempWorkspace();
  let anf: LspDiagnostic[];
  beforeAll(async () => {
    const { client } = await LspClient.startIndexed({ rootUri: ws.uri });
    try {
      anf = (await client.openAndWait(ws.uriOf('eda.anf.yaml'), MANIFEST)).diagnostics;
    } finally {
      client.dispose();
    }
  });
  afterAll(() => ws.remove());

  it('anf-lint reports both mistakes, with codes', () => {
    expect(anf.map((d) => d.code)).toEqual(expect.arrayContaining(['ANF102', 'ANF103']));
  });

  it('with the schema associated (the old yamlValidation), yaml-language-server reports them again', async () => {
    const doubled = await yamlDiagnostics(ws, { [SCHEMA]: ['*.anf.yaml'] });
    const lines = (ds: LspDiagnostic[]) => new Set(ds.map((d) => d.range.start.line));
    const shared = [...lines(doubled)].filter((l) => lines(anf).has(l));
    expect(shared.length, JSON.stringify(doubled.map((d) => [d.range.start.line, d.message]))).toBeGreaterThanOrEqual(
      2,
    );
  }, 60_000);

  it('package.json no longer associates the schema with manifests for the YAML extension, and then it reports nothing', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      contributes: { yamlValidation?: { fileMatch: string }[] };
    };
    expect((pkg.contributes.yamlValidation ?? []).filter((v) => /anf\.ya?ml/.test(v.fileMatch))).toEqual([]);
    expect(await yamlDiagnostics(ws, {})).toEqual([]);
  }, 60_000);
});
