import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient, TempWorkspace, type TextEditLike } from './support/lspClient';

/**
 * Value completion after `nconnect=` on the first request (issue 16 item 9), over stdio as an
 * editor drives it: (1) typing `=` sends the change and then a completion request with the `=`
 * trigger character: the values come at once; (2) choosing `nconnect` from the option list inserts
 * `nconnect=` itself, so no trigger character fires: the item carries the client's "suggest again"
 * command (VS Code's `editor.action.triggerSuggest`, named in initializationOptions), and a client
 * that names none gets no command.
 */
type Completion = { label: string; textEdit?: TextEditLike; command?: { command: string } };
const TRIGGERED = { triggerKind: 2, triggerCharacter: '=' };

describe('completion after nconnect=', () => {
  const ws = new TempWorkspace();
  let vscodeLike: LspClient;
  let plain: LspClient;

  beforeAll(async () => {
    vscodeLike = new LspClient();
    await vscodeLike.initialize({
      rootUri: ws.uri,
      initializationOptions: { retriggerSuggestCommand: 'editor.action.triggerSuggest' },
    });
    plain = new LspClient();
    await plain.initialize({ rootUri: ws.uri });
  });
  afterAll(async () => {
    await Promise.all([vscodeLike.shutdown().catch(() => undefined), plain.shutdown().catch(() => undefined)]);
    vscodeLike.dispose();
    plain.dispose();
    ws.remove();
  });

  it('lists the values on the request that the typed `=` triggers', async () => {
    const uri = ws.uriOf('etc/fstab');
    await vscodeLike.openAndWait(uri, '10.0.0.4:/vol /mnt nfs rw,nconnect');
    const line = '10.0.0.4:/vol /mnt nfs rw,nconnect';
    // No waiting for diagnostics between the keystroke and the request, as in an editor.
    vscodeLike.change(uri, [
      { range: { start: { line: 0, character: line.length }, end: { line: 0, character: line.length } }, text: '=' },
    ]);
    const values = await vscodeLike.request<Completion[]>('textDocument/completion', {
      textDocument: { uri },
      position: { line: 0, character: line.length + 1 },
      context: TRIGGERED,
    });
    expect(values.map((c) => c.label)).toContain('8');
    expect(values.every((c) => c.textEdit?.range.start.character === line.length + 1)).toBe(true);
  });

  it('an option chosen from the list asks the editor to suggest its values', async () => {
    const uri = ws.uriOf('host2/etc/fstab');
    const line = '10.0.0.4:/vol /mnt nfs rw,nco';
    await vscodeLike.openAndWait(uri, `${line}\n`);
    const options = await vscodeLike.request<Completion[]>('textDocument/completion', {
      textDocument: { uri },
      position: { line: 0, character: line.length },
    });
    const nconnect = options.find((c) => c.label === 'nconnect');
    expect(nconnect?.textEdit?.newText).toBe('nconnect=');
    expect(nconnect?.command?.command).toBe('editor.action.triggerSuggest');
    // A flag inserts no `=`: nothing to suggest after it.
    expect(options.find((c) => c.label === 'hard')?.command).toBeUndefined();

    await plain.openAndWait(uri, `${line}\n`);
    const plainOptions = await plain.request<Completion[]>('textDocument/completion', {
      textDocument: { uri },
      position: { line: 0, character: line.length },
    });
    expect(plainOptions.find((c) => c.label === 'nconnect')?.textEdit?.newText).toBe('nconnect=');
    expect(plainOptions.find((c) => c.label === 'nconnect')?.command).toBeUndefined();
  });
});
