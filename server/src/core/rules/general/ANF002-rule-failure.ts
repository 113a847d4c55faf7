import { reportedByEngine } from './reportedByEngine';

/** Reported by the engine when a rule throws: the fault is contained and shown once per file. */
export const ruleFailure = reportedByEngine({
  code: 'ANF002',
  name: 'rule-failure',
  defaultSeverity: 'warning',
  fixes: [],
  doc: {
    title: 'A rule failed on this file',
    what: "One of anf-lint's rules raised an internal error while checking this file. The other rules still ran.",
    why: 'A failing rule cannot tell you whether the file is right, so you see that it did not run instead of a silent pass.',
    instead:
      'Report the message and the file (or a reduced copy) as an anf-lint bug. You can turn the failing rule off in `.anf-lint.yaml` meanwhile.',
  },
});
