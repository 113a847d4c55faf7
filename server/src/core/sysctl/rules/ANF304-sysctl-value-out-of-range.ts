import { defineRule } from '../../rules/rule';
import { formatNumber } from '../../units/units';
import { findKey } from '../catalog';
import { replaceValueFix } from './scope';
import { shapeProblem } from './ANF303-invalid-sysctl-value';
import { hasSettings } from './common';

export const sysctlValueOutOfRange = defineRule({
  code: 'ANF304',
  name: 'sysctl-value-out-of-range',
  domain: 'sysctl',
  defaultSeverity: 'error',
  fixes: ['unsafe'],
  doc: {
    title: "A kernel setting's value is outside the range the kernel accepts",
    what: 'An integer below the minimum or above the maximum of its key: `sunrpc.tcp_max_slot_table_entries = 0` (2–65,536), `vm.dirty_ratio = 120` (0–100), `vm.swappiness = 300` (0–200), a port above 65,535.',
    why: 'The kernel refuses the write with "Invalid argument", so the setting never takes effect and the default stays in force. A zero slot table meant as "unlimited" leaves the default of 65,536 requests per connection.',
    instead:
      'Use a value inside the range the message gives. The fix writes the nearest bound; check that it is what you meant.',
    examples: [
      {
        flagged: 'options sunrpc tcp_max_slot_table_entries=0',
        better: 'options sunrpc tcp_max_slot_table_entries=128',
        language: 'ini',
        file: '/etc/modprobe.d/sunrpc.conf',
      },
    ],
    sources: ['KDOC', 'KSRC'],
  },
  appliesTo: hasSettings,
  checkSetting(setting, context) {
    if (setting.templated) return;
    const entry = findKey(setting.key);
    if (!entry || shapeProblem(entry, setting)) return;
    const shape = entry.shape;
    if (shape.kind !== 'integer' && shape.kind !== 'triple' && shape.kind !== 'pair') return;
    const min = shape.min ?? Number.MIN_SAFE_INTEGER;
    const max = shape.max ?? Number.MAX_SAFE_INTEGER;
    const fields = setting.value.trim().split(/\s+/).map(Number);
    fields.forEach((value, index) => {
      if (value >= min && value <= max) return;
      const bound = value < min ? min : max;
      const unit = entry.unit ? ` ${entry.unit.split(' ')[0]}` : '';
      const limitText =
        value < min
          ? `below the minimum, ${formatNumber(min)}${unit}`
          : `above the maximum, ${formatNumber(max)}${unit}`;
      const what = fields.length > 1 ? `field ${index + 1} of \`${setting.key}\`` : `\`${setting.key}\``;
      context.report({
        span: setting.fields?.[index]?.span ?? setting.valueSpan,
        message: `${what} is ${formatNumber(value)}, ${limitText}: the kernel rejects the write and keeps ${entry.defaultValue !== undefined ? `its default (${entry.defaultValue})` : 'the old value'}.`,
        fixes: [
          replaceValueFix.unsafe(`Write ${bound}`, setting, String(bound), fields.length > 1 ? index : undefined),
        ],
      });
    });
  },
});
