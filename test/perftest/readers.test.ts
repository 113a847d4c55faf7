import { describe, expect, it } from 'vitest';
import { detectFileKind } from '../../server/src/core/fileKind';
import { readFio } from '../../server/src/core/perftest/fio';
import type { JobValue, PerfJob } from '../../server/src/core/perftest/model';
import { fioBytes, fioSeconds, vdbenchNumber } from '../../server/src/core/perftest/values';
import { readVdbench } from '../../server/src/core/perftest/vdbench';

const value = <T>(v: JobValue<T>): T | string => (v.known ? v.value : `? ${v.reason}`);
const summary = (job: PerfJob) => ({
  name: job.name,
  access: value(job.access),
  read: value(job.readPercent),
  bs: value(job.blockSizeBytes),
  outstanding: job.outstanding.known ? job.outstanding.value.total : `? ${job.outstanding.reason}`,
  direct: value(job.direct),
  set: value(job.workingSetBytes),
  targets: job.targets.known ? job.targets.value.map((t) => `${t.kind}:${t.path}`) : `? ${job.targets.reason}`,
});

describe('fio units (HOWTO "int", kb_base)', () => {
  it('reads k as 1024 and ki as 1000 by default, the other way round with kb_base=1000', () => {
    expect(fioBytes('4k', 1024)).toBe(4096);
    expect(fioBytes('4KB', 1024)).toBe(4096);
    expect(fioBytes('4ki', 1024)).toBe(4000);
    expect(fioBytes('1mi', 1024)).toBe(1_000_000);
    expect(fioBytes('1t', 1024)).toBe(1024 ** 4);
    expect(fioBytes('4k', 1000)).toBe(4000);
    expect(fioBytes('4KiB', 1000)).toBe(4096);
    expect(fioBytes('4096b', 1024)).toBe(4096);
    expect(fioBytes('0x1000', 1024)).toBe(4096);
    expect(fioBytes('4kk', 1024)).toBeUndefined();
    expect(fioBytes('50%', 1024)).toBeUndefined();
  });
  it('reads times in seconds unless a unit says otherwise', () => {
    expect(fioSeconds('60')).toBe(60);
    expect(fioSeconds('10m')).toBe(600);
    expect(fioSeconds('1h')).toBe(3600);
    expect(fioSeconds('500ms')).toBe(0.5);
  });
  it('reads vdbench minutes only in elapsed, interval, warmup and pause', () => {
    expect(vdbenchNumber('10m', 'elapsed', 60, 3600)).toBe(600);
    expect(vdbenchNumber('10m', 'size', 60, 3600)).toBe(10 * 1024 ** 2);
    expect(vdbenchNumber('64k', 'xfersize', 60, 3600)).toBe(65536);
    expect(vdbenchNumber('1h', 'elapsed', 60, 3600)).toBe(3600);
  });
});

