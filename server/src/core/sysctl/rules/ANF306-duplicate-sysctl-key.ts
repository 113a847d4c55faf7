import { lazyFinding, type DiagnosticTag } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import { overriddenBy, removeLineFixes, scopeOf, where } from './scope';
import { hasSettings } from './common';
import type { KernelSetting } from '../model';

export const duplicateSysctlKey = defineRule({
  code: 'ANF306',
  name: 'duplicate-sysctl-key',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fixes: ['safe'],
  doc: {
    title: 'A kernel key set again later: the earlier value never takes effect',
    what: "The same key set twice in one file, or in two `sysctl.d` drop-ins (or a drop-in and `/etc/sysctl.conf`) of the same host. Files load in order of their names, `/etc/sysctl.conf` last, and the last value wins. The finding sits on the value that loses and points at the one that wins. A value counts as overwritten only when the later one is surely written whenever it is, to the same file of the same host, after it: in Ansible, two tasks under different `when:` conditions (stand-alone nodes and cluster nodes), in different plays (`hosts:`), in a loop, in a `rescue:` section, or writing a templated path are alternatives, not a repeat; so are the branches of a Jinja `{% if %}` in a template or a block. Two `blockinfile` tasks with different `marker:` values own two blocks that both stay in the file (the later one, appended at the end, wins); the same marker twice is one block, rewritten by the later task; a block put elsewhere (`insertbefore:`, `insertafter:` a pattern) is not known to come later. Two `copy` or `template` tasks to different files load in the order of the files' names, not of the tasks, and are not compared.",
    why: 'Blocks copied from several guides repeat keys: the client block of the Microsoft Learn module on ANF performance for EDA and HPC sets `net.ipv4.tcp_sack = 1` and, twenty lines further down, `net.ipv4.tcp_sack = 0`. A reader sees the first value and believes it; the kernel uses the last one.',
    instead:
      "Keep one line per key, in the file that should own it. The fix deletes the losing line (or comments it out), which changes nothing the kernel sees on any host: it is offered only where the finding is certain (same file, same host, same or no condition). A line inside an Ansible task's YAML value (`line:` of `lineinfile`, the sysctl module's `name:`) gets no fix: delete the task instead.",
    examples: [
      {
        flagged: 'net.ipv4.tcp_sack = 1\nvm.swappiness = 10\nnet.ipv4.tcp_sack = 0',
        better: 'net.ipv4.tcp_sack = 1\nvm.swappiness = 10',
        language: 'ini',
        file: '/etc/sysctl.d/90-nfs.conf',
      },
      {
        flagged:
          '- name: Tune the page cache for HANA\n  ansible.builtin.blockinfile:\n    path: /etc/sysctl.d/91-nfs.conf\n    block: |\n      vm.swappiness = 10\n  when: "\'hana\' in group_names"\n- name: Site defaults\n  ansible.builtin.blockinfile:\n    path: /etc/sysctl.d/91-nfs.conf\n    marker: "# {mark} site"\n    block: |\n      vm.swappiness = 30',
        better:
          '- name: Site defaults\n  ansible.builtin.blockinfile:\n    path: /etc/sysctl.d/91-nfs.conf\n    marker: "# {mark} site"\n    block: |\n      vm.swappiness = 30',
        language: 'yaml',
        file: 'roles/tuning/tasks/main.yml',
      },
    ],
    sources: ['KDOC', 'SEED_MOUNT', 'ANSIBLE_BLOCKINFILE', 'ANSIBLE_LINEINFILE', 'ANSIBLE_CONDITIONALS'],
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

const UNNECESSARY: readonly DiagnosticTag[] = ['unnecessary'];

/**
 * Whether two settings write the same value (spaces aside). Remembered per setting and winner: a
 * document re-read after an edit keeps its settings, and a script repeating hundreds of keys asked
 * this of each on every keystroke (a kept setting's value never changes).
 */
function sameValue(setting: KernelSetting, winner: KernelSetting): boolean {
  const known = SAME.get(setting);
  if (known && known.winner === winner) return known.same;
  const same =
    winner.value === setting.value ||
    winner.value.trim().replace(/\s+/g, ' ') === setting.value.trim().replace(/\s+/g, ' ');
  SAME.set(setting, { winner, same });
  return same;
}

const SAME = new WeakMap<KernelSetting, { readonly winner: KernelSetting; readonly same: boolean }>();
