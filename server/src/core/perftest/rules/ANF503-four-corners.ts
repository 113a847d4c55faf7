import { pathOf } from '../../fileKind';
import { defineRule } from '../../rules/rule';
import { type Corner, cornerOf } from '../model';
import { hasJobs } from './common';

export const fourCorners = defineRule({
  code: 'ANF503',
  name: 'four-corners',
  domain: 'perftest',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: 'A job set that covers only some of the four corners',
    what: "The fio and vdbench files of one folder (a job set: one file with several jobs, or one file per test) whose pure jobs (100 % reads or 100 % writes, sequential or random) cover some of the four corners, sequential read, sequential write, random read and random write, but not all. Mixed jobs (`rw=randrw`, `rdpct=70`) cover no corner and do not count against the set; nothing is said when any job's pattern is unknown (an environment variable, a `for*` loop in vdbench) or when no job is pure. The note is on the first job of each file of the set.",
    why: "The performance-testing paper: \"there's often a benefit to evaluating the four corners of an environment\", 8 KiB random and 64 KiB sequential, reads and writes, unless the application's own profile is known. ANF's limits differ by corner (a regular volume was measured at about 431,000 8 KiB random reads but 117,000 random writes, and 4,500 MiB/s sequential reads but 1,733 MiB/s sequential writes), so a set without one corner leaves that limit unmeasured.",
    instead:
      "Add the missing corners (8 KiB random and 64 KiB sequential, reads and writes), or, when the application's profile is known and the set matches it, keep the set and suppress the note with the reason.",
    examples: [
      {
        file: 'perf/corners.fio',
        flagged:
          '[global]\ndirectory=/mnt/anf/perf\ndirect=1\nsize=64g\n\n[randread-8k]\nrw=randread\nbs=8k\nstonewall\n\n[seqread-64k]\nrw=read\nbs=64k\nstonewall',
        better:
          '[global]\ndirectory=/mnt/anf/perf\ndirect=1\nsize=64g\n\n[randread-8k]\nrw=randread\nbs=8k\nstonewall\n\n[randwrite-8k]\nrw=randwrite\nbs=8k\nstonewall\n\n[seqread-64k]\nrw=read\nbs=64k\nstonewall\n\n[seqwrite-64k]\nrw=write\nbs=64k\nstonewall',
        language: 'ini',
      },
    ],
    sources: ['SEED_PERF', 'CALC_ADV'],
  },
  appliesTo: hasJobs,
  check(context) {
    const folder = folderOf(context.file.uri);
    const covered = new Set<Corner>();
    const files: string[] = [];
    for (const file of context.workspace.files()) {
      if ((file.kind !== 'fio' && file.kind !== 'vdbench') || folderOf(file.uri) !== folder) continue;
      if (!file.perftest) return; // a job file anf-lint did not read: the set is not known
      files.push(file.uri);
      for (const job of file.perftest.jobs) {
        const corner = cornerOf(job);
        if (corner) covered.add(corner);
        else if (!job.access.known || !job.readPercent.known) return;
      }
    }
    if (covered.size === 0 || covered.size === CORNERS.length) return;
    const missing = CORNERS.filter((c) => !covered.has(c));
    const have = CORNERS.filter((c) => covered.has(c));
    const first = context.file.perftest!.jobs[0]!;
    const list = (items: readonly string[], last: string) =>
      items.length > 1 ? `${items.slice(0, -1).join(', ')} ${last} ${items[items.length - 1]}` : items[0]!;
    const set = files.length > 1 ? `The ${files.length} job files in this folder cover` : 'This job file covers';
    context.report({
      span: first.span,
      message: `${set} ${list(have, 'and')}, not ${list(missing, 'or')}: the performance-testing paper starts with all four corners (8 KiB random and 64 KiB sequential, reads and writes) unless the application's own profile is known, and ANF's limits differ by corner.`,
    });
  },
});

const CORNERS: readonly Corner[] = ['sequential read', 'sequential write', 'random read', 'random write'];

const folderOf = (uri: string): string => {
  const path = pathOf(uri);
  return path.slice(0, path.lastIndexOf('/') + 1);
};
