/**
 * Live heap of a line-based file's edits in process (issue 17): the server's per-change work
 * (Workspace.set, lintFile with the document's LintMemo, LSP conversion and JSON), then a full GC
 * every `every` edits and the heap used after it. A re-read item that holds a slice of its version's
 * text keeps that whole text alive: the heap then grows with the edits (bench/notes.md, session 7).
 * Usage: node --expose-gc <bundle> <input> <edits> [seed] [every]
 *   <input>: fstab:<lines>, sysctl:<lines>, autofs:<lines>, script:<lines> (bench/lineServer.mjs's inputs)
 */
import { LintMemo, lintFile, resolveConfig, Workspace, type FileKind } from '../server/src/core';
import { toLspDiagnostic } from '../server/src/lsp/convert';
import { autofsLines, fstab, provisioningScript, smallFstab, sysctlSet, typingEdits } from './generate.mjs';

const [, , input = 'fstab:200', countArg = '600', seedArg = '21', everyArg = '100'] = process.argv;
const [name, size] = input.split(':');
const n = Number(size);
const inputs: Record<string, () => { uri: string; kind: FileKind; text: string }> = {
  fstab: () => ({ uri: 'file:///bench/etc/fstab', kind: 'fstab', text: n === 200 ? smallFstab() : fstab(n) }),
  sysctl: () => ({ uri: 'file:///bench/etc/sysctl.d/90-bench.conf', kind: 'sysctl', text: Object.values(sysctlSet(n, n, 3))[0]! }),
  autofs: () => ({ uri: 'file:///bench/etc/auto.proj', kind: 'autofs', text: autofsLines(n) }),
  script: () => ({ uri: 'file:///bench/scripts/provision.sh', kind: 'shell', text: provisioningScript(n) }),
};
const make = inputs[name!];
if (!make) throw new Error(`unknown input ${input}`);
const { uri, kind, text: text0 } = make();
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const mib = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1048576;
};
const config = resolveConfig();
const workspace = new Workspace(config);
const memo = new LintMemo();
workspace.set(uri, text0, 0, kind);
lintFile(workspace, uri, config, { memo });
const every = Number(everyArg);
const heap: string[] = [mib().toFixed(1)];
let version = 0;
for (const { lines } of typingEdits(text0, Number(countArg) / 2, Number(seedArg))) {
  version++;
  workspace.set(uri, lines.join('\n'), version, kind);
  const diagnostics = lintFile(workspace, uri, config, { memo });
  const json = JSON.stringify(diagnostics.filter((d) => !d.suppressed).map(toLspDiagnostic));
  if (json.length < 0) throw new Error('unreachable');
  if (version % every === 0) heap.push(mib().toFixed(1));
}
console.log(JSON.stringify({ input, chars: text0.length, edits: version, liveHeapMiB: heap.join(' ') }));
