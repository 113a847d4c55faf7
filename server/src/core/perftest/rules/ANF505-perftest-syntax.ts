import { reportProblems } from '../../rules/problems';
import { defineRule } from '../../rules/rule';
import { PERFTEST_SYNTAX } from '../fio';

export const perftestSyntax = defineRule({
  code: PERFTEST_SYNTAX,
  name: 'perftest-syntax',
  domain: 'perftest',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'A fio job file or vdbench parameter file the tool would refuse',
    what: 'A fio job file with an option before any `[section]`, a section header without its `]`, an `rw=` pattern fio does not know, or a size or block size fio cannot read (`bs=4kk`); a vdbench parameter file with a parameter that is not `keyword=value`, unmatched parentheses, or a run (`rd=`) naming a workload (`wd=`, `fwd=`) no line of the file defines (and no `include=` may).',
    why: 'fio stops on such a job file before it starts any I/O, and vdbench stops in its parameter scan ("Expecting \'keyword=\' in parameter", "Unmatched Parenthesis"): the test does not run, and anf-lint cannot say what it would measure.',
    instead:
      'Write the value the way the tool\'s documentation gives it: fio\'s HOWTO ("Job file format", "Parameter types") and the Vdbench Users Guide ("Parameter file(s)").',
    examples: [
      {
        file: 'perf/randread.fio',
        flagged: '[randread]\nrw=randomread\nbs=8k',
        better: '[randread]\nrw=randread\nbs=8k',
        language: 'ini',
      },
    ],
    sources: ['FIO_HOWTO', 'VDBENCH_GUIDE'],
  },
  appliesTo: (file) => file.perftest !== undefined,
  check: (context) => reportProblems(PERFTEST_SYNTAX, context),
});
