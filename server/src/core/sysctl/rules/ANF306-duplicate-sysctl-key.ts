import { lazyFinding, type DiagnosticTag } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import { overriddenBy, removeLineFixes, scopeOf, where } from './scope';
import { hasSettings } from './common';
import type { KernelSetting } from '../model';

const UNNECESSARY: readonly DiagnosticTag[] = ['unnecessary'];

/**
 * Whether two settings write the same value (spaces aside). Remembered per setting and winner: a
 * document re-read after an edit keeps its settings, and a script repeating hundreds of keys asked
 * this of each on every keystroke (a kept setting's value never changes).
 */
function sameValue(setting: KernelSetting, winner: KernelSetting): boolean {
  const known = SAME.get(setting);
  if (known && known.winner === winner) return known.same;
  const same = winner.value === setting.value || winner.value.trim().replace(/\s+/g, ' ') === setting.value.trim().replace(/\s+/g, ' ');
  SAME.set(setting, { winner, same });
  return same;
}
const SAME = new WeakMap<KernelSetting, { readonly winner: KernelSetting; readonly same: boolean }>();

export const duplicateSysctlKey = defineRule({
  code: 'ANF306',
  name: 'duplicate-sysctl-key',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fixes: ['safe'],
  doc: {
    title: 'A kernel key set again later: the earlier value never takes effect',
    what: 'The same key set twice in one file, or in two `sysctl.d` drop-ins (or a drop-in and `/etc/sysctl.conf`) of the same host. Files load in order of their names, `/etc/sysctl.conf` last, and the last value wins. The finding sits on the value that loses and points at the one that wins.',
    why: 'Blocks copied from several guides repeat keys: the client block of the Microsoft Learn module on ANF performance for EDA and HPC sets `net.ipv4.tcp_sack = 1` and, twenty lines further down, `net.ipv4.tcp_sack = 0`. A reader sees the first value and believes it; the kernel uses the last one.',
    instead: 'Keep one line per key, in the file that should own it. The fix deletes the losing line (or comments it out), which changes nothing the kernel sees.',
    examples: [
      {
        flagged: 'net.ipv4.tcp_sack = 1\n# ...\nnet.ipv4.tcp_sack = 0',
        better: 'net.ipv4.tcp_sack = 1',
        language: 'ini',
      },
    ],
    sources: ['KDOC', 'SEED_MOUNT'],
  },
  appliesTo: hasSettings,
  check(context) {
    const { file, workspace } = context;
    const scope = scopeOf(workspace, file);
    for (const setting of file.settings) {
      const winner = overriddenBy(scope, setting);
      if (!winner) continue;
      const same = sameValue(setting, winner);
      // Made only when a report lists it: a file that repeats a key thousands of times lists the first ones.
      context.report(
        lazyFinding({ span: setting.span, severity: same ? 'info' : 'warning', tags: UNNECESSARY }, () => {
          const winnerAt = where(workspace, file, winner);
          return {
            message: same
              ? `\`${setting.key}\` is set to the same value again at ${winnerAt}; this line is redundant.`
              : `\`${setting.key} = ${setting.value}\` never takes effect: ${winnerAt} sets it again to ${winner.value}, and the later value wins.`,
            related: [{ uri: winner.uri, span: winner.span, message: `This value (${winner.value}) wins` }],
            fixes: removeLineFixes.safe(file, setting, 'it is set again later'),
          };
        }),
      );
    }
  },
});
