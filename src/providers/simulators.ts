import type { FastifyPluginAsync } from 'fastify'
import { digiflazzSimulator } from './digiflazz.simulator.js'
import { smmPanelSimulator } from './smm-panel.simulator.js'
import { validationSimulator } from './validation.simulator.js'

/**
 * The upstream simulators, mounted under /sim/ outside production (docs/design.md §12): the demo's
 * providers point here, so every demo item can be bought over the real protocols.
 */
export function upstreamSimulators() {
  const digiflazz = digiflazzSimulator()
  const smm = smmPanelSimulator()
  const validation = validationSimulator()
  const plugin: FastifyPluginAsync = async (app) => {
    await app.register(digiflazz.plugin, { prefix: '/digiflazz/v1' })
    await app.register(smm.plugin, { prefix: '/smm/api/v2' })
    await app.register(validation.plugin, { prefix: '/validation' })
  }
  return { plugin, digiflazz, smm, validation }
}
export type UpstreamSimulators = ReturnType<typeof upstreamSimulators>
