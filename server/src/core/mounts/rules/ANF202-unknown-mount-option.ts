import { lazyFinding } from '../../diagnostics';
import { closest, distance } from 'fastest-levenshtein';
import { defineRule } from '../../rules/rule';
import { findOption, KNOWN_OPTION_NAMES, type OptionSpec } from '../catalog';
import { mountFix, removeOption } from '../fixes';
import type { MountOption, MountOrigin } from '../model';
import { hasNfsMounts } from './common';

export const unknownMountOption = defineRule({
  code: 'ANF202',
  name: 'unknown-mount-option',
  domain: 'mount',
  defaultSeverity: 'error',
  fixes: ['unsafe'],
  doc: {
    title: 'Unknown NFS mount option',
    what: 'An option that is neither an nfs(5) option nor a generic mount, systemd or autofs option. The closest known option is offered as a fix (`nconect` → `nconnect`).',
    why: 'mount.nfs refuses the whole mount with "an incorrect mount option was specified": the volume is not mounted at all. With `sloppy` the option is ignored instead, so the setting you meant never takes effect.',
    instead:
      'Correct the spelling, or remove the option. Template placeholders (`{{ nfs_opts }}`, `$OPTS`) are never flagged.',
    examples: [
      {
        flagged: 'sudo mount -t nfs -o rw,hard,vers=3,nconect=8 10.10.1.4:/eda-tools /tools',
        better: 'sudo mount -t nfs -o rw,hard,vers=3,nconnect=8 10.10.1.4:/eda-tools /tools',
        language: 'sh',
      },
    ],
    sources: ['NFS5'],
  },
  appliesTo: hasNfsMounts,
  checkMount({ mount, effective }, context) {
    // Which options may be reported is a question about the list alone: asked once per list.
    const suspects = effective.perList(suspectOptions);
    if (!suspects) return;
    const sloppy = effective.byGroup.has('sloppy');
    const options = mount.options;
    for (const i of suspects) {
      const option = options[i]!;
      const known = effective.specs[i];
      if (known?.scope === 'autofs' && AUTOFS_BLIND.has(mount.origin)) {
        // autofs reads these itself and never passes them on: mount.nfs does not know them.
        context.report(
          lazyFinding({ span: option.nameSpan }, () => ({
            message: `\`${option.name}\` is an autofs map option: autofs reads it, but ${mount.origin === 'systemd' ? 'systemd passes it to mount.nfs, which rejects the mount' : 'mount.nfs rejects the mount'} ("an incorrect mount option was specified"). Keep it in the autofs map, or remove it here.`,
            fixes: mountFix.unsafe(`Remove \`${option.name}\``, removeOption(context.file.source.text, mount, option)),
          })),
        );
        continue;
      }
      if (known) continue;
      const lower = option.name.toLowerCase();
      const suggestion = findOption(lower) ? lower : closest(option.name, [...KNOWN_OPTION_NAMES]);
      const near =
        suggestion !== undefined &&
        distance(option.name, suggestion) <= Math.max(1, Math.floor(option.name.length / 3));
      context.report(
        lazyFinding({ span: option.nameSpan, ...(sloppy ? { severity: 'warning' as const } : {}) }, () => ({
          message: `Unknown mount option \`${option.name}\`${near ? `: did you mean \`${suggestion}\`?` : '.'} ${sloppy ? 'With `sloppy`, mount ignores it, so it has no effect.' : 'mount.nfs rejects the whole mount ("an incorrect mount option was specified").'}`,
          ...(near
            ? {
                fixes: mountFix.unsafe(`Change to \`${suggestion}\``, { span: option.nameSpan, newText: suggestion }),
              }
            : {}),
        })),
      );
    }
  },
});

/** Where an option goes straight to mount.nfs, with no autofs in between. */
const AUTOFS_BLIND: ReadonlySet<MountOrigin> = new Set([
  'fstab',
  'mount-command',
  'systemd',
  'ansible',
  'salt',
  'puppet',
  'chef',
]);

/** Indexes of the options this rule may report (unknown, or autofs map options); undefined when none (most lists). */
function suspectOptions(
  options: readonly MountOption[],
  specs: readonly (OptionSpec | undefined)[],
): readonly number[] | undefined {
  let suspects: number[] | undefined;
  for (let i = 0; i < options.length; i++) {
    if (options[i]!.templated) continue;
    const known = specs[i];
    if (known && known.scope !== 'autofs') continue;
    (suspects ??= []).push(i);
  }
  return suspects;
}
