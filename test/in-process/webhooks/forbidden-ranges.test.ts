import t from 'tap';
import { forbiddenRangeOf } from '@comps/shared/webhooks/address-policy';
import { forAll, integerBetween, type Random } from '../../helpers/property-test.js';

// --- A reference written apart from the module: each range as its first and last address, by hand,
// compared as BigInts. The module compares CIDR prefixes instead, and parses what it is given. ---

const v4 = (text: string): bigint => text.split('.').reduce((value, part) => value * 256n + BigInt(part), 0n);
/** Hex groups with at most one `::` (no dotted tail): enough for the table below. */
function v6(text: string): bigint {
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const groupsOf = (part: string | undefined) => (part ? part.split(':') : []);
  const written = [...groupsOf(head), ...Array(8 - groupsOf(head).length - groupsOf(tail).length).fill('0'), ...groupsOf(tail)];
  return written.reduce((value, group) => value * 65536n + BigInt(`0x${group}`), 0n);
}

interface RefRange { name: string; first: bigint; last: bigint }
const range4 = (name: string, first: string, last: string): RefRange => ({ name, first: v4(first), last: v4(last) });
const range6 = (name: string, first: string, last: string): RefRange => ({ name, first: v6(first), last: v6(last) });

// The first range that holds an address names it.
const REF_V4 = [
  range4('this network (0.0.0.0/8)', '0.0.0.0', '0.255.255.255'),
  range4('private (10.0.0.0/8)', '10.0.0.0', '10.255.255.255'),
  range4('carrier-grade NAT (100.64.0.0/10)', '100.64.0.0', '100.127.255.255'),
  range4('loopback (127.0.0.0/8)', '127.0.0.0', '127.255.255.255'),
  range4('cloud metadata (169.254.169.254)', '169.254.169.254', '169.254.169.254'),
  range4('link-local (169.254.0.0/16)', '169.254.0.0', '169.254.255.255'),
  range4('private (172.16.0.0/12)', '172.16.0.0', '172.31.255.255'),
  range4('IETF protocol assignments (192.0.0.0/24)', '192.0.0.0', '192.0.0.255'),
  range4('documentation (192.0.2.0/24)', '192.0.2.0', '192.0.2.255'),
  range4('private (192.168.0.0/16)', '192.168.0.0', '192.168.255.255'),
  range4('benchmarking (198.18.0.0/15)', '198.18.0.0', '198.19.255.255'),
  range4('documentation (198.51.100.0/24)', '198.51.100.0', '198.51.100.255'),
  range4('documentation (203.0.113.0/24)', '203.0.113.0', '203.0.113.255'),
  range4('multicast (224.0.0.0/4)', '224.0.0.0', '239.255.255.255'),
  range4('broadcast (255.255.255.255)', '255.255.255.255', '255.255.255.255'),
  range4('reserved (240.0.0.0/4)', '240.0.0.0', '255.255.255.255'),
];
const ONES = 'ffff:ffff:ffff:ffff:ffff:ffff';
const REF_V6 = [
  range6('unspecified (::)', '::', '::'),
  range6('loopback (::1)', '::1', '::1'),
  range6('discard-only (100::/64)', '100::', '100::ffff:ffff:ffff:ffff'),
  range6('local-use NAT64 (64:ff9b:1::/48)', '64:ff9b:1::', `64:ff9b:1:${'ffff:'.repeat(4)}ffff`),
  range6('benchmarking (2001:2::/48)', '2001:2::', `2001:2:0:${'ffff:'.repeat(4)}ffff`),
  range6('documentation (2001:db8::/32)', '2001:db8::', `2001:db8:${ONES}`),
  range6('documentation (3fff::/20)', '3fff::', `3fff:0fff:${ONES}`),
  range6('cloud metadata (fd00:ec2::254)', 'fd00:ec2::254', 'fd00:ec2::254'),
  range6('unique-local (fc00::/7)', 'fc00::', `fdff:ffff:${ONES}`),
  range6('link-local (fe80::/10)', 'fe80::', `febf:ffff:${ONES}`),
  range6('site-local (fec0::/10)', 'fec0::', `feff:ffff:${ONES}`),
  range6('multicast (ff00::/8)', 'ff00::', `ffff:ffff:${ONES}`),
];
/** IPv6 ranges that carry an IPv4 address, `shift` bits from the right. */
const REF_EMBEDDINGS = [
  { ...range6('IPv4-mapped (::ffff:0:0/96)', '::ffff:0:0', '::ffff:ffff:ffff'), shift: 0n },
  { ...range6('IPv4-translated (::ffff:0:0:0/96)', '::ffff:0:0:0', '::ffff:0:ffff:ffff'), shift: 0n },
  { ...range6('IPv4-compatible (::/96)', '::', '::ffff:ffff'), shift: 0n },
  { ...range6('NAT64 (64:ff9b::/96)', '64:ff9b::', '64:ff9b::ffff:ffff'), shift: 0n },
  { ...range6('6to4 (2002::/16)', '2002::', `2002:ffff:${ONES}`), shift: 80n },
];

