import { describe, expect, it } from 'vitest'
import { createLagMeter, lsnOf } from './replica-lag.js'

describe("a replica's lag", () => {
  it('compares write-ahead log positions as numbers', () => {
    expect(lsnOf('0/16B3748')).toBe(0x16b3748n)
    expect(lsnOf('1/0') > lsnOf('0/FFFFFFFF')).toBe(true)
  })

  it('is the smaller bound: an idle primary’s old last commit does not make a caught-up replica lag', () => {
    const meter = createLagMeter(5000)
    meter.sample(lsnOf('0/100'), 10_000)
    meter.sample(lsnOf('0/200'), 11_000)
    // Caught up with the last sample: its age, whatever the age of the last commit replayed.
    expect(meter.lagMs({ standby: true, replayed: lsnOf('0/200'), replayAgeMs: 60_000 }, 11_050)).toBe(50)
    // Behind the last sample but at the first: the time since the first.
    expect(meter.lagMs({ standby: true, replayed: lsnOf('0/150'), replayAgeMs: 60_000 }, 11_050)).toBe(1050)
    // A recent commit replayed bounds it lower still.
    expect(meter.lagMs({ standby: true, replayed: lsnOf('0/150'), replayAgeMs: 20 }, 11_050)).toBe(20)
  })

  it('grows while replay is paused, and is unknown (infinite) with neither bound', () => {
    const meter = createLagMeter(5000)
    meter.sample(lsnOf('0/100'), 0)
    for (let t = 1000; t <= 8000; t += 1000) meter.sample(lsnOf(`0/${(0x100 + t).toString(16)}`), t)
    expect(meter.lagMs({ standby: true, replayed: lsnOf('0/100'), replayAgeMs: 8000 }, 8000)).toBe(8000)
    expect(meter.lagMs({ standby: true, replayed: lsnOf('0/50'), replayAgeMs: undefined }, 8000)).toBe(Infinity)
    // No standby (a promoted replica, the primary itself): nothing to lag behind.
    expect(meter.lagMs({ standby: false, replayed: undefined, replayAgeMs: undefined }, 8000)).toBe(0)
  })
})
