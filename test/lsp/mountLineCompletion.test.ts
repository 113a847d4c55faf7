import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient, TempWorkspace, type TextEditLike } from './support/lspClient';

/**
 * "mount line for <volume>" completion (issue 16 item 3): at the start of a line of an fstab, a
 * shell script, a systemd mount unit or an autofs map, one item per manifest volume of the
 * workspace, with its real mount target and export path and the options `anf-lint mount` prints
 * for its workload (no placeholder address).
 */
type Completion = { label: string; detail?: string; documentation?: { value: string }; textEdit?: TextEditLike };

describe('completion: mount lines for the workspace manifest volumes', () => {
  const ws = new TempWorkspace();
  cpSync(join(__dirname, 'fixtures', 'eda'), ws.root, { recursive: true });
  let client: LspClient;
  beforeAll(async () => {
    ({ client } = await LspClient.startIndexed({ rootUri: ws.uri }));
  });
  afterAll(async () => {
    await client.shutdown().catch(() => undefined);
    client.dispose();
    ws.remove();
  });

  async function itemsIn(path: string, text: string, line = 0, character = 0): Promise<Completion[]> {
    const uri = ws.uriOf(path);
    await client.openAndWait(uri, text);
    const items = await client.request<Completion[]>('textDocument/completion', {
      textDocument: { uri },
      position: { line, character },
    });
    client.close(uri);
    return items;
  }

  it('fstab: the recommended line with the mount target and export path of the volume', async () => {
    const items = await itemsIn('host/etc/fstab', '\n');
    const proj = items.find((c) => c.label === 'mount line for eda-proj');
    expect(proj?.textEdit?.newText).toMatch(/^10\.10\.1\.4:\/eda-proj \S+ nfs rw,vers=3,hard,.*_netdev 0 0$/);
    expect(proj?.documentation?.value).toContain('anf-lint mount eda-proj');
    expect(proj?.documentation?.value).toContain('its workload eda-scratch');
    expect(items.some((c) => c.textEdit?.newText.includes('10.0.0.4') && c.label.startsWith('mount line'))).toBe(false);
  });

  it('shell script, systemd unit, autofs map: the same recommendation in their formats', async () => {
    const shell = (await itemsIn('scripts/mount.sh', '#!/bin/sh\n\n', 1, 0)).find(
      (c) => c.label === 'mount line for eda-proj',
    );
    expect(shell?.textEdit?.newText).toMatch(/^mount -t nfs -o rw,vers=3,hard,\S+ 10\.10\.1\.4:\/eda-proj \S+$/);
    const unit = (await itemsIn('host/etc/systemd/system/proj.mount', '\n')).find(
      (c) => c.label === 'mount line for eda-proj',
    );
    expect(unit?.textEdit?.newText).toContain('What=10.10.1.4:/eda-proj');
    const autofs = (await itemsIn('host/etc/auto.proj', '\n')).find((c) => c.label === 'mount line for eda-proj');
    expect(autofs?.textEdit?.newText).toMatch(/^\S+ {2}-fstype=nfs,rw,vers=3,hard,\S+ {2}10\.10\.1\.4:\/eda-proj$/);
  });

  it('only at the start of a line: not inside an option list', async () => {
    const items = await itemsIn('host/etc/fstab', '10.10.1.4:/eda-proj /proj nfs rw,', 0, 33);
    expect(items.filter((c) => c.label.startsWith('mount line for'))).toEqual([]);
  });
});
