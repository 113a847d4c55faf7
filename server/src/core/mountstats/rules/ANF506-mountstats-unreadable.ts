import { defineRule } from '../../rules/rule';
import { EXAMPLE_LOAD, exampleCapture, exampleOpts } from './examples';

export const mountstatsUnreadable = defineRule({
  code: 'ANF506',
  name: 'mountstats-unreadable',
  domain: 'perftest',
  defaultSeverity: 'warning',
  fixes: [],
  doc: {
    title: 'A mountstats capture anf-lint cannot read whole',
    what: "A file named `mountstats` or `*.mountstats` (a capture of a host's `/proc/self/mountstats`), or the live file `anf-lint host` reads, that is not in the kernel's format: no `device ... mounted on ... with fstype ...` line, an NFS mount with a statistics version other than 1.0 or 1.1, or a mount whose statistics stop before its `opts:`, `age:` or per-op lines (a capture cut short). One finding for the file, at the first place it goes wrong.",
    why: 'The comparisons with the repository (options in force, the volume ceiling) read every mount of the capture; a truncated or foreign file would make them say things about mounts they cannot see.',
    instead:
      "Capture the whole file again: `cat /proc/self/mountstats > hosts/<host>/mountstats` on the host (nfs-utils' `mountstats` reads the same file).",
    examples: [
      {
        file: 'hosts/perf-client/mountstats',
        flagged: exampleCapture({ opts: exampleOpts(), ...EXAMPLE_LOAD })
          .split('\tper-op statistics')[0]!
          .trimEnd(),
        better: exampleCapture({ opts: exampleOpts(), ...EXAMPLE_LOAD }),
      },
    ],
    sources: ['KSRC'],
  },
  appliesTo: (file) => file.mountstats !== undefined,
  check(context) {
    const unreadable = context.file.mountstats?.unreadable;
    if (!unreadable) return;
    context.report({
      span: unreadable.span,
      message: `This is not a whole mountstats capture: ${unreadable.reason}. anf-lint compares no mount of it with the repository.`,
    });
  },
});
