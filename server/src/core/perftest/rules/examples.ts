/**
 * The files a performance-test rule's page example is linted beside (test/unit/rule-examples.test.ts):
 * the test client's fstab and the manifest of the volumes it mounts. One host, as a repository
 * would hold it: `etc/fstab` beside `perf/*.fio`.
 */
export const PERF_HOST_CONTEXT = [
  {
    path: 'etc/fstab',
    text: '# Test client: the volumes under test\n10.20.1.4:/perf-data  /mnt/anf/perf  nfs  rw,hard,vers=3,tcp,rsize=262144,wsize=262144,nconnect=8,_netdev  0 0',
  },
  {
    path: 'perf.anf.yaml',
    text: 'region: eastus\naccounts:\n  - name: perf-lab\n    pools:\n      - name: premium\n        serviceLevel: Premium\n        size: 4 TiB\n        volumes:\n          - name: perf-data\n            quota: 2 TiB                # 128 MiB/s\n            protocols: [NFSv3]\n            exportPath: /perf-data\n            mountTarget: 10.20.1.4',
  },
] as const;
