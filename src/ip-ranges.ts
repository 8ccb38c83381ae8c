import { BlockList, isIP } from 'node:net'

/** `10.0.0.1`, `10.0.0.0/8`, `::1`, `2001:db8::/32`: what allow-lists and TRUST_PROXY accept. */
export function isAddressOrCidr(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/')
  const family = isIP(address)
  if (!family || rest.length > 0) return false
  return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32))
}

/** Whether an address falls in any entry; IPv4-mapped IPv6 (`::ffff:1.2.3.4`) counts as IPv4. */
export function isInRanges(ip: string, entries: string[]): boolean {
  const address = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip
  const list = new BlockList()
  for (const entry of entries) {
    const [net, bits] = entry.split('/')
    const type = isIP(net) === 6 ? 'ipv6' : 'ipv4'
    if (bits === undefined) list.addAddress(net, type)
    else list.addSubnet(net, Number(bits), type)
  }
  return list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4')
}
