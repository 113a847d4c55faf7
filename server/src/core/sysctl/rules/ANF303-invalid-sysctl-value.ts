import { type Fix, unsafeFix } from '../../diagnostics';
import { KERNEL_BOOLEAN } from '../../facts';
import { defineRule } from '../../rules/rule';
import { parseSize } from '../../units/units';
import { findKey, type CatalogKey } from '../catalog';
import type { KernelSetting } from '../model';
import { hasSettings } from './common';

export const invalidSysctlValue = defineRule({
  code: 'ANF303',
  name: 'invalid-sysctl-value',
  domain: 'sysctl',
  defaultSeverity: 'error',
  fixes: ['unsafe'],
  doc: {
    title: "A kernel setting's value has the wrong shape",
    what: 'A value that does not fit its key: text or a unit where the kernel wants an integer (`16M`), a sysctl boolean other than 0 or 1 (the kernel reads only integers there, so `yes` or `true` fail), a module boolean the kernel cannot read (it reads the first character: Y, N, 1, 0, on, off everywhere; `true`/`false` and `enabled`/`disabled` only on newer kernels, flagged as a warning), two fields where `tcp_rmem` and `tcp_wmem` want three, or three fields that are not in order min ≤ default ≤ max.',
    why: 'The kernel rejects a value it cannot parse, so the write fails at boot and the old value stays. Fields out of order are accepted but mean something else than intended: a maximum below the default caps every connection at the maximum.',
    instead:
      'Write plain integers, in the order the key expects. For a size written with a unit, the fix writes the number of bytes.',
    examples: [
      {
        flagged: 'net.core.rmem_max = 16M\nnet.ipv4.tcp_rmem = 4096 16777216',
        better: 'net.core.rmem_max = 16777216\nnet.ipv4.tcp_rmem = 4096 131072 16777216',
        language: 'ini',
        file: '/etc/sysctl.d/90-nfs.conf',
      },
    ],
    sources: ['KDOC', 'KSYSCTL', 'KSTRTOBOOL'],
  },
  appliesTo: hasSettings,
  checkSetting(setting, context) {
    if (setting.templated) return;
    const entry = findKey(setting.key);
    if (!entry) return;
    const problem = shapeProblem(entry, setting);
    if (!problem) return;
    context.report({
      span: setting.valueSpan,
      message: problem.message,
      ...(problem.fixes ? { fixes: problem.fixes } : {}),
      ...(problem.severity ? { severity: problem.severity } : {}),
    });
  },
});

const INTEGER = /^-?\d+$/;

const WITH_UNIT = /^\d+(?:\.\d+)?\s*[KMGT]i?B?$/i;

/**
 * How kstrtobool reads a bool module parameter: by its first character (two for on/off), so `yes`
 * and `nope` are Y and N. `newer` names the kernel version from which t/f or e/d are read.
 */
function moduleBoolean(
  value: string,
):
  | { readonly accepted: 'always' }
  | { readonly accepted: 'newer'; readonly since: string }
  | { readonly accepted: 'never' } {
  const first = value.charAt(0);
  if (KERNEL_BOOLEAN.moduleTrueFirst.value.includes(first) || KERNEL_BOOLEAN.moduleFalseFirst.value.includes(first))
    return { accepted: 'always' };
  if (/^o[nf]/i.test(value)) return { accepted: 'always' };
  if (/^[tf]/i.test(value)) return { accepted: 'newer', since: KERNEL_BOOLEAN.moduleTrueFalseWordsSince.value };
  if (/^[ed]/i.test(value)) return { accepted: 'newer', since: KERNEL_BOOLEAN.moduleEnabledDisabledSince.value };
  return { accepted: 'never' };
}

function fieldCount(shape: CatalogKey['shape']): number | undefined {
  return shape.kind === 'triple' ? 3 : shape.kind === 'pair' ? 2 : undefined;
}

/** What is wrong with the value's shape, or undefined when it fits the key. */
export function shapeProblem(
  entry: CatalogKey,
  setting: KernelSetting,
): { message: string; fixes?: Fix[]; severity?: 'warning' } | undefined {
  const value = setting.value.trim();
  const fields = value.split(/\s+/);
  const shape = entry.shape;
  const key = `\`${setting.key}\``;
  switch (shape.kind) {
    case 'integer': {
      if (INTEGER.test(value)) return undefined;
      if (WITH_UNIT.test(value)) {
        const size = parseSize(value.replace(/\s+/g, ''));
        if (size.ok && Number.isInteger(size.value.bytes)) {
          const bytes = String(size.value.bytes);
          return {
            message: `${key} takes a plain number: the kernel does not read units, so \`${value}\` is rejected. Write ${bytes}.`,
            fixes: [unsafeFix(`Write ${bytes}`, [{ span: setting.valueSpan, newText: bytes }])],
          };
        }
      }
      return {
        message: `${key} takes one integer${entry.unit ? ` (${entry.unit})` : ''}; \`${value}\` is not one, so the kernel rejects the write.`,
      };
    }
    case 'boolean':
      if (value === '0' || value === '1') return undefined;
      // proc_get_long refuses anything that does not start with a digit: words never reach the setting.
      return INTEGER.test(value)
        ? { message: `${key} takes 0 or 1; \`${value}\` is not one of them.` }
        : {
            message: `${key} takes 0 or 1; \`${value}\` is not a number, so the kernel rejects the write (words such as yes or true are not read here).`,
          };
    case 'choice':
      return shape.values.map(String).includes(value)
        ? undefined
        : { message: `${key} takes ${shape.values.join(', ')}; \`${value}\` is not one of them.` };
    case 'yes-no': {
      const read = moduleBoolean(value);
      if (read.accepted === 'always') return undefined;
      if (read.accepted === 'newer') {
        return {
          severity: 'warning',
          message: `${key} is a module boolean: \`${value}\` is read only by kernel ${read.since} and later; older kernels refuse it and the module does not load. Write Y or N.`,
        };
      }
      return {
        message: `${key} is a module boolean: write Y or N, not \`${value}\`; the module refuses the parameter and does not load.`,
      };
    }
    case 'name':
      return /^[A-Za-z0-9_-]+$/.test(value)
        ? undefined
        : { message: `${key} takes one name, such as \`${entry.defaultValue ?? 'cubic'}\`; \`${value}\` is not one.` };
    case 'trigger':
      return undefined;
    case 'triple':
    case 'pair': {
      const count = fieldCount(shape)!;
      if (fields.length !== count || !fields.every((f) => INTEGER.test(f))) {
        const what = count === 3 ? 'three integers (min default max)' : 'two integers (low high)';
        return {
          message: `${key} takes ${what}; \`${value}\` has ${fields.length} field${fields.length === 1 ? '' : 's'}${fields.every((f) => INTEGER.test(f)) ? '' : ' that are not all integers'}.${entry.defaultValue ? ` The kernel default is \`${entry.defaultValue}\`.` : ''}`,
        };
      }
      const numbers = fields.map(Number);
      for (let i = 1; i < numbers.length; i++) {
        if (numbers[i]! < numbers[i - 1]!) {
          const names =
            count === 3
              ? entry.key === 'net.ipv4.tcp_mem'
                ? ['low', 'pressure', 'high']
                : ['min', 'default', 'max']
              : ['low', 'high'];
          return {
            severity: 'warning',
            message: `${key} must satisfy ${names.join(' ≤ ')}, but ${names[i - 1]} ${numbers[i - 1]} > ${names[i]} ${numbers[i]}: the fields are in the wrong order or one is mistyped.`,
          };
        }
      }
      return undefined;
    }
  }
}
