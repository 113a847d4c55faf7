/**
 * The captures a mountstats rule's page example is linted as (test/unit/rule-examples.test.ts): an
 * NFSv3 mount as `/proc/self/mountstats` prints it (statvers 1.1, every per-op line of NFSv3), with
 * the numbers each example needs.
 */
export interface ExampleMount {
  /** The `opts:` line as the kernel prints it. */
  readonly opts: string;
  readonly age: number;
  /** The `bytes:` line's eight counters. */
  readonly bytes: string;
  /** The READ and WRITE per-op lines' nine counters. */
  readonly read: string;
  readonly write: string;
}

/** The captures' `age:`: mounted a day before. */
export const EXAMPLE_AGE = 86400; // not a fact: the seconds of a day

const IDLE_OP = '0 0 0 0 0 0 0 0 0';

export function exampleCapture(mount: ExampleMount): string {
  const ops: [string, string][] = [
    ['NULL', '1 1 0 44 24 0 0 0 0'],
    ['GETATTR', '4210 4210 0 505200 471520 3 1690 1741 0'],
    ['SETATTR', IDLE_OP],
    ['LOOKUP', '812 812 0 101500 186760 1 330 342 0'],
    ['ACCESS', '655 655 0 78600 78600 0 260 268 0'],
    ['READLINK', IDLE_OP],
    ['READ', mount.read],
    ['WRITE', mount.write],
    ['CREATE', IDLE_OP],
    ['MKDIR', IDLE_OP],
    ['SYMLINK', IDLE_OP],
    ['MKNOD', IDLE_OP],
    ['REMOVE', IDLE_OP],
    ['RMDIR', IDLE_OP],
    ['RENAME', IDLE_OP],
    ['LINK', IDLE_OP],
    ['READDIR', IDLE_OP],
    ['READDIRPLUS', '12 12 0 1632 48640 0 9 9 0'],
    ['FSSTAT', '3 3 0 360 504 0 1 1 0'],
    ['FSINFO', '2 2 0 240 328 0 1 1 0'],
    ['PATHCONF', '1 1 0 120 140 0 0 0 0'],
    ['COMMIT', IDLE_OP],
  ];
  return [
    'device /dev/sda1 mounted on / with fstype xfs',
    'device 10.20.1.4:/perf-data mounted on /mnt/anf/perf with fstype nfs statvers=1.1',
    `\topts:\t${mount.opts}`,
    `\tage:\t${mount.age}`,
    '\tcaps:\tcaps=0x3fef,wtmult=4096,dtsize=65536,bsize=0,namlen=255',
    '\tsec:\tflavor=1,pseudoflavor=1',
    '\tevents:\t5694 91820 12 0 411 37 98011 0 0 0 0 0 0 18 0 0 0 0 0 0 0 0 0 0 0 0 0',
    `\tbytes:\t${mount.bytes}`,
    '\tRPC iostats version: 1.1  p/v: 100003/3 (nfs)',
    '\txprt:\ttcp 871 1 1 0 2 2205931 2205931 0 9311452 0 65 0 2205931',
    '\tper-op statistics',
    ...ops.map(([name, counters]) => `\t${name.padStart(12)}: ${counters}`),
  ].join('\n');
}

/** `rw,vers=3,...` as the kernel prints an fstab line's options, with `extra` (`nconnect=8`) where it prints them. */
export const exampleOpts = (extra = '') =>
  `rw,vers=3,rsize=262144,wsize=262144,namlen=255,acregmin=3,acregmax=60,acdirmin=30,acdirmax=60,hard,proto=tcp,${extra ? `${extra},` : ''}timeo=600,retrans=2,sec=sys,mountaddr=10.20.1.4,mountvers=3,mountport=635,mountproto=tcp,local_lock=none`;

/** A day's light use: 2 GiB read in 32 KiB READs at about 1 ms, 1 GiB written. */
export const EXAMPLE_LOAD = {
  age: EXAMPLE_AGE,
  bytes: '2147483648 1073741824 0 0 2147483648 1073741824 524288 262144',
  read: '65536 65536 0 8388608 2155085824 66 62259 68812 0',
  write: '32768 32768 0 1077936128 4587520 33 36044 40632 0',
} as const;
