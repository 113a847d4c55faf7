import { defineRule } from '../../rules/rule';
import { removeLineFixes, scopeOf, surelyOverwrites, where, winning } from './scope';
import { hasSettings } from './common';

export const dirtyBytesAndRatioBothSet = defineRule({
  code: 'ANF313',
  name: 'dirty-bytes-and-ratio-both-set',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fixes: ['safe'],
  doc: {
    title: 'Both `vm.dirty_*_bytes` and `vm.dirty_*_ratio` are set: only the later one applies',
    what: '`vm.dirty_bytes` and `vm.dirty_ratio` (or `vm.dirty_background_bytes` and `vm.dirty_background_ratio`) both set for one host. The finding sits on the one that loses.',
    why: 'They are two ways to write the same limit: writing one sets the other to 0. The value written last, in load order, is the one in force; the other line is dead and misleads whoever reads the file. SAS GRID guidance sets `vm.dirty_bytes` while common blocks set `vm.dirty_ratio`, and copying both is easy.',
    instead:
      'Choose one form per limit. The fix deletes the losing line (or comments it out): the kernel ends up with the same limit.',
    examples: [
      {
        flagged: 'vm.dirty_ratio = 20\nvm.dirty_bytes = 31457280',
        better: 'vm.dirty_bytes = 31457280',
        language: 'ini',
        file: '/etc/sysctl.d/90-nfs.conf',
      },
    ],
    sources: ['KDOC', 'FC'],
  },
  appliesTo: (file) => hasSettings(file) && file.settings.some((s) => s.key.startsWith('vm.dirty_')),
  check(context) {
    const { file, workspace } = context;
    const scope = scopeOf(workspace, file);
    for (const [bytesKey, ratioKey] of PAIRS) {
      const bytes = winning(scope, bytesKey);
      const ratio = winning(scope, ratioKey);
      if (!bytes || !ratio || bytes.templated || ratio.templated) continue;
      const bytesLater = scope.ordered.indexOf(bytes) > scope.ordered.indexOf(ratio);
      const [winner, loser] = bytesLater ? [bytes, ratio] : [ratio, bytes];
      if (loser.uri !== file.uri) continue;
      // Written to other files, for other hosts or under other conditions (`when:`, `{% if %}`): maybe never together.
      if (
        loser.target !== winner.target ||
        loser.persistent !== winner.persistent ||
        !surelyOverwrites(scope, winner, loser)
      )
        continue;
      context.report({
        span: loser.span,
        message: `\`${loser.key} = ${loser.value}\` has no effect: \`${winner.key}\` is written later (${where(workspace, file, winner)}), and writing it sets ${loser.key} to 0. Keep one of the two.`,
        related: [
          { uri: winner.uri, span: winner.span, message: `${winner.key} = ${winner.value} is the limit in force` },
        ],
        tags: ['unnecessary'],
        fixes: removeLineFixes.safe(file, loser, `${winner.key} replaces it`),
      });
    }
  },
});

const PAIRS: readonly [string, string][] = [
  ['vm.dirty_bytes', 'vm.dirty_ratio'],
  ['vm.dirty_background_bytes', 'vm.dirty_background_ratio'],
];
