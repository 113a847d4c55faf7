import { byApplicability, type Fix, type SpanEdit } from '../diagnostics';
import type { MountEntry, MountOption } from './model';

/**
 * Minimal edits on a mount's option list. Each touches only the option (or the one comma next to
 * it), so the rest of the line stays byte-for-byte.
 */

/** Replaces an option's value (`nconnect=16` → `nconnect=8`). */
export function replaceValue(option: MountOption, value: string): SpanEdit {
  return option.valueSpan
    ? { span: option.valueSpan, newText: value }
    : { span: { start: option.nameSpan.end, end: option.nameSpan.end }, newText: `=${value}` };
}

/** Replaces a whole option (`soft` → `hard`). */
export function replaceOption(option: MountOption, text: string): SpanEdit {
  return { span: option.span, newText: text };
}

/**
 * Removes an option with the comma after it (or, for the last one, the comma before it). The only
 * option of a list becomes `defaults`, so that fstab keeps its fourth field.
 */
export function removeOption(text: string, mount: MountEntry, option: MountOption): SpanEdit {
  const { start, end } = option.span;
  let after = end;
  while (text[after] === ' ') after++;
  if (text[after] === ',') {
    let next = after + 1;
    while (text[next] === ' ') next++;
    return { span: { start, end: next }, newText: '' };
  }
  let before = start - 1;
  while (before >= 0 && text[before] === ' ') before--;
  if (before >= 0 && text[before] === ',' && mount.options.some((o) => o !== option && o.span.end <= before + 1)) {
    return { span: { start: before, end }, newText: '' };
  }
  return { span: option.span, newText: 'defaults' };
}

/** Inserts an option after the mount's last option, or writes an option list where there is none. */
export function insertOption(mount: MountEntry, text: string): SpanEdit | undefined {
  const last = mount.options[mount.options.length - 1];
  if (last) return { span: { start: last.span.end, end: last.span.end }, newText: `,${text}` };
  if (mount.optionsSpan && mount.optionsInsertion) {
    const at = mount.optionsSpan.start;
    return {
      span: { start: at, end: at },
      newText: `${mount.optionsInsertion.before}${text}${mount.optionsInsertion.after}`,
    };
  }
  if (mount.optionsSpan && mount.optionsSpan.start === mount.optionsSpan.end) return undefined;
  return undefined;
}

/**
 * A fix from edits on a mount, as a list of one (or none when any edit is not possible):
 * `mountFix.safe(title, ...edits)` or `mountFix.unsafe(title, ...edits)`; `mountFix[applicability]`
 * where the rule decides it.
 */
export const mountFix = byApplicability((applicability, title: string, ...edits: (SpanEdit | undefined)[]): Fix[] => {
  const present = edits.filter((e): e is SpanEdit => e !== undefined);
  return present.length === edits.length && present.length > 0 ? [{ title, edits: present, applicability }] : [];
});
