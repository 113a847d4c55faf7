import { type Fix, type SpanEdit, unsafeFix } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import { findKey, nearMiss } from '../catalog';
import type { KernelSetting } from '../model';
import { isTypographicQuote } from '../lines';
import { slashForm } from '../piece';
import { hasSettings } from './common';

export const misspelledSysctlKey = defineRule({
  code: 'ANF305',
  name: 'misspelled-sysctl-key',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: 'A kernel key that is one or two letters from a key anf-lint knows',
    what: "A key that is not in anf-lint's catalog of NFS and TCP keys but is one or two edits away from one: `sunrpc.tpc_max_slot_table_entries`, `net.ipv4.tcp_rmen`, `options sunrcp ...`. Keys far from every catalog key are not reported: Linux has thousands of keys and anf-lint judges only the ones that matter for ANF.",
    why: 'A misspelled key sets nothing: sysctl prints "unknown key" at boot (or nothing at all with a `-` prefix), and the client keeps the default the line was meant to change. The Microsoft Learn module on ANF performance for EDA and HPC, a published guide, itself writes `sunrpc.tpc_max_slot_table_entries`.',
    instead:
      'Use the key the message suggests. The fix renames the key in place; review it, since the setting then starts to apply.',
    examples: [
      {
        flagged: 'sunrpc.tpc_max_slot_table_entries = 128',
        better: 'sunrpc.tcp_max_slot_table_entries = 128',
        language: 'ini',
        file: '/etc/sysctl.d/90-nfs.conf',
      },
    ],
    sources: ['SEED_MOUNT', 'KDOC'],
  },
  appliesTo: hasSettings,
  checkSetting(setting, context) {
    // A key in typographic quotes is ANF323's: the fix there removes the quotes, not one character.
    if (setting.templated || findKey(setting.key) || isTypographicQuote(setting.rawKey.replace(/^-\s*/, '')[0])) return;
    const miss = nearMiss(setting.key);
    if (!miss) return;
    const edits = renameKeyEdits(setting, miss.suggestion, context.file.source.text);
    const fixes: Fix[] = edits && edits.length > 0 ? [unsafeFix(`Change to ${miss.suggestion}`, edits)] : [];
    const moduleDiffers =
      setting.moduleSpan !== undefined && miss.suggestion.split('.')[0] !== setting.key.split('.')[0];
    const span = moduleDiffers ? { start: setting.moduleSpan!.start, end: setting.keySpan.end } : setting.keySpan;
    context.report({
      span,
      message: `\`${setting.key}\` is not a kernel key anf-lint knows; did you mean \`${miss.suggestion}\`? As written, the line sets nothing.`,
      fixes,
    });
  },
});

/** The minimal edit that renames a setting's key to `suggestion`, in the style it was written. */
export function renameKeyEdits(setting: KernelSetting, suggestion: string, sourceText: string): SpanEdit[] | undefined {
  if (setting.origin === 'modprobe' || (setting.moduleSpan && setting.origin === 'proc-echo')) {
    const dot = suggestion.indexOf('.');
    const module = suggestion.slice(0, dot);
    const param = suggestion.slice(dot + 1);
    const [writtenModule = '', writtenParam = ''] = [
      setting.key.slice(0, setting.key.indexOf('.')),
      setting.key.slice(setting.key.indexOf('.') + 1),
    ];
    const edits: SpanEdit[] = [];
    if (module !== writtenModule) {
      if (!setting.moduleSpan) return undefined;
      edits.push({ span: setting.moduleSpan, newText: module });
    }
    if (param !== writtenParam) edits.push({ span: setting.keySpan, newText: param });
    return edits;
  }
  const written = sourceText.slice(setting.keySpan.start, setting.keySpan.end);
  const prefix = /^-\s*/.exec(written)?.[0] ?? '';
  const bare = written.slice(prefix.length);
  if (bare.includes('"') || bare.includes("'") || bare.includes('\\')) return undefined;
  const firstSlash = bare.indexOf('/');
  const firstDot = bare.indexOf('.');
  const slashes = setting.origin === 'proc-echo' || (firstSlash >= 0 && (firstDot < 0 || firstSlash < firstDot));
  const newText = slashes ? slashForm(suggestion) : suggestion;
  return [{ span: { start: setting.keySpan.start + prefix.length, end: setting.keySpan.end }, newText }];
}