const holding = (table: RefRange[], value: bigint) => table.find(({ first, last }) => value >= first && value <= last);

function reference(family: 4 | 6, value: bigint): string | null {
  if (family === 4) return holding(REF_V4, value)?.name ?? null;
  const direct = holding(REF_V6, value);
  if (direct) return direct.name;
  const embedding = REF_EMBEDDINGS.find(({ first, last }) => value >= first && value <= last);
  const inner = embedding && holding(REF_V4, (value >> embedding.shift) & 0xffffffffn);
  return embedding && inner ? `${inner.name}, embedded in ${embedding.name}` : null;
}

// --- Writing addresses the ways DNS answers, URLs and people write them. ---

const dotted = (value: bigint) => [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join('.');
const groups = (value: bigint) => Array.from({ length: 8 }, (_, index) => ((value >> BigInt(16 * (7 - index))) & 0xffffn).toString(16));

function spellings6(value: bigint): string[] {
  const full = groups(value).join(':');
  return [
    full,
    groups(value).map((group) => group.padStart(4, '0')).join(':'),
    new URL(`http://[${full}]/`).hostname.slice(1, -1),
    new URL(`http://[${full}]/`).hostname.slice(1, -1).toUpperCase(),
    `${groups(value).slice(0, 6).join(':')}:${dotted(value & 0xffffffffn)}`,
  ];
}

function check(family: 4 | 6, value: bigint): void {
  const expected = reference(family, value);
  for (const written of family === 4 ? [dotted(value)] : spellings6(value)) {
    const actual = forbiddenRangeOf(written);
    if (actual !== expected) throw new Error(`${written}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
  }
}

const MAX4 = 2n ** 32n - 1n;
const MAX6 = 2n ** 128n - 1n;
const edgesOf = ({ first, last }: RefRange, max: bigint) => [first - 1n, first, last, last + 1n].filter((value) => value >= 0n && value <= max);

t.test('well-known addresses', async (t) => {
  const cases: Array<[string, string | null]> = [
    ['127.0.0.1', 'loopback (127.0.0.0/8)'],
    ['10.0.0.1', 'private (10.0.0.0/8)'],
    ['169.254.169.254', 'cloud metadata (169.254.169.254)'],
    ['169.254.0.1', 'link-local (169.254.0.0/16)'],
    ['100.100.100.200', 'carrier-grade NAT (100.64.0.0/10)'],
    ['0.0.0.0', 'this network (0.0.0.0/8)'],
    ['255.255.255.255', 'broadcast (255.255.255.255)'],
    ['8.8.8.8', null],
    ['1.1.1.1', null],
    ['93.184.215.14', null],
    ['::', 'unspecified (::)'],
    ['::1', 'loopback (::1)'],
    ['0:0:0:0:0:0:0:1', 'loopback (::1)'],
    ['fe80::1', 'link-local (fe80::/10)'],
    ['fe80::1%eth0', 'link-local (fe80::/10)'],
    ['fd00:ec2::254', 'cloud metadata (fd00:ec2::254)'],
    ['fd12:3456::1', 'unique-local (fc00::/7)'],
    ['ff02::1', 'multicast (ff00::/8)'],
    ['2001:db8::1', 'documentation (2001:db8::/32)'],
    ['::ffff:127.0.0.1', 'loopback (127.0.0.0/8), embedded in IPv4-mapped (::ffff:0:0/96)'],
    ['::ffff:7f00:1', 'loopback (127.0.0.0/8), embedded in IPv4-mapped (::ffff:0:0/96)'],
    ['::FFFF:A9FE:A9FE', 'cloud metadata (169.254.169.254), embedded in IPv4-mapped (::ffff:0:0/96)'],
    ['::ffff:8.8.8.8', null],
    ['::127.0.0.1', 'loopback (127.0.0.0/8), embedded in IPv4-compatible (::/96)'],
    ['::ffff:0:10.0.0.1', 'private (10.0.0.0/8), embedded in IPv4-translated (::ffff:0:0:0/96)'],
    ['64:ff9b::10.1.2.3', 'private (10.0.0.0/8), embedded in NAT64 (64:ff9b::/96)'],
    ['64:ff9b::808:808', null],
    ['2002:c0a8:0101::1', 'private (192.168.0.0/16), embedded in 6to4 (2002::/16)'],
    ['2002:a9fe:a9fe:1234::1', 'cloud metadata (169.254.169.254), embedded in 6to4 (2002::/16)'],
    ['2002:0808:0808::1', null],
    ['2606:4700:4700::1111', null],
    ['2a00:1450:4001:82b::200e', null],
  ];
  for (const [address, expected] of cases) t.equal(forbiddenRangeOf(address), expected, address);
});

t.test('what is not an IP address is refused, not taken for public', async (t) => {
  for (const text of ['', 'localhost', 'example.com', '127.1', '0x7f000001', '2130706433', '256.0.0.1', '1.2.3.4.5', '::g', '[::1]', ' 127.0.0.1', '1:2:3:4:5:6:7:8:9']) {
    t.equal(forbiddenRangeOf(text), 'not an IP address', JSON.stringify(text));
  }
});

t.test('every range\'s edges: first and last inside, the neighbours outside', async (t) => {
  const v4Edges = REF_V4.flatMap((range) => edgesOf(range, MAX4));
  const v6Edges = [...REF_V6, ...REF_EMBEDDINGS].flatMap((range) => edgesOf(range, MAX6));
  // The IPv4 ranges' edges, carried inside each embedding.
  const embeddedEdges = REF_EMBEDDINGS.flatMap((embedding) => v4Edges.map((inner) => embedding.first + (inner << embedding.shift)));
  for (const value of v4Edges) check(4, value);
  for (const value of [...v6Edges, ...embeddedEdges]) check(6, value);
  t.pass(`${v4Edges.length + v6Edges.length + embeddedEdges.length} edge addresses agree with the reference, each in every spelling`);
  // The reference itself: each range names its own first and last address, but where a more specific one is carved out.
  const shadowed = new Set(['reserved (240.0.0.0/4) last']);
  for (const range of [...REF_V4, ...REF_V6]) {
    for (const [end, value] of [['first', range.first], ['last', range.last]] as const) {
      if (shadowed.has(`${range.name} ${end}`)) continue;
      t.equal(reference(REF_V4.includes(range) ? 4 : 6, value), range.name, `${range.name}: its ${end} address`);
    }
  }
});

function randomBits(random: Random, bits: number): bigint {
  let value = 0n;
  for (let done = 0; done < bits; done += 32) value = (value << 32n) | BigInt(Math.floor(random() * 2 ** 32));
  return value & ((1n << BigInt(bits)) - 1n);
}

/** Near a range more often than not: uniform addresses almost never fall in one. */
function randomIn(random: Random, table: RefRange[], bits: number): bigint {
  const max = (1n << BigInt(bits)) - 1n;
  if (random() < 0.3) return randomBits(random, bits);
  const range = table[integerBetween(random, 0, table.length - 1)]!;
  const span = range.last - range.first + 1n;
  const pick = [range.first - 1n, range.first, range.last, range.last + 1n, range.first + (randomBits(random, bits) % span)][integerBetween(random, 0, 4)]!;
  return pick < 0n ? 0n : pick > max ? max : pick;
}

t.test('against the reference, on random addresses', async (t) => {
  forAll(2000, (random) => {
    const kind = integerBetween(random, 0, 2);
    if (kind === 0) return check(4, randomIn(random, REF_V4, 32));
    if (kind === 1) return check(6, randomIn(random, REF_V6, 128));
    const embedding = REF_EMBEDDINGS[integerBetween(random, 0, REF_EMBEDDINGS.length - 1)]!;
    // For 6to4 the bits after the IPv4 address (subnet and interface) are free.
    const rest = embedding.shift === 0n ? 0n : randomBits(random, Number(embedding.shift));
    return check(6, embedding.first + (randomIn(random, REF_V4, 32) << embedding.shift) + rest);
  });
  t.pass('2000 random addresses agree, each in every spelling');
});
