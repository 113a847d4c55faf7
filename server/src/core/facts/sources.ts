/**
 * Where the numbers in the facts table come from. Each fact names one of these keys, so a
 * hover or a rule page can cite the document and its date. Keys follow ../shared/anf-facts.md.
 */
export interface Source {
  readonly title: string;
  readonly url: string;
  /** Date of the stored version we read (ms.date, commit date, or publication). */
  readonly date: string;
}

const LEARN = 'https://learn.microsoft.com/azure/azure-netapp-files/';

export const SOURCES = {
  SL: { title: 'Service levels for Azure NetApp Files', url: `${LEARN}azure-netapp-files-service-levels`, date: '2026-01-29' },
  RL: { title: 'Resource limits for Azure NetApp Files', url: `${LEARN}azure-netapp-files-resource-limits`, date: '2025-06-10' },
  RL2021: { title: 'Resource limits for Azure NetApp Files (older revision)', url: `${LEARN}azure-netapp-files-resource-limits`, date: '2021-04-22' },
  RL2023: { title: 'Resource limits for Azure NetApp Files (older revision)', url: `${LEARN}azure-netapp-files-resource-limits`, date: '2023-09-29' },
  CM: { title: 'Cost model for Azure NetApp Files', url: `${LEARN}azure-netapp-files-cost-model`, date: '2026-06-15' },
  LV: { title: 'Requirements and considerations for large volumes', url: `${LEARN}large-volumes-requirements-considerations`, date: '2026-02-10' },
  CA: { title: 'Manage Azure NetApp Files storage with cool access', url: `${LEARN}manage-cool-access`, date: '2025-10-28' },
  MQ: { title: 'Manage a manual QoS capacity pool', url: `${LEARN}manage-manual-qos-capacity-pool`, date: '2021-02-04' },
  MO: { title: 'Linux NFS mount options best practices for Azure NetApp Files', url: `${LEARN}performance-linux-mount-options`, date: '2024-03-07' },
  CS: { title: 'Linux concurrency best practices for Azure NetApp Files (session slots and slot table entries)', url: `${LEARN}performance-linux-concurrency-session-slots`, date: '2021-08-02' },
  RA: { title: 'Linux NFS read-ahead best practices', url: `${LEARN}performance-linux-nfs-read-ahead`, date: '2022-02-02' },
  FC: { title: 'Linux filesystem cache best practices', url: `${LEARN}performance-linux-filesystem-cache`, date: '2024-03-02' },
  FAQP: { title: 'Performance FAQs for Azure NetApp Files', url: `${LEARN}faq-performance`, date: '2024-09-10' },
  FAQN: { title: 'NFS FAQs for Azure NetApp Files', url: `${LEARN}faq-nfs`, date: '2023-03-15' },
  KRB: { title: 'Configure NFSv4.1 Kerberos encryption', url: `${LEARN}configure-kerberos-encryption`, date: '2020-11-09' },
  EDA: { title: 'Benefits of using Azure NetApp Files for electronic design automation', url: `${LEARN}solutions-benefits-azure-netapp-files-electronic-design-automation`, date: '2025-10-13' },
  WT: { title: 'Understand workload types in Azure NetApp Files', url: `${LEARN}workload-types`, date: '2024-10-31' },
  HANA: { title: 'SAP HANA Azure virtual machine storage configurations: NFS v4.1 volumes on Azure NetApp Files', url: 'https://learn.microsoft.com/azure/sap/workloads/hana-vm-operations-netapp', date: '2023-08-02' },
  ORACLE: { title: 'Oracle Database: NFS buffer size parameters (rsize/wsize at least 32768)', url: 'https://docs.oracle.com/en/database/', date: 'undated' },
  ORAKNFS: {
    title: 'Oracle Support Doc ID 359515.1: Mount Options for Oracle files for RAC databases and Clusterware when used with NFS on NAS devices',
    url: 'https://support.oracle.com/knowledge/Oracle%20Database%20Products/359515_1.html',
    date: 'undated',
  },
  SAPNW: {
    title: 'High availability for SAP NetWeaver on Azure VMs on SUSE Linux Enterprise Server with Azure NetApp Files for SAP applications',
    url: 'https://learn.microsoft.com/azure/sap/workloads/high-availability-guide-suse-netapp-files',
    date: '2024-01-16',
  },
  AZF: { title: 'Mount NFS Azure file share on Linux (Azure Files)', url: 'https://learn.microsoft.com/azure/storage/files/storage-files-how-to-mount-nfs-shares', date: '2024-05-09' },
  BLOBNFS: { title: 'Mount Blob Storage by using the Network File System (NFS) 3.0 protocol', url: 'https://learn.microsoft.com/azure/storage/blobs/network-file-system-protocol-support-how-to', date: '2024-06-21' },
  ANFLINT: {
    title: 'anf-lint\'s own threshold (no vendor document gives this number; see the rule page)',
    url: 'https://github.com/anf-lint/anf-lint/blob/main/docs/mounts.md#anf-lints-own-thresholds',
    date: '2026-11-24',
  },
  NFS5: { title: 'nfs(5): fstab format and options for the nfs file systems (nfs-utils utils/mount/nfs.man)', url: 'https://man7.org/linux/man-pages/man5/nfs.5.html', date: '2026-01-31' },
  KSRC: { title: 'Linux kernel include/linux/sunrpc/xprt.h and net/sunrpc/xprtsock.c', url: 'https://github.com/torvalds/linux/blob/master/include/linux/sunrpc/xprt.h', date: 'mainline' },
  KDOC: { title: 'Linux kernel Documentation/networking/ip-sysctl.rst and admin-guide/sysctl/vm.rst', url: 'https://docs.kernel.org/networking/ip-sysctl.html', date: 'mainline' },
  KNET: { title: 'Linux kernel Documentation/admin-guide/sysctl/net.rst (/proc/sys/net/core)', url: 'https://docs.kernel.org/admin-guide/sysctl/net.html', date: 'mainline' },
  /**
   * The commit that raised optmem_max to 128 KiB (net/core/sock.c, net.rst "Default : 128 KB"); listed in
   * the v6.8 networking pull. Its parent's net/core/sock.c has the old default,
   * `sizeof(unsigned long) * (2 * UIO_MAXIOV + 512)` with UIO_MAXIOV 1024 (include/uapi/linux/uio.h).
   */
  KOPTMEM: {
    title: 'Linux commit 4944566706b2 "net: increase optmem_max default value" (kernel 6.8, net/core/sock.c)',
    url: 'https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/commit/?id=4944566706b27918ca15eda913889db296792415',
    date: '2023-12-14',
  },
  /**
   * mm/page-writeback.c: `static const unsigned long dirty_bytes_min = 2 * PAGE_SIZE;` is the `extra1`
   * of the `dirty_bytes` entry in vm_page_writeback_sysctls (kernel/sysctl.c held both before they
   * moved). kernel/sysctl.c __do_proc_doulongvec_minmax returns -EINVAL for a value below it.
   */
  KWB: {
    title: 'Linux kernel mm/page-writeback.c (dirty_bytes_min) and kernel/sysctl.c (__do_proc_doulongvec_minmax)',
    url: 'https://github.com/torvalds/linux/blob/master/mm/page-writeback.c',
    date: 'mainline',
  },
  /**
   * kernel/sysctl.c proc_get_long: `if (!isdigit(*p)) return -EINVAL;`, shared by proc_dointvec and
   * proc_dou8vec_minmax. net/ipv4/sysctl_net_ipv4.c: `tcp_sack` and friends use proc_dou8vec_minmax
   * without bounds (proc_dointvec in older kernels).
   */
  KSYSCTL: {
    title: 'Linux kernel kernel/sysctl.c (proc_get_long: integers only) and net/ipv4/sysctl_net_ipv4.c',
    url: 'https://github.com/torvalds/linux/blob/master/kernel/sysctl.c',
    date: 'mainline',
  },
  /**
   * lib/kstrtox.c kstrtobool switches on the first character (two for on/off); kernel/params.c
   * param_set_bool calls it for `bool` module parameters, and parse_args passes an error up, so the
   * module load fails. Commit 0d6ea3ac94ca added t/f, commit ae5b3500856f added e/d.
   */
  KSTRTOBOOL: {
    title: 'Linux kernel lib/kstrtox.c kstrtobool and kernel/params.c param_set_bool (bool module parameters)',
    url: 'https://github.com/torvalds/linux/blob/master/lib/kstrtox.c',
    date: 'mainline',
  },
  PRICE: { title: 'Azure Retail Prices API dump (Azure/azure-netapp-files docs/calc/beta/pricing-data.json), East US, pay-as-you-go', url: 'https://azure.github.io/azure-netapp-files/calc/', date: '2026-01-29' },
  CALC: { title: 'Azure NetApp Files Performance Calculator (calc.js constants)', url: 'https://azure.github.io/azure-netapp-files/calc/', date: '2026-01-29' },
  SEED_COURSE: { title: 'Course: running HPC/EDA applications on Azure NetApp Files (seed 000)', url: 'https://learn.microsoft.com/training/modules/run-hpc-eda-applications-azure-netapp-files/', date: '2021' },
  SEED_MOUNT: { title: 'Mount options and client VM configuration for HPC/EDA on ANF (seed 001, Swedish edition)', url: 'https://learn.microsoft.com/sv-se/training/modules/optimize-performance-azure-netapp-files/', date: '2022' },
  SEED_PERF: { title: 'Azure NetApp Files performance testing paper (seed 002)', url: 'https://www.netapp.com/', date: '2019' },
  SEED_ER: { title: 'Optimizing Azure ExpressRoute with NetApp Private Storage (seed 003)', url: 'https://www.netapp.com/', date: '2016' },
  SEED_COOL: { title: 'Performance considerations for Azure NetApp Files storage with cool access (seed 004)', url: `${LEARN}performance-considerations-cool-access`, date: '2024' },
} as const satisfies Record<string, Source>;

export type SourceKey = keyof typeof SOURCES;
