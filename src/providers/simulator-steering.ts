/**
 * How the simulators decide an outcome: by the last character of the target (phone number, game id,
 * link), so a demo or a test picks one by what it buys for.
 *   …2 fails; …3 stays pending on the first look and settles on a later one; …4 (smm) ends Partial;
 *   anything else succeeds at once.
 */
export type Steering = 'success' | 'fail' | 'later' | 'partial'

export function steeringOf(target: string): Steering {
  switch (target.trim().slice(-1)) {
    case '2':
      return 'fail'
    case '3':
      return 'later'
    case '4':
      return 'partial'
    default:
      return 'success'
  }
}

/** The credentials every simulator accepts (the demo's providers are registered with them). */
export const SIMULATOR_CREDENTIALS = { username: 'demo', apiKey: 'demo-key' } as const