describe('fio job files', () => {
  it('inherits [global] only below it, and reads the queue depth the engine allows', () => {
    const { file, problems } = readFio(
      [
        '; four corners',
        '[global]',
        'directory=/mnt/anf/data',
        'size=8g',
        'ioengine=libaio',
        'direct=1',
        'iodepth=16',
        '',
        '[randread-8k]',
        'rw=randread',
        'bs=8k',
        'numjobs=4',
        '',
        '[global]',
        'ioengine=psync',
        '',
        '[seqwrite]',
        'rw=write',
        'bs=64k',
        'iodepth=32',
      ].join('\n'),
    );
    expect(problems).toEqual([]);
    expect(file.jobs.map(summary)).toEqual([
      {
        name: 'randread-8k',
        access: 'random',
        read: 100,
        bs: 8192,
        outstanding: 64,
        direct: true,
        set: 4 * 8 * 1024 ** 3,
        targets: ['directory:/mnt/anf/data'],
      },
      {
        name: 'seqwrite',
        access: 'sequential',
        read: 0,
        bs: 65536,
        outstanding: 1,
        direct: true,
        set: 8 * 1024 ** 3,
        targets: ['directory:/mnt/anf/data'],
      },
    ]);
    expect(file.jobs[1]!.outstanding.known && file.jobs[1]!.outstanding.value.why).toMatch(/iodepth=32 has no effect/);
  });
  it('keeps libaio with buffered I/O at one in flight, and shared files one working set', () => {
    const { file } = readFio(
      '[mix]\nrw=randrw\nrwmixread=70\nioengine=libaio\niodepth=8\nnumjobs=2\nfilename=/hana/data/fio.dat\nsize=10g\n',
    );
    expect(summary(file.jobs[0]!)).toMatchObject({
      read: 70,
      outstanding: 2,
      direct: false,
      set: 10 * 1024 ** 3,
      targets: ['file:/hana/data/fio.dat'],
    });
  });
  it('leaves environment values, includes and ranges unknown with the reason', () => {
    const { file } = readFio('[global]\ninclude common.fio\n[j]\nrw=randread\nbs=${BS}\nsize=$mb_memory\n');
    const job = summary(file.jobs[0]!);
    expect(job.bs).toMatch(/environment/);
    expect(job.set).toMatch(/fio on the machine/);
    expect(job.direct).toMatch(/include/);
  });
  it('reads opendir as the folder the job works in', () => {
    const { file } = readFio('[scan]\nopendir=/mnt/anf/data/set1\nrw=read\nbs=1m\n');
    expect(summary(file.jobs[0]!).targets).toEqual(['directory:/mnt/anf/data/set1']);
  });
  it('reports what fio itself refuses', () => {
    const { problems } = readFio('bs=4k\n[j]\nrw=randomread\nbs=4kk\n[broken\n');
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/outside a section/),
      expect.stringMatching(/rw=randomread/),
      expect.stringMatching(/bs=4kk/),
      expect.stringMatching(/closing/),
    ]);
  });
  it('is detected by name, or by its keys in an ini file', () => {
    expect(detectFileKind('/repo/tests/randread.fio')).toBe('fio');
    expect(detectFileKind('/repo/tests/job.ini', '[global]\nrw=randread\nbs=8k\n')).toBe('fio');
    expect(detectFileKind('/repo/tests/other.ini', '[server]\nport=80\n')).toBe('unknown');
    expect(detectFileKind('/repo/tests/run.vdb')).toBe('vdbench');
  });
});

describe('vdbench parameter files', () => {
  it('reads raw I/O runs: SD threads, WD pattern, continuation lines and comments', () => {
    const { file, problems } = readVdbench(
      [
        '* 8 KiB random reads on a 100 GiB file',
        'sd=sd1,lun=/mnt/anf/vdb/file1,size=100g,',
        '   openflags=o_direct,threads=16   this is a comment',
        'wd=wd1,sd=sd*,xfersize=8k,rdpct=100,seekpct=random',
        'rd=run1,wd=wd1,iorate=max,elapsed=10m,warmup=60,interval=5',
      ].join('\n'),
    );
    expect(problems).toEqual([]);
    expect(summary(file.jobs[0]!)).toEqual({
      name: 'run1',
      access: 'random',
      read: 100,
      bs: 8192,
      outstanding: 16,
      direct: true,
      set: 100 * 1024 ** 3,
      targets: ['file:/mnt/anf/vdb/file1'],
    });
    expect(value(file.jobs[0]!.runtimeSeconds)).toBe(600);
  });
  it('reads file system runs: anchor, files x width^depth x size, fwd threads', () => {
    const { file } = readVdbench(
      [
        'fsd=fsd1,anchor=/mnt/eda/vdb,depth=2,width=4,files=16,size=64m',
        'fwd=fwd1,fsd=fsd1,operation=read,xfersize=64k,fileio=sequential,fileselect=random,threads=1',
        'rd=rd1,fwd=fwd*,fwdrate=max,format=yes,elapsed=300,interval=1',
      ].join('\n'),
    );
    expect(summary(file.jobs[0]!)).toEqual({
      name: 'rd1',
      access: 'sequential',
      read: 100,
      bs: 65536,
      outstanding: 1,
      direct: false,
      set: 16 * 4 ** 2 * 64 * 1024 ** 2,
      targets: ['directory:/mnt/eda/vdb'],
    });
  });
  it('names a run that refers to no definition', () => {
    const { problems } = readVdbench('rd=run1,wd=missing,elapsed=10\n');
    expect(problems.map((p) => p.message)).toEqual([expect.stringMatching(/names no workload definition/)]);
  });
});
