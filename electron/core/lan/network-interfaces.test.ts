import { lanInterfaces } from './network-interfaces';

describe('the addresses offered for LAN mode', () => {
  it('are the network cards\' addresses: loopback and IPv6 link-local ones are left out', () => {
    const found = lanInterfaces(() => ({
      lo: [
        { address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' },
        { address: '::1', netmask: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', family: 'IPv6', mac: '00:00:00:00:00:00', internal: true, cidr: '::1/128', scopeid: 0 },
      ],
      'Ethernet 2': [
        { address: '192.168.1.20', netmask: '255.255.255.0', family: 'IPv4', mac: 'aa:bb:cc:dd:ee:ff', internal: false, cidr: '192.168.1.20/24' },
        { address: 'fe80::1c2d:3e4f', netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', mac: 'aa:bb:cc:dd:ee:ff', internal: false, cidr: 'fe80::1c2d:3e4f/64', scopeid: 4 },
        { address: 'fd00::20', netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', mac: 'aa:bb:cc:dd:ee:ff', internal: false, cidr: 'fd00::20/64', scopeid: 0 },
      ],
      'Wi-Fi': undefined,
    }));
    expect(found).toEqual([
      { name: 'Ethernet 2', address: '192.168.1.20', family: 'IPv4' },
      { name: 'Ethernet 2', address: 'fd00::20', family: 'IPv6' },
    ]);
  });
});
