/** The shape of an IPv4 address: four octets of 0-255, 32 bits. */
export const IPV4 = { octets: 4, octetMax: 255, bits: 32 } as const; // not a fact: the size of an IPv4 address

/** An IPv4 CIDR as written (`10.0.1.0/28`), read whole. */
export interface Ipv4Cidr {
  readonly octets: readonly number[];
  readonly length: number;
  /** Every octet at most 255 and the prefix length at most 32. */
  readonly valid: boolean;
}

/** `a.b.c.d/n` read as numbers; undefined for text of another shape (an IPv6 prefix, an expression). */
export function parseIpv4Cidr(text: string): Ipv4Cidr | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(text);
  if (!m) return undefined;
  const octets = m.slice(1, 1 + IPV4.octets).map(Number);
  const length = Number(m[1 + IPV4.octets]);
  return { octets, length, valid: octets.every((o) => o <= IPV4.octetMax) && length <= IPV4.bits };
}
