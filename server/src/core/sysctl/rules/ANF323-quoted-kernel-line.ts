import { defineRule } from '../../rules/rule';
import { QUOTED_KERNEL_LINE } from '../lines';
import { hasProblem, reportProblems } from './common';

export const quotedKernelLine = defineRule({
  code: 'ANF323',
  name: 'quoted-kernel-line',
  domain: 'sysctl',
  defaultSeverity: 'error',
  fix: 'unsafe',
  doc: {
    title: 'A sysctl or modprobe line wrapped in typographic quotes',
    what: 'A line of a sysctl file, tuned profile or `modprobe.d` file that starts with a curly or angle quote (`“`, `‘`, `„`, `«`, ...), usually with its closing quote at the end: `“options nfs max_session_slots=180”`. Word processors and web pages put them there, and copying takes them along.',
    why: 'Neither tool knows about quotes. sysctl takes `“net.ipv4.tcp_sack` as the key, finds no such file under `/proc/sys` and reports an error at every boot; modprobe reads `“options` as an unknown command and skips the line. Either way the setting never applies, and nothing but a log line says so.',
    instead: 'Remove the quotes. The fix removes them; review it, since the setting then starts to apply.',
    examples: [
      {
        flagged: '“options nfs max_session_slots=180”',
        better: 'options nfs max_session_slots=180',
        language: 'ini',
      },
    ],
    sources: ['KSYSCTL', 'CS'],
  },
  appliesTo: hasProblem(QUOTED_KERNEL_LINE),
  check(context) {
    reportProblems(QUOTED_KERNEL_LINE, context);
  },
});
