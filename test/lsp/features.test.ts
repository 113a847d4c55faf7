import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyTextEdits, LspClient, TempWorkspace, type LspDiagnostic, type TextEditLike } from './support/lspClient';

/**
 * Features over the bundled server, on a small EDA workspace: a sizing manifest whose volume misses
 * its throughput requirement, an fstab that mounts it, and a sysctl file. Every answer comes from
 * the core (core/features), so these also pin what the CLI would say.
 */
const FIXTURE = join(__dirname, 'fixtures', 'eda');
type Hover = { contents: { kind: string; value: string }; range: LspDiagnostic['range'] } | null;
type Completion = {
  label: string;
  kind: number;
  documentation?: { value: string };
  textEdit?: TextEditLike;
  insertTextFormat?: number;
};
type Symbol = { name: string; detail?: string; kind: number; children?: Symbol[] };
type CodeAction = { title: string; kind?: string; edit?: { changes?: Record<string, TextEditLike[]> } };

describe('language server features', () => {
  const ws = new TempWorkspace();
  cpSync(FIXTURE, ws.root, { recursive: true });
  const manifest = ws.uriOf('eda.anf.yaml');
  const fstab = ws.uriOf('etc/fstab');
  const sysctl = ws.uriOf('sysctl.d/90-nfs.conf');
  const text = (path: string) => readFileSync(join(ws.root, path), 'utf8');
  let client: LspClient;
  let manifestDiagnostics: LspDiagnostic[];
  let fstabDiagnostics: LspDiagnostic[];

  beforeAll(async () => {
    ({ client } = await LspClient.startIndexed({ rootUri: ws.uri }));
    manifestDiagnostics = (await client.openAndWait(manifest, text('eda.anf.yaml'))).diagnostics;
    fstabDiagnostics = (await client.openAndWait(fstab, text('etc/fstab'))).diagnostics;
  });
  afterAll(() => {
    client.dispose();
    ws.remove();
  });

  const hover = (uri: string, line: number, character: number) =>
    client.request<Hover>('textDocument/hover', { textDocument: { uri }, position: { line, character } });

  it('reports the manifest and mount rules with codes and rule links', () => {
    expect(manifestDiagnostics.map((d) => d.code)).toEqual(['ANF116', 'ANF116']);
    expect(fstabDiagnostics.map((d) => d.code)).toEqual(expect.arrayContaining(['ANF207', 'ANF208', 'ANF214']));
    for (const d of [...manifestDiagnostics, ...fstabDiagnostics])
      expect(d.codeDescription?.href).toMatch(new RegExp(`docs/rules/${d.code}\\.md$`));
  });

  it('hovers a volume: throughput limit, IOPS, cost, quota needed for its requirement', async () => {
    const h = await hover(manifest, 9, 20);
    expect(h?.contents.kind).toBe('markdown');
    expect(h?.contents.value).toContain('**Volume eda-prod/eda-premium/eda-proj** · Premium · auto QoS');
    expect(h?.contents.value).toContain('Throughput limit: **640 MiB/s** (10 TiB × 64 MiB/s per TiB)');
    expect(h?.contents.value).toContain('IOPS at 8 KiB (assumed block size): **81,920**');
    expect(h?.contents.value).toMatch(/Monthly cost: \*\*\$[\d,.]+\*\*/);
    expect(h?.contents.value).toContain('quota needed **15,200 GiB**');
    expect(h?.contents.value).toContain('Mounted by: `/proj` (fstab line 1)');
    expect(h?.range).toEqual({ start: { line: 9, character: 18 }, end: { line: 9, character: 26 } });
  });

  it("hovers Little's Law concurrency where the volume has a latency target", async () => {
    const h = await hover(manifest, 25, 20);
    expect(h?.contents.value).toContain("Concurrency (Little's Law): **50** outstanding I/O at 1 ms");
  });

  it('hovers a pool (budget, allocation, cost) and a size literal (other units)', async () => {
    expect((await hover(manifest, 5, 20))?.contents.value).toMatch(
      /Throughput budget: \*\*768 MiB\/s\*\*, used 704 MiB\/s \(92%\)[\s\S]*Allocation: 11 TiB of 12 TiB/,
    );
    const size = await hover(manifest, 7, 18);
    expect(size?.contents.value).toContain('**12 TiB** = 12,288 GiB');
    expect(size?.contents.value).toContain('13.194 TB (decimal)');
  });

  it('hovers a mount source (the manifest volume it reaches) and a mount option (catalog + ANF recommendation)', async () => {
    const source = await hover(fstab, 0, 5);
    expect(source?.contents.value).toContain('**Volume eda-prod/eda-premium/eda-proj**');
    expect(source?.contents.value).toContain('Workload: `eda-scratch` (from the manifest)');
    expect(source?.contents.value).toContain('The volume serves NFSv3');
    const option = await hover(fstab, 0, 40);
    expect(option?.contents.value).toContain('**vers**');
    expect(option?.contents.value).toContain('ANF recommendation for EDA scratch and project data: `vers=3`');
  });

  it('hovers a sysctl key: what it does, default, recommendation, source', async () => {
    await client.openAndWait(sysctl, text('sysctl.d/90-nfs.conf'));
    const h = await hover(sysctl, 0, 5);
    expect(h?.contents.value).toContain('**sunrpc.tcp_max_slot_table_entries**');
    expect(h?.contents.value).toContain('Kernel default: `65536`');
    expect(h?.contents.value).toContain('Recommended:');
    expect(h?.contents.value).toContain('learn.microsoft.com');
  });

  it('offers each fix, fix all of the rule, and disable on this line for a requirement not met', async () => {
    const target = manifestDiagnostics[0]!;
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri: manifest },
      range: target.range,
      context: { diagnostics: [target] },
    });
    const titles = actions.map((a) => a.title);
    expect(titles[0]).toMatch(/^Raise the quota to /);
    expect(titles).toContain('Fix all ANF116 problems in this file (2)');
    expect(titles).toContain('Disable ANF116 on this line');
    const applied = applyTextEdits(text('eda.anf.yaml'), actions[0]!.edit!.changes![manifest]!);
    expect(applied).not.toEqual(text('eda.anf.yaml'));
    // The fixed manifest no longer misses that requirement.
    const next = client.nextDiagnostics(manifest, (p) => p.version === 2);
    client.change(manifest, [{ text: applied }]);
    const after = (await next).diagnostics;
    expect(after.filter((d) => d.range.start.line === target.range.start.line && d.code === 'ANF116')).toEqual([]);
    const disable = actions.find((a) => a.title === 'Disable ANF116 on this line')!;
    const disabledText = applyTextEdits(text('eda.anf.yaml'), disable.edit!.changes![manifest]!).split('\n');
    expect(disabledText[target.range.start.line]).toBe('              # anf-lint disable-next-line ANF116 -- reason');
    // The suppression silences exactly that finding.
    const suppressed = client.nextDiagnostics(manifest, (p) => p.version === 3);
    client.change(manifest, [{ text: disabledText.join('\n') }]);
    expect((await suppressed).diagnostics.filter((d) => d.code === 'ANF116').map((d) => d.range.start.line)).toEqual([
      30,
    ]);
    // Back to the original for the tests below.
    const restored = client.nextDiagnostics(manifest, (p) => p.version === 4);
    client.change(manifest, [{ text: text('eda.anf.yaml') }]);
    await restored;
  });

  it('offers one quick fix per sizing-advisor alternative where a requirement is not met', async () => {
    const target = manifestDiagnostics.find((d) => d.range.start.line === 29)!;
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri: manifest },
      range: target.range,
      context: { diagnostics: [target], only: ['quickfix'] },
    });
    const alternatives = actions.filter((a) => a.title.startsWith('Sizing advisor: '));
    expect(alternatives.map((a) => a.title.split(' pool')[0])).toEqual([
      'Sizing advisor: Flexible',
      'Sizing advisor: Premium',
      'Sizing advisor: Standard',
    ]);
    const flexible = applyTextEdits(text('eda.anf.yaml'), alternatives[0]!.edit!.changes![manifest]!);
    expect(flexible).toContain('        serviceLevel: Flexible\n        size: 3 TiB\n        throughput: 391 MiB/s\n');
    const next = client.nextDiagnostics(manifest, (p) => p.version === 5);
    client.change(manifest, [{ text: flexible }]);
    const after = (await next).diagnostics;
    // The eda-tools volume now meets its requirement; eda-proj (another pool) still does not.
    expect(after.filter((d) => d.code === 'ANF116').map((d) => d.range.start.line)).toEqual([16]);
    const restored = client.nextDiagnostics(manifest, (p) => p.version === 6);
    client.change(manifest, [{ text: text('eda.anf.yaml') }]);
    await restored;
  });

  it('completes manifest enum values and keys from the schema, with documentation', async () => {
    const values = await client.request<Completion[]>('textDocument/completion', {
      textDocument: { uri: manifest },
      position: { line: 6, character: 22 },
    });
    expect(values.map((c) => c.label)).toEqual(['Standard', 'Premium', 'Ultra', 'Flexible']);
    // A new key in the eda-libs volume.
    const withNewLine = text('eda.anf.yaml').replace(
      '          - name: eda-libs\n            quota: 1 TiB\n',
      '          - name: eda-libs\n            quota: 1 TiB\n            wor\n',
    );
    const next = client.nextDiagnostics(manifest, (p) => p.version === 7);
    client.change(manifest, [{ text: withNewLine }]);
    await next;
    const line = withNewLine.split('\n').indexOf('            wor');
    const keys = await client.request<Completion[]>('textDocument/completion', {
      textDocument: { uri: manifest },
      position: { line, character: 15 },
    });
    const workload = keys.find((c) => c.label === 'workload');
    expect(workload?.documentation?.value).toContain('What runs on the volume');
    expect(keys.map((c) => c.label)).not.toContain('quota');
    expect(workload?.textEdit).toEqual({
      range: { start: { line, character: 12 }, end: { line, character: 15 } },
      newText: 'workload: ',
    });
    // A new list item under `volumes:` offers the whole volume block as a snippet.
    const withItem = text('eda.anf.yaml').replace(
      '          - name: eda-libs\n',
      '          - \n          - name: eda-libs\n',
    );
    const itemLine = withItem.split('\n').indexOf('          - ');
    const itemVersion = client.change(manifest, [{ text: withItem }]);
    await client.nextDiagnostics(manifest, (p) => p.version === itemVersion);
    const blocks = await client.request<Completion[]>('textDocument/completion', {
      textDocument: { uri: manifest },
      position: { line: itemLine, character: 12 },
    });
    expect(blocks[0]).toMatchObject({ label: 'anf-volume', insertTextFormat: 2 });
    expect(blocks[0]!.textEdit!.newText).toMatch(/^name: \$\{1:volume\}\nquota: \$\{2:1 TiB\}\n/);
    const restored = client.nextDiagnostics(manifest, (p) => p.version === itemVersion + 1);
    client.change(manifest, [{ text: text('eda.anf.yaml') }]);
    await restored;
  });

  it('completes mount options and their values, and sysctl keys, each with documentation', async () => {
    const options = await client.request<Completion[]>('textDocument/completion', {
      textDocument: { uri: fstab },
      position: { line: 0, character: 34 },
    });
    const nconnect = options.find((c) => c.label === 'nconnect');
    expect(nconnect?.textEdit?.newText).toBe('nconnect=');
    expect(nconnect?.documentation?.value).toContain('nconnect');
    const probe = 'file:///tmp/anf-lsp-completion/etc/fstab';
    await client.openAndWait(probe, '10.0.0.4:/vol /mnt nfs rw,nconnect=');
    const values = await client.request<Completion[]>('textDocument/completion', {
      textDocument: { uri: probe },
      position: { line: 0, character: 35 },
    });
    expect(values.map((c) => c.label)).toContain('8');
    const snippets = await client.request<Completion[]>('textDocument/completion', {
      textDocument: { uri: probe },
      position: { line: 0, character: 0 },
    });
    expect(snippets).toEqual([]);
    const keys = await client.request<Completion[]>('textDocument/completion', {
      textDocument: { uri: sysctl },
      position: { line: 2, character: 0 },
    });
    expect(keys.find((c) => c.label === 'sunrpc.tcp_max_slot_table_entries')?.documentation?.value).toContain(
      'Recommended',
    );
    const sysctlProbe = 'file:///tmp/anf-lsp-completion/etc/sysctl.d/90-nfs.conf';
    await client.openAndWait(sysctlProbe, 'sunrpc.tcp_max_slot_table_entries = ');
    const slotValues = await client.request<Completion[]>('textDocument/completion', {
      textDocument: { uri: sysctlProbe },
      position: { line: 0, character: 36 },
    });
    expect(slotValues[0]).toMatchObject({ label: '128', detail: expect.stringMatching(/^Recommended: /) });
    client.close(sysctlProbe);
    client.close(probe);
  });

  it('offers whole mount lines as snippets on an empty fstab line', async () => {
    const probe = 'file:///tmp/anf-lsp-snippets/etc/fstab';
    await client.openAndWait(probe, '\n');
    const items = await client.request<Completion[]>('textDocument/completion', {
      textDocument: { uri: probe },
      position: { line: 0, character: 0 },
    });
    const eda = items.find((c) => c.label === 'anf-mount-eda-tools');
    expect(eda?.insertTextFormat).toBe(2);
    expect(eda?.textEdit?.newText).toMatch(
      /^\$\{1:10\.0\.0\.4\}:\/\$\{2:volume\} \$\{3:\/mnt\/volume\} nfs rw,vers=3,hard,.*nconnect=8,_netdev 0 0$/,
    );
    client.close(probe);
  });

  it('completes keys as `"key": value` and quoted enum values in a JSON manifest being typed', async () => {
    type JsonCompletion = Completion & { filterText?: string; additionalTextEdits?: TextEditLike[] };
    const probe = 'file:///tmp/anf-lsp-json-completion/estate.anf.json';
    const halfTyped =
      '{\n  "accounts": [\n    {\n      "name": "eda-prod",\n      "pools": [\n        {\n          "na';
    await client.openAndWait(probe, halfTyped);
    const keys = await client.request<JsonCompletion[]>('textDocument/completion', {
      textDocument: { uri: probe },
      position: { line: 6, character: 13 },
    });
    expect(keys.map((c) => c.label)).toEqual([
      'name',
      'serviceLevel',
      'size',
      'qos',
      'throughput',
      'coolAccess',
      'networkFeatures',
      'volumes',
    ]);
    const level = keys.find((c) => c.label === 'serviceLevel')!;
    expect(level).toMatchObject({
      insertTextFormat: 2,
      filterText: '"serviceLevel"',
      textEdit: {
        range: { start: { line: 6, character: 10 }, end: { line: 6, character: 13 } },
        newText: '"serviceLevel": "$1"',
      },
    });
    expect(level.documentation?.value).toContain('MiB/s per TiB');
    expect(keys.find((c) => c.label === 'volumes')?.textEdit?.newText).toBe('"volumes": [$1]');

    // The value inside the quotes the key's snippet left, then a key after a member without its comma.
    const typed = `${halfTyped.slice(0, -3)}"name": "eda-premium",\n          "serviceLevel": ""\n        }\n      ]\n    }\n  ]\n}\n`;
    const version = client.change(probe, [{ text: typed }]);
    await client.nextDiagnostics(probe, (p) => p.version === version);
    const values = await client.request<JsonCompletion[]>('textDocument/completion', {
      textDocument: { uri: probe },
      position: { line: 7, character: 27 },
    });
    expect(values.map((c) => c.label)).toEqual(['"Standard"', '"Premium"', '"Ultra"', '"Flexible"']);
    expect(values[1]).toMatchObject({
      insertTextFormat: 1,
      textEdit: { range: { start: { line: 7, character: 26 }, end: { line: 7, character: 28 } }, newText: '"Premium"' },
    });
    const withPremium = typed.replace('"serviceLevel": ""', '"serviceLevel": "Premium"\n          ');
    const next = client.change(probe, [{ text: withPremium }]);
    await client.nextDiagnostics(probe, (p) => p.version === next);
    const after = await client.request<JsonCompletion[]>('textDocument/completion', {
      textDocument: { uri: probe },
      position: { line: 8, character: 10 },
    });
    const size = after.find((c) => c.label === 'size')!;
    expect(after.map((c) => c.label)).not.toContain('serviceLevel');
    expect(applyTextEdits(withPremium, [size.textEdit!, ...(size.additionalTextEdits ?? [])])).toContain(
      '"serviceLevel": "Premium",\n          "size": "$1"\n',
    );
    client.close(probe);
  });

  it('outlines accounts > pools > volumes, mounts and kernel settings', async () => {
    const symbols = await client.request<Symbol[]>('textDocument/documentSymbol', { textDocument: { uri: manifest } });
    expect(symbols.map((s) => s.name)).toEqual(['eda-prod']);
    expect(symbols[0]!.children!.map((p) => [p.name, p.detail, p.children!.map((v) => v.name)])).toEqual([
      ['eda-premium', 'Premium', ['eda-proj', 'eda-libs']],
      ['eda-tools-pool', 'Ultra', ['eda-tools']],
    ]);
    const mounts = await client.request<Symbol[]>('textDocument/documentSymbol', { textDocument: { uri: fstab } });
    expect(mounts.map((s) => [s.name, s.detail])).toEqual([
      ['/proj', '10.10.1.4:/eda-proj'],
      ['/other', '10.10.1.9:/other'],
    ]);
    const settings = await client.request<Symbol[]>('textDocument/documentSymbol', { textDocument: { uri: sysctl } });
    expect(settings.map((s) => s.name)).toEqual(['sunrpc.tcp_max_slot_table_entries', 'net.ipv4.tcp_rmem']);
  });

  it('folds manifest blocks', async () => {
    const ranges = await client.request<{ startLine: number; endLine: number }[]>('textDocument/foldingRange', {
      textDocument: { uri: manifest },
    });
    expect(ranges).toEqual(
      expect.arrayContaining([
        { startLine: 3, endLine: 32 },
        { startLine: 5, endLine: 20 },
        { startLine: 9, endLine: 16 },
      ]),
    );
  });

  it('shows code lenses with figures on pools and volumes', async () => {
    const lenses = await client.request<{ range: LspDiagnostic['range']; command: { title: string } }[]>(
      'textDocument/codeLens',
      { textDocument: { uri: manifest } },
    );
    expect(lenses.map((l) => [l.range.start.line, l.command.title])).toEqual([
      [
        5,
        expect.stringMatching(
          /^Pool: budget 768 MiB\/s, used 704 MiB\/s \(92%\) · 11 TiB of 12 TiB allocated · \$[\d,.]+\/month$/,
        ),
      ],
      [9, expect.stringMatching(/^Volume: 640 MiB\/s · 81,920 IOPS @ 8 KiB · \$[\d,.]+\/month · needs 950 MiB\/s ✗$/)],
      [17, expect.stringMatching(/^Volume: 64 MiB\/s/)],
      [21, expect.stringMatching(/^Pool: budget 512 MiB\/s/)],
      [25, expect.stringMatching(/^Volume: 256 MiB\/s .* needs 390.63 MiB\/s ✗$/)],
    ]);
  });

  it('shows inlay hints after quotas and pool sizes with the computed throughput', async () => {
    const hints = await client.request<{ position: { line: number; character: number }; label: string }[]>(
      'textDocument/inlayHint',
      {
        textDocument: { uri: manifest },
        range: { start: { line: 0, character: 0 }, end: { line: 12, character: 0 } },
      },
    );
    expect(hints.map((h) => [h.position, h.label])).toEqual([
      [{ line: 7, character: 20 }, '→ 768 MiB/s budget'],
      [{ line: 10, character: 25 }, '→ 640 MiB/s'],
    ]);
  });

  it('answers anf/hierarchy: accounts > pools > volumes > linked mounts, figures, counts, locations', async () => {
    type H = import('../../server/src/core/features/hierarchy').HierarchyResult;
    const result = await client.request<H>('anf/hierarchy', {});
    expect(result.manifests.map((m) => m.uri)).toEqual([manifest]);
    const [account] = result.manifests[0]!.accounts;
    expect(account!.name).toBe('eda-prod');
    expect(account!.diagnostics.error).toBe(2);
    const [premium, ultra] = account!.pools;
    expect(premium).toMatchObject({
      name: 'eda-premium',
      serviceLevel: 'Premium',
      sizeTiB: 12,
      throughputBudgetMiBps: 768,
      allocatedThroughputMiBps: 704,
    });
    const proj = premium!.volumes[0]!;
    expect(proj).toMatchObject({
      name: 'eda-proj',
      quotaGiB: 10240,
      throughputMiBps: 640,
      requiredThroughputMiBps: 950,
      workload: 'eda-scratch',
      diagnostics: { error: 1 },
    });
    expect(proj.location).toEqual({
      uri: manifest,
      range: { start: { line: 9, character: 18 }, end: { line: 9, character: 26 } },
    });
    expect(proj.figures[0]).toEqual({ key: 'throughput', label: 'Throughput', value: '640 MiB/s' });
    // Labelled host / mount point (the host model names the repository's folder); the file and line are the location.
    const host = proj.mounts[0]?.host ?? '?';
    expect(proj.mounts.map((m) => [m.label, m.location.uri, m.origin, m.server, m.exportPath])).toEqual([
      [`${host} / /proj`, fstab, 'fstab', '10.10.1.4', '/eda-proj'],
    ]);
    expect(ultra!.volumes[0]!.diagnostics.error).toBe(1);
    expect(result.unlinkedMounts.map((m) => m.label)).toEqual([`${host} / /other`]);
    expect(result.totals.error).toBeGreaterThanOrEqual(2);
  });

  it('answers anf/adviseSizing like `anf-lint size`, and anf/recommendedMount like `anf-lint mount`', async () => {
    const advice = await client.request<{
      options: { serviceLevel: string; feasible: boolean; throughputMiBps: number; manifestText?: string }[];
      error?: string;
    }>('anf/adviseSizing', { capacity: '10 TiB', throughput: '1600 MiB/s' });
    expect(advice.error).toBeUndefined();
    expect(advice.options[0]).toMatchObject({ serviceLevel: 'Flexible', feasible: true, throughputMiBps: 1600 });
    expect(advice.options[0]!.manifestText).toContain('serviceLevel: Flexible');
    expect((await client.request<{ error?: string }>('anf/adviseSizing', { throughput: '1600' })).error).toMatch(
      /^throughput: /,
    );
    const mount = await client.request<{ text: string; notes: string[] }>('anf/recommendedMount', {
      uri: manifest,
      volume: 'eda-proj',
      style: 'fstab',
    });
    expect(mount.text).toBe(
      '10.10.1.4:/eda-proj /mnt/eda-proj nfs rw,vers=3,hard,tcp,timeo=600,rsize=262144,wsize=262144,noatime,nconnect=8,_netdev 0 0',
    );
  });
});
