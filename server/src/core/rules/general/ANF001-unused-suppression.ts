import { reportedByEngine } from './reportedByEngine';

/** Reported by the engine itself (see lint.ts): it needs every other rule's results first. */
export const unusedSuppression = reportedByEngine({
  code: 'ANF001',
  name: 'unused-suppression',
  defaultSeverity: 'warning',
  fixes: ['safe'],
  doc: {
    title: 'Suppression comment that silences nothing',
    what: 'An `# anf-lint disable-next-line` or `disable-file` comment whose rules report nothing where it points.',
    why: 'A stale suppression hides the next real finding on that line, and tells readers a problem exists that does not.',
    instead: 'Remove the comment, or name the rule codes that still apply. The fix removes the comment line.',
    examples: [
      {
        flagged: '# anf-lint disable-next-line ANF204 -- legacy\n10.0.0.4:/tools /tools nfs hard,vers=3 0 0',
        better: '10.0.0.4:/tools /tools nfs hard,vers=3 0 0',
        language: 'fstab',
      },
    ],
  },
});
