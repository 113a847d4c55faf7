import { defineRule } from '../../rules/rule';
import { ANNOTATION_CODE } from '../annotation';
import { reportProblems } from '../../rules/problems';

export const workloadAnnotation = defineRule({
  code: ANNOTATION_CODE,
  name: 'workload-annotation',
  domain: 'mount',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: 'Workload annotation anf-lint cannot read',
    what: 'A `# anf:` comment whose workload is not one anf-lint knows, or that has no `workload=` at all.',
    why: 'The annotation decides which workload rules apply to the mount below it (NFSv3 for EDA, NFSv4.1 for SAP HANA data and log, nocto only on read-mostly data). A misspelled workload turns those checks off without a word.',
    instead:
      'Write `# anf: workload=<kind>` with one of: eda-tools, eda-scratch, hpc, sap-hana-data, sap-hana-log, sap-hana-shared, oracle, database, vdi, general. The fix offers the closest known workload.',
    examples: [
      {
        flagged: '# anf: workload=eda-tool\n10.10.1.4:/eda-tools  /tools  nfs  ro,hard,vers=3  0  0',
        better: '# anf: workload=eda-tools\n10.10.1.4:/eda-tools  /tools  nfs  ro,hard,vers=3  0  0',
        language: 'fstab',
      },
    ],
  },
  appliesTo: (file) => file.problems.some((p) => p.code === ANNOTATION_CODE),
  check: (context) => reportProblems(ANNOTATION_CODE, context),
});
