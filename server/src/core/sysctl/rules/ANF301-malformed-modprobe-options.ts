import { defineRule } from '../../rules/rule';
import { MALFORMED_MODPROBE_LINE } from '../lines';
import { reportProblems } from '../../rules/problems';
import { hasProblem } from './common';

export const malformedModprobeOptions = defineRule({
  code: 'ANF301',
  name: 'malformed-modprobe-options',
  domain: 'sysctl',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'An `options` line of modprobe.d that modprobe reads differently',
    what: 'An `options` line in `/etc/modprobe.d/*.conf` without a module or a parameter, with spaces around `=`, or with the module and the parameter joined by a dot (`options sunrpc.tcp_max_slot_table_entries=128`).',
    why: 'modprobe splits the line at spaces: `tcp_max_slot_table_entries = 128` becomes three words and the parameter is not set; `sunrpc.tcp_max_slot_table_entries=128` is taken as a module name. The slot-table limit SAP and ANF guidance asks for then never applies, and nothing reports it at boot.',
    instead: 'Write `options <module> <parameter>=<value>` with no spaces around `=`, one or more parameters per line.',
    examples: [
      {
        flagged: 'options sunrpc tcp_max_slot_table_entries = 128',
        better: 'options sunrpc tcp_max_slot_table_entries=128',
        language: 'ini',
        file: '/etc/modprobe.d/sunrpc.conf',
      },
    ],
    sources: ['CS', 'HANA'],
  },
  appliesTo: hasProblem(MALFORMED_MODPROBE_LINE),
  check: (context) => reportProblems(MALFORMED_MODPROBE_LINE, context),
});
