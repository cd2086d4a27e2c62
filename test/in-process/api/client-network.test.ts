import t from 'tap';
import { clientNetworkOf } from '@comps/shared/http/client-network';

// Per-address limits count an IPv6 client by its /64, an IPv4 client by its address.
const cases: Array<[string, string]> = [
  ['203.0.113.7', '203.0.113.7'],
  ['::ffff:203.0.113.7', '203.0.113.7'],
  ['::FFFF:198.51.100.1', '198.51.100.1'],
  ['2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:db8:85a3:8d3::/64'],
  ['2001:0db8:85a3:08d3:ffff:ffff:ffff:ffff', '2001:db8:85a3:8d3::/64'],
  ['2001:db8::1', '2001:db8:0:0::/64'],
  ['2001:DB8:0:0:1::1', '2001:db8:0:0::/64'],
  ['::1', '0:0:0:0::/64'],
  ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ['64:ff9b::192.0.2.33', '64:ff9b:0:0::/64'],
  ['not an address', 'not an address'],
];
for (const [address, network] of cases) t.equal(clientNetworkOf(address), network, address);
t.equal(clientNetworkOf('2001:db8:1:2:aaaa::1'), clientNetworkOf('2001:db8:1:2:bbbb::2'), 'two addresses of one /64 count together');
t.not(clientNetworkOf('2001:db8:1:2::1'), clientNetworkOf('2001:db8:1:3::1'), 'two /64s apart');
