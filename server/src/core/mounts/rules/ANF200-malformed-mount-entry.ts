import { defineRule } from '../../rules/rule';
import { MALFORMED_CODE } from '../fstab';
import { reportProblems } from '../../rules/problems';

export const malformedMountEntry = defineRule({
  code: MALFORMED_CODE,
  name: 'malformed-mount-entry',
  domain: 'mount',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'Mount entry anf-lint (and mount) cannot read',
    what: 'An fstab line with fewer than four or more than six fields, a systemd `.mount` unit without `What=` or `Where=`, an autofs map entry without a location, or a cloud-init `mounts:` entry without a mount point.',
    why: 'mount and systemd reject or misread such entries: a space inside a field splits it in two, and a missing field shifts the rest. The volume is then not mounted at boot, often silently.',
    instead:
      'Write six fields (`server:/export  /mount/point  nfs  options  0  0`), separated by spaces or tabs, with `\\040` for a space inside a field and commas without spaces between options.',
    examples: [
      {
        flagged: '10.10.1.4:/eda-tools  /tools  nfs  rw, hard, vers=3  0  0',
        better: '10.10.1.4:/eda-tools  /tools  nfs  rw,hard,vers=3  0  0',
        language: 'fstab',
      },
    ],
    sources: ['NFS5'],
  },
  appliesTo: (file) => file.problems.some((p) => p.code === MALFORMED_CODE),
  check: (context) => reportProblems(MALFORMED_CODE, context),
});
