import { NFS_TRANSFER_SIZE } from '../../facts';
import { effectiveOptions } from '../../mounts/catalog';
import { defineRule } from '../../rules/rule';
import type { Span } from '../../text/sourceText';
import type { MountstatsDevice } from '../parse';
import { declaredMount } from './common';
import { EXAMPLE_LOAD, exampleCapture, exampleOpts } from './examples';
import { PERF_HOST_CONTEXT } from '../../perftest/rules/examples';

export const optionsInForceDiffer = defineRule({
  code: 'ANF507',
  name: 'options-in-force-differ',
  domain: 'perftest',
  defaultSeverity: 'warning',
  fixes: [],
  doc: {
    title: 'A mount runs with options other than the repository declares',
    what: "For each NFS mount of a mountstats capture (a `mountstats` file in a host's folder, or the live host `anf-lint host` reads) whose mount point the host's fstab, scripts or units declare: the NFS version, `rsize`, `wsize`, `nconnect` or `actimeo` in force differ from the declared ones. `rsize`/`wsize` are compared after the kernel's 1 MiB clamp and its rounding down to a page multiple. When `nconnect` is not in force and an earlier mount of the capture to the same server runs without it (or with another value), the message says so: the first mount to a server decides the connections of the later ones.",
    why: 'What the repository declares is not always what runs: the kernel shares one client per server, so a mount made earlier without `nconnect` takes it away from later ones; the server and client negotiate `rsize`/`wsize` down; a mount made by hand or by an old unit keeps its options until it is remounted. Sizing and tuning read from the repository then describe a machine that does not exist.',
    instead:
      'Remount with the declared options (all mounts to a server unmounted first, so the first one made carries `nconnect`), or declare what runs. Keep the capture current: `cat /proc/self/mountstats` after each change.',
    examples: [
      {
        file: 'mountstats',
        flagged: exampleCapture({ opts: exampleOpts(), ...EXAMPLE_LOAD }),
        better: exampleCapture({ opts: exampleOpts('nconnect=8'), ...EXAMPLE_LOAD }),
        context: [PERF_HOST_CONTEXT[0]],
      },
    ],
    sources: ['NFS5', 'MO', 'KSRC'],
  },
  appliesTo: (file) => file.mountstats !== undefined && !file.mountstats.unreadable,
  check(context) {
    const capture = context.file.mountstats!;
    for (const device of capture.nfs) {
      const mount = declaredMount(context, device);
      if (!mount) continue;
      const effective = effectiveOptions(mount);
      const related = [{ uri: mount.uri, span: mount.span, message: `The declared mount of ${device.mountPoint}` }];
      const at = (name: string): Span => device.options.get(name)?.span ?? device.optionsSpan ?? device.span;
      const report = (name: string, message: string) =>
        context.report({ span: at(name), message: `${device.mountPoint}: ${message}`, related });

      const declaredVersion = effective.version?.pinned ? effective.version.text : undefined;
      const inForce = versionOf(device);
      if (
        declaredVersion &&
        inForce &&
        declaredVersion !== inForce &&
        !(declaredVersion === '4' && inForce.startsWith('4'))
      )
        report('vers', `runs NFS ${inForce}, the repository declares ${declaredVersion}.`);

      for (const name of ['rsize', 'wsize'] as const) {
        const declared = effective.integer(name);
        const running = Number(device.options.get(name)?.value);
        if (declared === undefined || !Number.isFinite(running)) continue;
        const expected = Math.min(declared, NFS_TRANSFER_SIZE.maxBytes.value);
        // The kernel rounds a size down to a page multiple (4 KiB on x86), and makes one below 1024 4096 (nfs(5)).
        const page = NFS_TRANSFER_SIZE.minBytes.value;
        const rounded = expected < NFS_TRANSFER_SIZE.multipleOfBytes.value ? page : Math.floor(expected / page) * page;
        if (running !== expected && running !== rounded)
          report(
            name,
            `runs with ${name}=${running}, the repository asks for ${name}=${declared}${declared > expected ? ` (${expected} after the kernel's clamp)` : ''}: the client and server negotiated it down, or the mount was made with other options.`,
          );
      }

      const declaredConnections = effective.integer('nconnect') ?? 1;
      const runningConnections = Number(device.options.get('nconnect')?.value ?? '1');
      if (declaredConnections !== runningConnections) {
        const earlier = capture.nfs
          .slice(0, capture.nfs.indexOf(device))
          .find(
            (d) => d.server === device.server && Number(d.options.get('nconnect')?.value ?? '1') === runningConnections,
          );
        report(
          'nconnect',
          `runs with ${runningConnections === 1 ? 'one connection (no nconnect)' : `nconnect=${runningConnections}`}, the repository declares ${declaredConnections === 1 ? 'none' : `nconnect=${declaredConnections}`}${earlier ? `: ${earlier.mountPoint}, mounted earlier from the same server ${earlier.server} with ${runningConnections === 1 ? 'no nconnect' : `nconnect=${runningConnections}`}, decided the connections of both` : ''}.`,
        );
      }

      const actimeo = effective.integer('actimeo');
      if (actimeo !== undefined) {
        const keys = ['acregmin', 'acregmax', 'acdirmin', 'acdirmax'];
        const differing = keys.filter((k) => {
          const v = device.options.get(k)?.value;
          return v !== undefined && Number(v) !== actimeo;
        });
        if (differing.length > 0)
          report(
            differing[0]!,
            `runs with ${differing.map((k) => `${k}=${device.options.get(k)!.value}`).join(',')}, the repository declares actimeo=${actimeo} (all four at ${actimeo}).`,
          );
      }
    }
  },
});

/** The in-force version as the kernel prints it: `3`, `4.1`. */
const versionOf = (device: MountstatsDevice) => device.options.get('vers')?.value;
