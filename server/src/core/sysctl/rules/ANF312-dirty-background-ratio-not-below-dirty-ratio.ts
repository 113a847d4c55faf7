import { SYSCTL_DEFAULTS } from '../../facts';
import type { RelatedSpan } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import { integerValue, overriddenBy, scopeOf, where, winning } from './scope';
import { hasSettings } from './common';

export const dirtyBackgroundRatioNotBelowDirtyRatio = defineRule({
  code: 'ANF312',
  name: 'dirty-background-ratio-not-below-dirty-ratio',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fixes: [],
  doc: {
    title: '`vm.dirty_background_ratio` is not below `vm.dirty_ratio`',
    what: 'The background write-back threshold at or above the threshold where writers block, counting the kernel defaults (20 and 10) for the one not set and values from every drop-in of the host.',
    why: 'Background write-back must start before writers are throttled. When it does not, the kernel silently uses half of `vm.dirty_ratio` instead, so the value written is not the value in force, and writers to NFS stall in bursts.',
    instead:
      'Keep `vm.dirty_background_ratio` well below `vm.dirty_ratio`, e.g. 5 and 20 as in the Microsoft Learn module on ANF performance for EDA and HPC.',
    examples: [
      {
        flagged: 'vm.dirty_ratio = 10\nvm.dirty_background_ratio = 20',
        better: 'vm.dirty_ratio = 20\nvm.dirty_background_ratio = 5',
        language: 'ini',
        file: '/etc/sysctl.d/90-nfs.conf',
      },
    ],
    sources: ['KDOC', 'SEED_MOUNT'],
  },
  appliesTo: (file) => hasSettings(file) && file.settings.some((s) => s.key === RATIO || s.key === BACKGROUND),
  check(context) {
    const { file, workspace } = context;
    const scope = scopeOf(workspace, file);
    const ratioSetting = winning(scope, RATIO);
    const backgroundSetting = winning(scope, BACKGROUND);
    if (ratioSetting?.templated || backgroundSetting?.templated) return;
    // A byte limit written after the ratio replaces it: the ratios are then not in force.
    const bytes = winning(scope, 'vm.dirty_bytes') ?? winning(scope, 'vm.dirty_background_bytes');
    if (
      bytes &&
      scope.ordered.indexOf(bytes) >
        Math.max(scope.ordered.indexOf(ratioSetting!), scope.ordered.indexOf(backgroundSetting!))
    )
      return;
    const ratio = ratioSetting ? integerValue(ratioSetting) : SYSCTL_DEFAULTS.vmDirtyRatioPercent.value;
    const background = backgroundSetting
      ? integerValue(backgroundSetting)
      : SYSCTL_DEFAULTS.vmDirtyBackgroundRatioPercent.value;
    if (ratio === undefined || background === undefined || background < ratio) return;
    // One finding per host: on the background ratio when it is written, else on dirty_ratio.
    const target = backgroundSetting ?? ratioSetting;
    if (!target || target.uri !== file.uri || overriddenBy(scope, target)) return;
    const other = target === backgroundSetting ? ratioSetting : backgroundSetting;
    const related: RelatedSpan[] = other
      ? [{ uri: other.uri, span: other.span, message: `${other.key} = ${other.value}` }]
      : [];
    const ratioText = ratioSetting
      ? `${ratio}% (${where(workspace, file, ratioSetting)})`
      : `${ratio}% (the kernel default)`;
    const backgroundText = backgroundSetting
      ? `${background}% (${where(workspace, file, backgroundSetting)})`
      : `${background}% (the kernel default)`;
    context.report({
      span: target.span,
      message: `vm.dirty_background_ratio ${backgroundText} is not below vm.dirty_ratio ${ratioText}: the kernel ignores it and starts background write-back at half of dirty_ratio (${Math.floor(ratio / 2)}%) instead.`,
      related,
    });
  },
});

const RATIO = 'vm.dirty_ratio';

const BACKGROUND = 'vm.dirty_background_ratio';
