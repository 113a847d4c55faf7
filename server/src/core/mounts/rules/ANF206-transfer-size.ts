import { NFS_TRANSFER_SIZE } from '../../facts';
import { formatNumber, GiB } from '../../units/units';
import { defineRule } from '../../rules/rule';
import { integerOf } from '../catalog';
import { fix, replaceValue } from '../fixes';
import { hasNfsMounts, nfsMounts } from './common';

const RECOMMENDED = NFS_TRANSFER_SIZE.recommendedBytes.value;
const MAX = NFS_TRANSFER_SIZE.maxBytes.value;
const SMALL = NFS_TRANSFER_SIZE.smallWarningBytes.value;
const MIN = NFS_TRANSFER_SIZE.minBytes.value;
const callsPerGiB = (bytes: number) => formatNumber(Math.ceil(GiB / Math.max(MIN, bytes - (bytes % NFS_TRANSFER_SIZE.multipleOfBytes.value))), 0);

export const transferSize = defineRule({
  code: 'ANF206',
  name: 'transfer-size',
  domain: 'mount',
  defaultSeverity: 'warning',
  fix: 'unsafe',
  doc: {
    title: '`rsize`/`wsize` outside ANF\'s recommendation',
    what: `An rsize or wsize above ${RECOMMENDED} (ANF's recommendation; info), above ${MAX} (1 MiB: the kernel clamps it; warning), or below ${SMALL} (64 KiB: many more round trips for sequential I/O; warning).`,
    why: `ANF supports transfers up to 1 MiB but recommends ${RECOMMENDED} for the best mix of throughput and latency. Values above 1 MiB are silently replaced by 1 MiB, and values below 1024 become ${MIN}. Small sizes multiply round trips: writing 1 GiB takes 16,384 WRITEs at 64 KiB and 4,096 at 256 KiB (Microsoft Learn module on ANF performance for EDA and HPC).`,
    instead: `Use rsize=${RECOMMENDED},wsize=${RECOMMENDED}. Oracle's own floor is 32 KiB; keep a smaller value only where an application vendor requires it.`,
    examples: [
      {
        flagged: '10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,rsize=4194304,wsize=4194304  0  0',
        better: `10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,rsize=${RECOMMENDED},wsize=${RECOMMENDED}  0  0`,
        language: 'fstab',
      },
    ],
    sources: ['MO', 'NFS5', 'SEED_MOUNT'],
  },
  appliesTo: hasNfsMounts,
  check(context) {
    for (const { effective } of nfsMounts(context)) {
      for (const name of ['rsize', 'wsize'] as const) {
        const value = integerOf(effective, name);
        const option = effective.byGroup.get(name);
        if (value === undefined || !option || value === 0) continue;
        let message: string | undefined;
        let severity: 'warning' | 'info' = 'warning';
        if (value > MAX) message = `${name}=${value} is above ${MAX} (1 MiB): the kernel clamps it to 1 MiB. ANF recommends ${RECOMMENDED}.`;
        else if (value > RECOMMENDED) {
          message = `${name}=${value} is above ANF's recommended ${RECOMMENDED} (256 KiB), which gives the best throughput and latency on ANF.`;
          severity = 'info';
        } else if (value < SMALL) {
          message = `${name}=${value} is small: sequential I/O needs many more round trips (1 GiB takes ${callsPerGiB(value)} calls at this size, ${callsPerGiB(RECOMMENDED)} at 256 KiB)${value < 1024 ? `, and values below 1024 become ${MIN}` : ''}. ANF recommends ${RECOMMENDED}.`;
        }
        if (!message) continue;
        context.report({ span: option.span, message, severity, fixes: fix(`Set ${name}=${RECOMMENDED}`, false, replaceValue(option, String(RECOMMENDED))) });
      }
    }
  },
});
