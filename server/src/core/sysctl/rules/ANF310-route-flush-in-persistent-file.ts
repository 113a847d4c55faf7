import { defineRule } from '../../rules/rule';
import { removeLineFixes } from './scope';
import { hasSettings } from './common';

export const routeFlushInPersistentFile = defineRule({
  code: 'ANF310',
  name: 'route-flush-in-persistent-file',
  domain: 'sysctl',
  defaultSeverity: 'info',
  fixes: ['safe'],
  doc: {
    title: '`net.ipv4.route.flush` in a file applied at boot',
    what: '`net.ipv4.route.flush` (or `net.ipv6.route.flush`) in `sysctl.conf`, a `sysctl.d` drop-in or a tuned profile.',
    why: 'The key is a trigger, not a setting: writing it flushes the routing cache once. At boot the cache is empty, so the line does nothing, and it makes the file look like it configures routing. The client block of the Microsoft Learn module on ANF performance for EDA and HPC carries it over from interactive tuning.',
    instead:
      'Delete it from the file; run `sysctl -w net.ipv4.route.flush=1` by hand when you need a flush. The fix deletes the line (or comments it out).',
    examples: [
      {
        flagged: 'net.ipv4.tcp_timestamps = 1\nnet.ipv4.route.flush = 1',
        better: 'net.ipv4.tcp_timestamps = 1\n# after a route change, run: sysctl -w net.ipv4.route.flush=1',
        language: 'ini',
        file: '/etc/sysctl.d/90-nfs.conf',
      },
    ],
    sources: ['KDOC', 'SEED_MOUNT'],
  },
  appliesTo: (file) => hasSettings(file) && file.settings.some((s) => ROUTE_FLUSH.test(s.key)),
  check(context) {
    for (const setting of context.file.settings) {
      if (!ROUTE_FLUSH.test(setting.key) || !setting.persistent || setting.origin === 'modprobe') continue;
      context.report({
        span: setting.span,
        message: `\`${setting.key}\` is a trigger, not a setting: it flushes the routing cache once, and at boot there is nothing to flush. Remove it from this file.`,
        tags: ['unnecessary'],
        fixes: removeLineFixes.safe(context.file, setting, 'a one-time trigger'),
      });
    }
  },
});

const ROUTE_FLUSH = /^net\.ipv[46]\.route\.flush$/;
