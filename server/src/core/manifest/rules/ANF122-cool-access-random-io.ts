import { COOL_ACCESS, WORKLOADS } from '../../facts';
import { workloadOrigin } from '../../iac/estate';
import { defineRule } from '../../rules/rule';
import { fixes, fixOf, isManifest, Named, replaceValue, manifestExample } from './helpers';

export const coolAccessRandomIo = defineRule({
  code: 'ANF122',
  name: 'cool-access-random-io',
  domain: 'manifest',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: 'Cool access on a random-I/O or latency-sensitive workload',
    what: 'Cool access enabled on a volume whose workload is random or latency-sensitive: databases, SAP HANA data and log, Oracle, VDI, EDA scratch.',
    why: `In the cool-access performance tests (the Microsoft cool-access performance tests), reading from the cool tier cut throughput by about ${COOL_ACCESS.randomReadDropPercent.value}% for 100% random I/O (${COOL_ACCESS.sequentialReadDropPercent.value}% for sequential), and latency rose above ${COOL_ACCESS.mixedLatencySpikeMs.value} ms from a 60/40 sequential/random mix while the hot tier stayed under 2 ms. "If your workload contains any percentage of random I/O, performance expectations when accessing data on the cool tier should be adjusted accordingly."`,
    instead:
      'Keep latency-sensitive data on volumes without cool access; put cold, sequentially read data (archives, old projects, backups) on a separate cool-access volume. If you keep cool access, use a long coolness period so that working data stays hot. The fix turns cool access off for the volume.',
    examples: [
      manifestExample(
        '- name: hana-pool\n  serviceLevel: Standard\n  size: 4 TiB\n  coolAccess: true\n  volumes:\n    - name: hana-data\n      quota: 4 TiB\n      workload: sap-hana-data\n      protocols: [NFSv4.1]\n      coolAccess: true',
        '- name: hana-pool\n  serviceLevel: Standard\n  size: 4 TiB\n  coolAccess: true\n  volumes:\n    - name: hana-data\n      quota: 4 TiB\n      workload: sap-hana-data\n      protocols: [NFSv4.1]\n      coolAccess: false',
      ),
    ],
    sources: ['SEED_COOL', 'CA'],
  },
  appliesTo: isManifest,
  checkVolume({ volume }, context) {
    const workload = volume.workload?.value;
    const cool = volume.coolAccess;
    if (!workload || !cool?.enabled || !WORKLOADS[workload].latencySensitive) return;
    const target = cool.enabledValue ?? cool.node;
    context.report({
      span: target.span,
      message: `${Named('volume', volume.name)} holds ${WORKLOADS[workload].title}${workloadOrigin(context.file.iac, String(volume.path[0]))}, random or latency-sensitive I/O; data read back from the cool tier loses about ${COOL_ACCESS.randomReadDropPercent.value}% of its throughput on random reads and rises above ${COOL_ACCESS.mixedLatencySpikeMs.value} ms latency (the Microsoft cool-access performance tests).`,
      ...fixes(
        cool.enabledValue
          ? fixOf.unsafe('Turn cool access off for this volume', [replaceValue(cool.enabledValue, 'false')])
          : undefined,
      ),
    });
  },
});
