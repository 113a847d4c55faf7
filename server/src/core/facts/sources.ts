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

const LEARN = 'https://learn.microsoft.com/en-us/azure/azure-netapp-files/';

/** A page of the Azure NetApp Files documentation on Microsoft Learn, by its name under LEARN. */
function learn(title: string, page: string, date: string): Source {
  return { title, url: `${LEARN}${page}`, date };
}

export const SOURCES = {
  SL: learn('Service levels for Azure NetApp Files', 'azure-netapp-files-service-levels', '2026-01-29'),
  RL: learn('Resource limits for Azure NetApp Files', 'azure-netapp-files-resource-limits', '2025-06-10'),
  RL2021: learn(
    'Resource limits for Azure NetApp Files (older revision)',
    'azure-netapp-files-resource-limits',
    '2021-04-22',
  ),
  RL2023: learn(
    'Resource limits for Azure NetApp Files (older revision)',
    'azure-netapp-files-resource-limits',
    '2023-09-29',
  ),
  PERF: learn(
    'Performance considerations for Azure NetApp Files',
    'azure-netapp-files-performance-considerations',
    'undated (stored copy)',
  ),
  CM: learn('Cost model for Azure NetApp Files', 'azure-netapp-files-cost-model', '2026-06-15'),
  LV: learn(
    'Requirements and considerations for large volumes',
    'large-volumes-requirements-considerations',
    '2026-02-10',
  ),
  CA: learn('Manage Azure NetApp Files storage with cool access', 'manage-cool-access', '2025-10-28'),
  MQ: learn('Manage a manual QoS capacity pool', 'manage-manual-qos-capacity-pool', '2021-02-04'),
  MO: learn(
    'Linux NFS mount options best practices for Azure NetApp Files',
    'performance-linux-mount-options',
    '2024-03-07',
  ),
  CS: learn(
    'Linux concurrency best practices for Azure NetApp Files (session slots and slot table entries)',
    'performance-linux-concurrency-session-slots',
    '2021-08-02',
  ),
  RA: learn('Linux NFS read-ahead best practices', 'performance-linux-nfs-read-ahead', '2022-02-02'),
  FC: learn('Linux filesystem cache best practices', 'performance-linux-filesystem-cache', '2024-03-02'),
  FAQP: learn('Performance FAQs for Azure NetApp Files', 'faq-performance', '2024-09-10'),
  FAQN: learn('NFS FAQs for Azure NetApp Files', 'faq-nfs', '2023-03-15'),
  AVGORA: learn(
    'Deploy application volume group for Oracle',
    'application-volume-group-oracle-deploy-volumes',
    '2022-10-20',
  ),
  DELEGATE_SUBNET: learn('Delegate a subnet to Azure NetApp Files', 'azure-netapp-files-delegate-subnet', '2024-11-27'),
  VNET_FAQ: {
    title: 'Azure Virtual Network frequently asked questions (FAQ)',
    url: 'https://learn.microsoft.com/en-us/azure/virtual-network/virtual-networks-faq',
    date: '2024-11-27',
  },
  NETWORK_PLANNING: learn(
    'Guidelines for Azure NetApp Files network planning',
    'azure-netapp-files-network-topologies',
    '2023-07-24',
  ),
  AVGHANA: learn(
    'Requirements and considerations for application volume group for SAP HANA',
    'application-volume-group-considerations',
    '2024-08-13',
  ),
  AVGORA_REQ: learn(
    'Requirements and considerations for Azure NetApp Files application volume group for Oracle',
    'application-volume-group-oracle-considerations',
    '2025-01-29',
  ),
  KRB: learn('Configure NFSv4.1 Kerberos encryption', 'configure-kerberos-encryption', '2020-11-09'),
  EDA: learn(
    'Benefits of using Azure NetApp Files for electronic design automation',
    'solutions-benefits-azure-netapp-files-electronic-design-automation',
    '2025-10-13',
  ),
  WT: learn('Understand workload types in Azure NetApp Files', 'workload-types', '2024-10-31'),
  HANA: {
    title: 'SAP HANA Azure virtual machine storage configurations: NFS v4.1 volumes on Azure NetApp Files',
    url: 'https://learn.microsoft.com/en-us/azure/sap/workloads/hana-vm-operations-netapp',
    date: '2023-08-02',
  },
  SAP_HA_HANA: {
    title: 'High availability of SAP HANA on Azure VMs on SUSE Linux Enterprise Server',
    url: 'https://learn.microsoft.com/en-us/azure/sap/workloads/sap-hana-high-availability',
    date: 'undated',
  },
  SAP_HA_ANF: {
    title:
      'High availability for SAP NetWeaver on Azure VMs on SUSE Linux Enterprise Server with Azure NetApp Files for SAP applications',
    url: 'https://learn.microsoft.com/en-us/azure/sap/workloads/high-availability-guide-suse-netapp-files',
    date: 'undated',
  },
  LB_PROBES: {
    title: 'Azure Load Balancer health probes',
    url: 'https://learn.microsoft.com/en-us/azure/load-balancer/load-balancer-custom-probe-overview',
    date: 'undated',
  },
  ORACLE: {
    title: 'Oracle Database: NFS buffer size parameters (rsize/wsize at least 32768)',
    url: 'https://docs.oracle.com/en/database/',
    date: 'undated',
  },
  ORAKNFS: {
    title:
      'Oracle Support Doc ID 359515.1: Mount Options for Oracle files for RAC databases and Clusterware when used with NFS on NAS devices',
    url: 'https://support.oracle.com/knowledge/Oracle%20Database%20Products/359515_1.html',
    date: 'undated',
  },
  SAPNW: {
    title:
      'High availability for SAP NetWeaver on Azure VMs on SUSE Linux Enterprise Server with Azure NetApp Files for SAP applications',
    url: 'https://learn.microsoft.com/en-us/azure/sap/workloads/high-availability-guide-suse-netapp-files',
    date: '2024-01-16',
  },
  AZF: {
    title: 'Mount NFS Azure file share on Linux (Azure Files)',
    url: 'https://learn.microsoft.com/en-us/azure/storage/files/storage-files-how-to-mount-nfs-shares',
    date: '2024-05-09',
  },
  BLOBNFS: {
    title: 'Mount Blob Storage by using the Network File System (NFS) 3.0 protocol',
    url: 'https://learn.microsoft.com/en-us/azure/storage/blobs/network-file-system-protocol-support-how-to',
    date: '2024-06-21',
  },
  ANFLINT: {
    title: "anf-lint's own threshold (no vendor document gives this number; see the rule page)",
    url: 'https://github.com/anf-lint/anf-lint/blob/main/docs/mounts.md#anf-lints-own-thresholds',
    date: '2026-11-24',
  },
  NFS5: {
    title: 'nfs(5): fstab format and options for the nfs file systems (nfs-utils utils/mount/nfs.man)',
    url: 'https://man7.org/linux/man-pages/man5/nfs.5.html',
    date: '2026-01-31',
  },
  KSRC: {
    title: 'Linux kernel include/linux/sunrpc/xprt.h and net/sunrpc/xprtsock.c',
    url: 'https://github.com/torvalds/linux/blob/master/include/linux/sunrpc/xprt.h',
    date: 'mainline',
  },
  KDOC: {
    title: 'Linux kernel Documentation/networking/ip-sysctl.rst and admin-guide/sysctl/vm.rst',
    url: 'https://docs.kernel.org/networking/ip-sysctl.html',
    date: 'mainline',
  },
  KNET: {
    title: 'Linux kernel Documentation/admin-guide/sysctl/net.rst (/proc/sys/net/core)',
    url: 'https://docs.kernel.org/admin-guide/sysctl/net.html',
    date: 'mainline',
  },
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
  /**
   * The IPv4 sysctl tables (ipv4_table, ipv4_net_table). In v6.12: `tcp_fack` (per network namespace,
   * proc_dou8vec_minmax) and `tcp_low_latency` are still registered, and do nothing; `tcp_tw_recycle` is
   * gone since commit 4396e46187ca "tcp: remove tcp_tw_recycle" (4.12).
   */
  KSYSCTL_IPV4: {
    title: 'Linux kernel net/ipv4/sysctl_net_ipv4.c (the net.ipv4 sysctl tables), v6.12',
    url: 'https://github.com/torvalds/linux/blob/v6.12/net/ipv4/sysctl_net_ipv4.c',
    date: 'v6.12',
  },
  /**
   * xs_tunables_table registers /proc/sys/sunrpc/{udp,tcp}_slot_table_entries, tcp_max_slot_table_entries,
   * min_resvport, max_resvport, tcp_fin_timeout; the same names are `sunrpc` module parameters. Only the UDP
   * transport sizes its socket buffers (xs_udp_do_set_buffer_size sets SOCK_RCVBUF_LOCK); TCP transports
   * never call SO_RCVBUF/SO_SNDBUF, so TCP autotuning sizes them up to the tcp_rmem/tcp_wmem maximum.
   */
  KXPRTSOCK: {
    title: 'Linux kernel net/sunrpc/xprtsock.c (RPC socket transports: sunrpc sysctls, socket buffer sizing), v6.12',
    url: 'https://github.com/torvalds/linux/blob/v6.12/net/sunrpc/xprtsock.c',
    date: 'v6.12',
  },
  /** debug_table: /proc/sys/sunrpc/{rpc,nfs,nfsd,nlm}_debug and transports. */
  KSUNRPC_SYSCTL: {
    title: 'Linux kernel net/sunrpc/sysctl.c (sunrpc debug sysctls), v6.12',
    url: 'https://github.com/torvalds/linux/blob/v6.12/net/sunrpc/sysctl.c',
    date: 'v6.12',
  },
  /** xr_tunables_table: /proc/sys/sunrpc/rdma_* (RPC over RDMA); svc_rdma.c adds the sunrpc/svc_rdma/ directory. */
  KXPRTRDMA: {
    title: 'Linux kernel net/sunrpc/xprtrdma/transport.c (sunrpc RDMA sysctls), v6.12',
    url: 'https://github.com/torvalds/linux/blob/v6.12/net/sunrpc/xprtrdma/transport.c',
    date: 'v6.12',
  },
  /**
   * sock_init_data starts every socket's sk_rcvbuf/sk_sndbuf at net.core.rmem_default/wmem_default;
   * sk_setsockopt caps SO_RCVBUF/SO_SNDBUF at net.core.rmem_max/wmem_max and locks the size (no autotuning).
   */
  KSOCK: {
    title: 'Linux kernel net/core/sock.c (sock_init_data, SO_RCVBUF and SO_SNDBUF), v6.12',
    url: 'https://github.com/torvalds/linux/blob/v6.12/net/core/sock.c',
    date: 'v6.12',
  },
  /** nfs_cb_sysctls: /proc/sys/fs/nfs/nfs_mountpoint_timeout and nfs_congestion_kb. */
  KNFS_SYSCTL: {
    title: 'Linux kernel fs/nfs/sysctl.c (fs.nfs client sysctls), v6.12',
    url: 'https://github.com/torvalds/linux/blob/v6.12/fs/nfs/sysctl.c',
    date: 'v6.12',
  },
  /** nfs4_cb_sysctls: /proc/sys/fs/nfs/nfs_callback_tcpport and idmap_cache_timeout. */
  KNFS4_SYSCTL: {
    title: 'Linux kernel fs/nfs/nfs4sysctl.c (fs.nfs NFSv4 client sysctls), v6.12',
    url: 'https://github.com/torvalds/linux/blob/v6.12/fs/nfs/nfs4sysctl.c',
    date: 'v6.12',
  },
  /** nlm_sysctls: /proc/sys/fs/nfs/nlm_grace_period, nlm_timeout, nlm_udpport, nlm_tcpport, nsm_use_hostnames, nsm_local_state. */
  KLOCKD: {
    title: 'Linux kernel fs/lockd/svc.c (fs.nfs lock manager sysctls), v6.12',
    url: 'https://github.com/torvalds/linux/blob/v6.12/fs/lockd/svc.c',
    date: 'v6.12',
  },
  PRICE: {
    title:
      'Azure Retail Prices API dump (Azure/azure-netapp-files docs/calc/beta/pricing-data.json), East US, pay-as-you-go',
    url: 'https://azure.github.io/azure-netapp-files/calc/',
    date: '2026-01-29',
  },
  CALC_ADV: {
    title:
      'Azure NetApp Files Performance Calculator, advanced mode (per-volume ceilings by I/O profile and read/write mix)',
    url: 'https://azure.github.io/azure-netapp-files/calc/advanced/',
    date: '2023-05-23',
  },
  CALC: {
    title: 'Azure NetApp Files Performance Calculator (calc.js constants)',
    url: 'https://azure.github.io/azure-netapp-files/calc/',
    date: '2026-01-29',
  },
  HANA_STORAGE: {
    title: 'SAP HANA Azure virtual machine storage configurations',
    url: 'https://learn.microsoft.com/en-us/azure/sap/workloads/hana-vm-operations-storage',
    date: '2025-06-12',
  },
  NETAPP_ARM_2022: {
    title: 'Microsoft.NetApp netAppAccounts/capacityPools/volumes 2022-01-01 (ARM template reference)',
    url: 'https://learn.microsoft.com/en-us/azure/templates/microsoft.netapp/2022-01-01/netappaccounts/capacitypools/volumes',
    date: '2022-01-01',
  },
  BICEP_TYPES_NETAPP: {
    title:
      'Azure/bicep-types-az: generated/netapp/microsoft.netapp/<api-version>/types.json (the generated ARM types; VolumeProperties.usageThreshold minValue per API version)',
    url: 'https://github.com/Azure/bicep-types-az/tree/main/generated/netapp/microsoft.netapp',
    date: '2026-08-20 (commit 1f896de2db96)',
  },
  NETAPP_ARM: {
    title: 'Microsoft.NetApp netAppAccounts/capacityPools/volumes (ARM template reference)',
    url: 'https://learn.microsoft.com/en-us/azure/templates/microsoft.netapp/netappaccounts/capacitypools/volumes',
    date: '2025-09-01',
  },
  NETAPP_POOLS_API: {
    title: 'Pools - Create Or Update (Azure NetApp Files REST API, 2023-11-01)',
    url: 'https://learn.microsoft.com/en-us/rest/api/netapp/pools/create-or-update?view=rest-netapp-2023-11-01',
    date: '2023-11-01',
  },
  AVM_NETAPP_POOL: {
    title: 'Azure Verified Modules: NetApp capacity pool (avm/res/net-app/net-app-account/capacity-pool)',
    url: 'https://github.com/Azure/bicep-registry-modules/tree/main/avm/res/net-app/net-app-account/capacity-pool',
    date: '2025',
  },
  AVM_BICEP_NETAPP: {
    title:
      'Azure Verified Modules: NetApp account with its capacity pools and volumes (Bicep, avm/res/net-app/net-app-account)',
    url: 'https://github.com/Azure/bicep-registry-modules/tree/main/avm/res/net-app/net-app-account',
    date: '0.12.3 (2026-07-24)',
  },
  TRIDENT_ANF: {
    title:
      'Trident: Configure an Azure NetApp Files backend (Trident 25.02, "Considerations" and the backend configuration options)',
    url: 'https://docs.netapp.com/us-en/trident-2502/trident-use/anf.html',
    date: '25.02 (2025-02)',
  },
  AZ_CLI_NETAPPFILES: {
    title:
      'Azure CLI netappfiles command module (azure-cli: aaz/latest/netappfiles and custom.py: `--size` in TiB, `--usage-threshold` in GiB)',
    url: 'https://github.com/Azure/azure-cli/tree/dev/src/azure-cli/azure/cli/command_modules/netappfiles',
    date: '2025-06-01 (API version of volume create)',
  },
  AVM_TF_NETAPP: {
    title: 'Azure Verified Modules: Azure/avm-res-netapp-netappaccount/azurerm (Terraform)',
    url: 'https://registry.terraform.io/modules/Azure/avm-res-netapp-netappaccount/azurerm/latest',
    date: '0.3.0 (2025-12-02)',
  },
  ARM_PARAMETER_FILES: {
    title: 'Create Resource Manager parameters file',
    url: 'https://learn.microsoft.com/en-us/azure/azure-resource-manager/templates/parameter-files',
    date: '2025',
  },
  BICEP_PARAMETER_FILES: {
    title: 'Create parameters files for Bicep deployment',
    url: 'https://learn.microsoft.com/en-us/azure/azure-resource-manager/bicep/parameter-files',
    date: '2025',
  },
  ARM_TEMPLATE_PARAMETERS: {
    title: 'Parameters in ARM templates',
    url: 'https://learn.microsoft.com/en-us/azure/azure-resource-manager/templates/parameters',
    date: '2025',
  },
  ARM_COPY: {
    title: 'Resource iteration in ARM templates',
    url: 'https://learn.microsoft.com/en-us/azure/azure-resource-manager/templates/copy-resources',
    date: '2025',
  },
  TF_VARIABLES: {
    title: 'Terraform language: Input Variables',
    url: 'https://developer.hashicorp.com/terraform/language/values/variables',
    date: '2025-01-01',
  },
  TF_NETAPP_VOLUME: {
    title: 'Terraform azurerm provider: azurerm_netapp_volume',
    url: 'https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/netapp_volume',
    date: '2025-01-01',
  },
  TF_NETAPP_POOL: {
    title: 'Terraform azurerm provider: azurerm_netapp_pool',
    url: 'https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/netapp_pool',
    date: '2025-01-01',
  },
  AZ_ZONES: {
    title: 'Manage availability zone volume placement for Azure NetApp Files',
    url: 'https://learn.microsoft.com/en-us/azure/azure-netapp-files/manage-availability-zone-volume-placement',
    date: '2025-01-01',
  },
  SEED_COURSE: {
    title:
      'Choose the best service level of Azure NetApp Files for your HPC applications (Microsoft Learn training module, 2021 edition)',
    url: 'https://learn.microsoft.com/en-us/training/modules/choose-service-level-azure-netapp-files-hpc-applications/',
    date: '2021',
  },
  SEED_MOUNT: {
    title:
      'Improve Azure NetApp Files performance for your EDA and HPC applications by using best practices (Microsoft Learn training module: mount options and client VM configurations)',
    url: 'https://learn.microsoft.com/en-us/training/modules/optimize-performance-azure-netapp-files/',
    date: '2022',
  },
  ANSIBLE_BLOCKINFILE: {
    title:
      'ansible.builtin.blockinfile module: Insert/update/remove a text block surrounded by marker lines (marker, marker_begin, marker_end, insertafter, insertbefore)',
    url: 'https://docs.ansible.com/ansible/latest/collections/ansible/builtin/blockinfile_module.html',
    date: 'ansible-core 2.16',
  },
  ANSIBLE_LINEINFILE: {
    title:
      'ansible.builtin.lineinfile module: Manage lines in text files (regexp: only the last matching line is replaced; backrefs)',
    url: 'https://docs.ansible.com/ansible/latest/collections/ansible/builtin/lineinfile_module.html',
    date: 'ansible-core 2.16',
  },
  ANSIBLE_CONDITIONALS: {
    title: 'Ansible documentation: Conditionals (when, and conditions applied to blocks)',
    url: 'https://docs.ansible.com/ansible/latest/playbook_guide/playbooks_conditionals.html',
    date: 'ansible-core 2.16',
  },
  SEED_PERF: {
    title: 'Azure NetApp Files performance testing: strategies and best practices (NetApp white paper)',
    url: 'https://www.netapp.com/',
    date: '2019',
  },
  SEED_ER: {
    title: 'Optimizing Azure ExpressRoute with NetApp Private Storage (NetApp blog post)',
    url: 'https://www.netapp.com/',
    date: '2016',
  },
  SEED_COOL: learn(
    'Performance considerations for Azure NetApp Files storage with cool access',
    'performance-considerations-cool-access',
    '2024',
  ),
  FIO_HOWTO: {
    title: 'fio HOWTO: job file format, parameter types and job parameters (axboe/fio HOWTO.rst)',
    url: 'https://fio.readthedocs.io/en/latest/fio_doc.html',
    date: 'fio 3.x master',
  },
  VDBENCH_GUIDE: {
    title:
      'Vdbench Users Guide 5.04 (parameter files, SD/WD/FSD/FWD/RD parameters) and its parameter scanner Vdb_scan.java',
    url: 'https://www.oracle.com/downloads/server-storage/vdbench-downloads.html',
    date: '5.04.07 (May 2018)',
  },
  AZURE_DV3: {
    title: 'Dv3 and Dsv3-series (Azure virtual machine sizes)',
    url: 'https://learn.microsoft.com/en-us/azure/virtual-machines/dv3-dsv3-series',
    date: '2024',
  },
} as const satisfies Record<string, Source>;

export type SourceKey = keyof typeof SOURCES;
