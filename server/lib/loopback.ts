/** A client on this machine: 127.0.0.0/8 (plain or IPv4-mapped) or ::1. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address);
}
