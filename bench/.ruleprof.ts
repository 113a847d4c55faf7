import { lintFile, LintMemo, lintSteps, resolveConfig, Workspace } from '../server/src/core';
import { ALL_RULES } from '../server/src/core/registry';
import { prng, provisioningScript } from './generate.mjs';
const text0 = provisioningScript(5000);
const uri = 'file:///bench/scripts/provision.sh';
const config = resolveConfig();
const workspace = new Workspace(config);
const memo = new LintMemo();
workspace.set(uri, text0, 1, 'shell');
const run = () => { const s = lintSteps(workspace, uri, config, { memo }); const times: number[] = []; let t = performance.now(); let st = s.next(); while (!st.done) { const n = performance.now(); times.push(n - t); t = n; st = s.next(); } times.push(performance.now() - t); return times; };
run();
const random = prng(21);
const lines = text0.split('\n');
const acc = new Array(ALL_RULES.length + 1).fill(0);
for (let i = 0; i < 100; i++) {
  const index = Math.floor(random() * lines.length); const line = lines[index]!; const c = Math.floor(random() * (line.length + 1));
  lines[index] = line.slice(0, c) + 'x' + line.slice(c);
  for (const t of [lines.join('\n'), (lines[index] = line, lines.join('\n'))]) { workspace.set(uri, t, i * 2 + 3 + (t === lines.join('\n') ? 1 : 0), 'shell'); run().forEach((ms, k) => (acc[k] += ms)); }
}
console.log(acc.map((ms, k) => [ms, k === 0 ? 'setup+rule0 ' + ALL_RULES[0]!.code : ALL_RULES[k - 0]?.code ?? 'end']).sort((a, b) => (b[0] as number) - (a[0] as number)).slice(0, 15).map(([ms, c]) => `${(ms as number / 200).toFixed(2)} ms/edit ${c}`).join('\n'));
console.log('whole:', [...memo.whole].map((r) => r.code).join(' '));
console.log('perMount:', ALL_RULES.filter((r) => r.perMount).map((r) => r.code + (r.perMountContext ? '*' : '')).join(' '));
console.log('perSetting:', ALL_RULES.filter((r) => r.perSetting).map((r) => r.code).join(' '));

console.log('diagnostics', lintFile(workspace, uri, config).length);
