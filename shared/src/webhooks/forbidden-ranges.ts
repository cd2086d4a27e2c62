import { isIP } from 'node:net';

/** An IPv4 address (dotted quad, as `net.isIP` accepts it) as a number. */
const ipv4Value = (text: string): bigint => text.split('.').reduce((value, part) => (value << 8n) | BigInt(part), 0n);

/** One written group of an IPv6 address as 16-bit numbers: a dotted IPv4 tail is two. */
function groupValues(group: string): number[] {
  if (!group.includes('.')) return [parseInt(group, 16)];
  const ipv4 = ipv4Value(group);
  return [Number(ipv4 >> 16n), Number(ipv4 & 0xffffn)];
}

/** An IPv6 address (any spelling `net.isIP` accepts: `::`, a dotted IPv4 tail, a zone) as a number. */
function ipv6Value(text: string): bigint {
  // The zone of a link-local address says which interface, not which address.
  const [head = '', tail] = text.replace(/%.*$/, '').split('::');
  const groupsOf = (part: string | undefined) => (part ? part.split(':').flatMap(groupValues) : []);
  const before = groupsOf(head);
  const after = groupsOf(tail);
  const groups = [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

interface Range { name: string; prefix: bigint; shift: bigint }

/** `shift` is how many low bits the prefix leaves free: an address is inside when the rest are the prefix's. */
function rangeOf(family: 4 | 6, name: string, cidr: string): Range {
  const [address = '', length = ''] = cidr.split('/');
  const shift = BigInt((family === 4 ? 32 : 128) - Number(length));
  return { name, prefix: (family === 4 ? ipv4Value(address) : ipv6Value(address)) >> shift, shift };
}

const inside = (value: bigint, { prefix, shift }: Range) => value >> shift === prefix;

// Named ranges, the first match wins: a range's more specific part (metadata, broadcast) comes before it.
const IPV4_RANGES = [
  ['this network (0.0.0.0/8)', '0.0.0.0/8'],
  ['private (10.0.0.0/8)', '10.0.0.0/8'],
  ['carrier-grade NAT (100.64.0.0/10)', '100.64.0.0/10'],
  ['loopback (127.0.0.0/8)', '127.0.0.0/8'],
  ['cloud metadata (169.254.169.254)', '169.254.169.254/32'],
  ['link-local (169.254.0.0/16)', '169.254.0.0/16'],
  ['private (172.16.0.0/12)', '172.16.0.0/12'],
  ['IETF protocol assignments (192.0.0.0/24)', '192.0.0.0/24'],
  ['documentation (192.0.2.0/24)', '192.0.2.0/24'],
  ['private (192.168.0.0/16)', '192.168.0.0/16'],
  ['benchmarking (198.18.0.0/15)', '198.18.0.0/15'],
  ['documentation (198.51.100.0/24)', '198.51.100.0/24'],
  ['documentation (203.0.113.0/24)', '203.0.113.0/24'],
  ['multicast (224.0.0.0/4)', '224.0.0.0/4'],
  ['broadcast (255.255.255.255)', '255.255.255.255/32'],
  ['reserved (240.0.0.0/4)', '240.0.0.0/4'],
].map(([name, cidr]) => rangeOf(4, name!, cidr!));

const IPV6_RANGES = [
  ['unspecified (::)', '::/128'],
  ['loopback (::1)', '::1/128'],
  ['discard-only (100::/64)', '100::/64'],
  // Its prefix is chosen by the network that runs the translator, so what it embeds cannot be judged.
  ['local-use NAT64 (64:ff9b:1::/48)', '64:ff9b:1::/48'],
  ['benchmarking (2001:2::/48)', '2001:2::/48'],
  ['documentation (2001:db8::/32)', '2001:db8::/32'],
  ['documentation (3fff::/20)', '3fff::/20'],
  ['cloud metadata (fd00:ec2::254)', 'fd00:ec2::254/128'],
  ['unique-local (fc00::/7)', 'fc00::/7'],
  ['link-local (fe80::/10)', 'fe80::/10'],
  // Deprecated, but some stacks still route it inside the site.
  ['site-local (fec0::/10)', 'fec0::/10'],
  ['multicast (ff00::/8)', 'ff00::/8'],
].map(([name, cidr]) => rangeOf(6, name!, cidr!));

/**
 * IPv6 ranges that carry an IPv4 address, which the host or its network may reach over IPv4 (a
 * dual-stack socket does so for an IPv4-mapped one): what they carry is judged as IPv4. `at` is how
 * many low bits follow the IPv4 address.
 */
const IPV4_CARRIERS = [
  { ...rangeOf(6, 'IPv4-mapped (::ffff:0:0/96)', '::ffff:0:0/96'), at: 0n },
  { ...rangeOf(6, 'IPv4-translated (::ffff:0:0:0/96)', '::ffff:0:0:0/96'), at: 0n },
  { ...rangeOf(6, 'IPv4-compatible (::/96)', '::/96'), at: 0n },
  { ...rangeOf(6, 'NAT64 (64:ff9b::/96)', '64:ff9b::/96'), at: 0n },
  { ...rangeOf(6, '6to4 (2002::/16)', '2002::/16'), at: 80n },
];

const ipv4RangeOf = (value: bigint) => IPV4_RANGES.find((range) => inside(value, range))?.name ?? null;

/**
 * The name of the refused range `ip` (IPv4 or IPv6, as DNS answers or a URL's host give it) falls
 * into, or null when it is public. What is not an IP address at all is refused too ('not an IP
 * address'), so that a caller that only tests for null never lets it through.
 */
export function forbiddenRangeOf(ip: string): string | null {
  const family = isIP(ip);
  if (family === 0) return 'not an IP address';
  if (family === 4) return ipv4RangeOf(ipv4Value(ip));
  const value = ipv6Value(ip);
  const direct = IPV6_RANGES.find((range) => inside(value, range));
  if (direct) return direct.name;
  const carrier = IPV4_CARRIERS.find((range) => inside(value, range));
  const carried = carrier && ipv4RangeOf((value >> carrier.at) & 0xffffffffn);
  return carrier && carried ? `${carried}, embedded in ${carrier.name}` : null;
}
