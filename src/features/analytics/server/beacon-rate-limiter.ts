/** Beacons per address per minute, counted in this process (a junk filter, not an accounting). */
export class BeaconRateLimiter {
  #window = 0
  #counts = new Map<string, number>()

  allow(ip: string, perMinute: number, now = Date.now()): boolean {
    if (perMinute === 0) return true
    const window = Math.floor(now / 60_000)
    if (window !== this.#window) {
      this.#window = window
      this.#counts.clear()
    }
    const count = (this.#counts.get(ip) ?? 0) + 1
    this.#counts.set(ip, count)
    return count <= perMinute
  }
}
