import { lazyFinding } from '../../diagnostics';
import { closest, distance } from 'fastest-levenshtein';
import { NCONNECT } from '../../facts';
import { defineRule } from '../../rules/rule';
import type { OptionSpec } from '../catalog';
import { mountFix, replaceValue } from '../fixes';
import type { MountOption } from '../model';
import { hasNfsMounts } from './common';

export const invalidOptionValue = defineRule({
  code: 'ANF203',
  name: 'invalid-option-value',
  domain: 'mount',
  defaultSeverity: 'error',
  fixes: ['unsafe'],
  doc: {
    title: 'Mount option with a value the kernel refuses',
    what: 'A known option with a value of the wrong type or out of range: `nconnect=32` (1–16), `vers=5`, `proto=sctp`, `timeo=fast`, `hard=1`, `rsize` without a number.',
    why: 'mount.nfs and the kernel check option values and refuse the whole mount when one is out of range, so the volume is not mounted.',
    instead:
      "Use a value in the option's range. For an out-of-range number the fix offers the nearest accepted value (for `nconnect`, 8: the value ANF testing found best); for a one-letter slip in a named value (`sec=syss`) the message names the value meant and the fix writes it (`sec=sys`).",
    examples: [
      {
        flagged: '10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,nconnect=32  0  0',
        better: '10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,nconnect=8  0  0',
        language: 'fstab',
      },
    ],
    sources: ['NFS5', 'MO'],
  },
  appliesTo: hasNfsMounts,
  checkMount({ mount, effective }, context) {
    const options = mount.options;
    // The problems of a list are the same for every mount that writes it: worked out once.
    const problems = effective.perList(valueProblems);
    if (!problems) return;
    for (let i = 0; i < options.length; i++) {
      const problem = problems[i];
      if (!problem) continue;
      const option = options[i]!;
      context.report(
        lazyFinding({ span: option.valueSpan ?? option.span }, () => ({
          message: problem.message,
          ...(problem.replacement
            ? {
                fixes: mountFix.unsafe(
                  `Set \`${option.name}=${problem.replacement}\``,
                  replaceValue(option, problem.replacement),
                ),
              }
            : {}),
        })),
      );
    }
  },
});

/** Edits apart for a value to count as a typo of a known one. */
const TYPO_DISTANCE = 1;

/** What is wrong with an option's value, and a value that would be accepted, if any. */
export function valueProblem(
  option: MountOption,
  spec: OptionSpec,
): { message: string; replacement?: string } | undefined {
  const value = option.value;
  if (spec.kind === 'flag') {
    return value === undefined || spec.optionalValue
      ? undefined
      : { message: `\`${spec.name}\` is a flag and takes no value; mount.nfs rejects \`${option.name}=${value}\`.` };
  }
  if (value === undefined || value === '') {
    return { message: `\`${option.name}\` needs a value (\`${option.name}=…\`); mount.nfs rejects it without one.` };
  }
  if (spec.kind === 'integer') {
    if (!/^\d+$/.test(value))
      return { message: `\`${option.name}=${value}\` is not a whole number; mount.nfs rejects it.` };
    const number = Number(value);
    if (spec.max !== undefined && number > spec.max) {
      const replacement = spec.name === 'nconnect' ? String(NCONNECT.bestTested.value) : String(spec.max);
      return {
        message: `\`${option.name}=${value}\` is out of range: the kernel accepts ${spec.min ?? 0}–${spec.max}${spec.unit ? ` ${spec.unit}` : ''} and refuses the mount.`,
        replacement,
      };
    }
    if (spec.min !== undefined && number < spec.min) {
      return {
        message: `\`${option.name}=${value}\` is out of range: the kernel accepts ${spec.min}${spec.max !== undefined ? `–${spec.max}` : ' or more'} and refuses the mount.`,
        replacement: String(spec.min),
      };
    }
    return undefined;
  }
  if (spec.kind === 'enum' || spec.kind === 'version') {
    const values = spec.values ?? [];
    if (spec.name === 'sec' ? value.split(':').every((p) => values.includes(p)) : values.includes(value))
      return undefined;
    // A typo (`sec=syss`, `proto=tpc`): name the value it most likely meant, and offer it.
    const near =
      spec.kind !== 'enum' || value.length < 3 || value.includes(':') ? undefined : closest(value, [...values]);
    const typo = near !== undefined && distance(value, near) <= TYPO_DISTANCE ? near : undefined;
    return {
      message: `\`${option.name}=${value}\` is not a value mount.nfs accepts${typo ? ` (did you mean \`${option.name}=${typo}\`?)` : ''}: use one of ${values.join(', ')}. The mount fails.`,
      ...(typo ? { replacement: typo } : {}),
    };
  }
  return undefined;
}

/** The `valueProblem` of each option by index; undefined when the list has none (most lists). */
function valueProblems(
  options: readonly MountOption[],
  specs: readonly (OptionSpec | undefined)[],
): readonly (ReturnType<typeof valueProblem> | undefined)[] | undefined {
  let problems: (ReturnType<typeof valueProblem> | undefined)[] | undefined;
  for (let i = 0; i < options.length; i++) {
    const option = options[i]!;
    const spec = specs[i];
    if (option.templated || !spec) continue;
    const problem = valueProblem(option, spec);
    if (!problem) continue;
    problems ??= new Array(options.length);
    problems[i] = problem;
  }
  return problems;
}
