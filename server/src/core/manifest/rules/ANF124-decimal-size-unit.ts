import { unsafeFix } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import { asBinaryIntent, formatNumber, formatSize, type Size } from '../../units/units';
import type { Located } from '../model';
import { fixes, isManifest, pools, volumes, manifestExample } from './helpers';

export const decimalSizeUnit = defineRule({
  code: 'ANF124',
  name: 'decimal-size-unit',
  domain: 'manifest',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: 'Size in decimal units (TB, GB)',
    what: 'A pool size, quota, capacity or block size written in decimal units: `10 TB` is 10^13 bytes, 9.09 TiB. The message says the binary value it would have been.',
    why: 'ANF sizes, limits and bills in binary units (TiB, GiB), and its throughput rates are per TiB. Courses and spreadsheets often write TB and mean TiB; the 10% difference at TB scale decides whether quotas fit in a pool and whether a requirement is met.',
    instead:
      'Write binary units: `10 TiB`, `500 GiB`. If you really mean decimal (a data set measured in TB), convert it: 10 TB = 9.09 TiB. The fix inserts the `i`, which keeps the number and changes the value to what ANF would provision.',
    examples: [
      manifestExample(
        '- name: tools-pool\n  serviceLevel: Premium\n  size: 10 TiB\n  volumes:\n    - name: tools\n      quota: 10 TB',
        '- name: tools-pool\n  serviceLevel: Premium\n  size: 10 TiB\n  volumes:\n    - name: tools\n      quota: 10 TiB',
      ),
    ],
    sources: ['SL', 'SEED_COURSE'],
  },
  appliesTo: isManifest,
  checkEstate(manifest, context) {
    const sizes: { what: string; value: Located<Size> }[] = [];
    for (const { pool } of pools(manifest)) if (pool.size) sizes.push({ what: 'pool size', value: pool.size });
    for (const { volume } of volumes(manifest)) {
      if (volume.quota) sizes.push({ what: 'quota', value: volume.quota });
      if (volume.requirements?.capacity) sizes.push({ what: 'capacity', value: volume.requirements.capacity });
      if (volume.requirements?.blockSize) sizes.push({ what: 'block size', value: volume.requirements.blockSize });
    }
    for (const { what, value } of sizes) {
      const size = value.value;
      if (size.system !== 'decimal') continue;
      const binary = asBinaryIntent(size);
      const shortfall = ((binary.bytes - size.bytes) / binary.bytes) * PERCENT;
      const written = value.raw.replace(/^["']|["']$/g, '');
      // Insert the `i` after the prefix letter: `10 TB` -> `10 TiB`, keeping spacing and case.
      const edit = value.editSpan ? insertI(context.file.source.text, value.editSpan) : undefined;
      context.report({
        span: value.span,
        message: `The ${what} \`${written}\` is in decimal units: ${formatSize(size.bytes)}, ${formatNumber(shortfall, 1)}% less than ${formatNumber(size.amount)} ${binary.unit}. ANF sizes and bills in binary units; write \`${formatNumber(size.amount)} ${binary.unit}\` if that is what you mean.`,
        ...fixes(edit ? unsafeFix(`Use ${binary.unit}`, [edit]) : undefined),
      });
    }
  },
});

const PERCENT = 100;

function insertI(text: string, span: { start: number; end: number }) {
  const raw = text.slice(span.start, span.end);
  const match = /[KMGTP](?=B)/i.exec(raw);
  if (!match) return undefined;
  const at = span.start + match.index + 1;
  return { span: { start: at, end: at }, newText: 'i' };
}
