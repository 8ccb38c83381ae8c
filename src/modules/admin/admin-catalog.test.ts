import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp } from '../../../test/app.js'
import { admin, createItem, createReseller, get } from '../../../test/factory.js'
import { COMMANDS, parseArgs } from '../../cli/commands.js'

// Categories and products managed on their own: the operator API, and the CLI commands over it.
const { app, ctx } = await createTestApp()
const r = await createReseller(app)
const headers = { authorization: `Bearer ${ADMIN_TOKEN}` }
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  app.inject({ method, url: `/api/admin/v1${url}`, headers, payload })
const catalog = async (query = '') => (await get(app, `/item${query}`, r)).json()
const variantsOf = (body: any) =>
  body.data.flatMap((c: any) =>
    c.products.flatMap((p: any) => p.variants.map((v: any) => ({ ...v, category: c.name, product: p.name, image: p.image }))),
  )
let n = 0
const unique = (name: string) => `${name} ${process.pid}-${++n}`

describe('operator API: categories', () => {
  it('creates, lists with counts, renames and deletes only when empty; a taken name is DUPLICATE', async () => {
    const name = unique('Games')
    const created = await admin(app, 'POST', '/categories', { name: `  ${name} `, icon: 'https://cdn.example/games.png' })
    expect(created).toMatchObject({ name, icon: 'https://cdn.example/games.png', product_count: 0, item_count: 0 })
    const again = await call('POST', '/categories', { name })
    expect([again.statusCode, again.json()]).toEqual([409, { message: 'DUPLICATE' }])
    const blank = await call('POST', '/categories', { name: '   ' })
    expect(blank.statusCode).toBe(422)
    expect(blank.json().errors).toHaveProperty('name')

    // An item naming the category by name lands in it (docs/design.md §11), under a product created on first use.
    const item = await createItem(app, { category: name, product_name: 'Voucher' })
    const listed = await call('GET', `/categories?search=${encodeURIComponent(name)}`)
    expect(listed.json()).toMatchObject({ data: [{ id: created.id, product_count: 1, item_count: 1 }], meta: { total: 1 } })

    const refused = await call('DELETE', `/categories/${created.id}`)
    expect([refused.statusCode, refused.json().message]).toEqual([409, 'INVALID_STATE'])
    const other = await admin(app, 'POST', '/categories', { name: unique('Other') })
    const clash = await call('PATCH', `/categories/${other.id}`, { name })
    expect([clash.statusCode, clash.json()]).toEqual([409, { message: 'DUPLICATE' }])
    expect((await call('DELETE', `/categories/${other.id}`)).json().data).toEqual({ id: other.id, name: other.name, deleted: true })
    const gone = await call('GET', `/categories/${other.id}`)
    expect([gone.statusCode, gone.json()]).toEqual([404, { message: 'CATEGORY_NOT_FOUND' }])
    expect((await call('PATCH', '/categories/999999', { name: 'x' })).json()).toEqual({ message: 'CATEGORY_NOT_FOUND' })
    expect((await admin(app, 'GET', `/items/${item.id}`)).category).toBe(name)
  })

  it('a rename reaches resellers at once and is in the next catalog delta', async () => {
    const category = await admin(app, 'POST', '/categories', { name: unique('Pulsa') })
    const item = await createItem(app, { category: category.name })
    const bystander = await createItem(app, { category: unique('Elsewhere') })
    await sql`UPDATE items SET updated_at = now() - interval '1 hour'`.execute(ctx.db)
    // A variant's time is its item's or its level price's, the later (docs/design.md §5d): both aged.
    await sql`UPDATE item_level_prices SET changed_at = now() - interval '1 hour'`.execute(ctx.db)
    ctx.catalog.invalidate()
    // A time between the backdated rows and now (a server_time may be held back by transactions elsewhere in a shared cluster).
    const since = new Date(Date.now() - 30 * 60_000).toISOString()

    const renamed = unique('Pulsa & Data')
    expect(await admin(app, 'PATCH', `/categories/${category.id}`, { name: renamed, icon: null })).toMatchObject({
      name: renamed,
      icon: null,
    })
    // No waiting for the snapshot's second: the edit renewed it.
    expect(variantsOf(await catalog('?per_page=all')).find((v: any) => v.id === item.id).category).toBe(renamed)
    const delta = variantsOf(await catalog(`?updated_since=${encodeURIComponent(since)}`))
    expect(delta.map((v: any) => [v.id, v.category])).toEqual([[item.id, renamed]])
    expect(delta.map((v: any) => v.id)).not.toContain(bystander.id)
  })
})

describe('operator API: products', () => {
  it('creates in a category by id or by name, edits, moves with its items, deletes only without items', async () => {
    const games = await admin(app, 'POST', '/categories', { name: unique('Games') })
    const product = await admin(app, 'POST', '/products', {
      name: 'Mobile Legends',
      category_id: games.id,
      image: 'https://cdn.example/ml.png',
    })
    expect(product).toMatchObject({ category_id: games.id, category: games.name, image: 'https://cdn.example/ml.png', item_count: 0 })
    const twice = await call('POST', '/products', { name: 'Mobile Legends', category_id: games.id })
    expect([twice.statusCode, twice.json()]).toEqual([409, { message: 'DUPLICATE' }])
    const nowhere = await call('POST', '/products', { name: 'Orphan', category_id: 999_999 })
    expect([nowhere.statusCode, nowhere.json().errors]).toEqual([422, { category_id: [expect.any(String)] }])
    const byName = await admin(app, 'POST', '/products', { name: 'Free Fire', category: unique('Shooters') })
    expect(byName.category_id).not.toBe(games.id)

    // An item under the product (by its names) is the product's; the listing filters by category.
    const item = await createItem(app, { category: games.name, product_name: 'Mobile Legends' })
    expect((await admin(app, 'GET', `/items/${item.id}`)).product_id).toBe(product.id)
    const list = await call('GET', `/products?category=${encodeURIComponent(games.name.toUpperCase())}`)
    expect(list.json().data.map((p: any) => [p.id, p.item_count])).toEqual([[product.id, 1]])
    expect(await admin(app, 'GET', `/products/${product.id}/items`)).toEqual([
      { id: item.id, sku: item.sku, name: item.name, price: item.price, order_process: 'auto', active: true },
    ])

    await ctx.db
      .updateTable('items')
      .set({ updated_at: sql<Date>`now() - interval '1 hour'` })
      .execute()
    await sql`UPDATE item_level_prices SET changed_at = now() - interval '1 hour'`.execute(ctx.db)
    ctx.catalog.invalidate()
    const since = new Date(Date.now() - 30 * 60_000).toISOString()
    const shooters = byName.category_id
    const moved = await admin(app, 'PATCH', `/products/${product.id}`, { name: 'MLBB', image: '', category_id: shooters })
    expect(moved).toMatchObject({ name: 'MLBB', image: null, category_id: shooters, item_count: 1 })
    const delta = variantsOf(await catalog(`?updated_since=${encodeURIComponent(since)}`))
    expect(delta.map((v: any) => [v.id, v.product, v.category, v.image])).toEqual([[item.id, 'MLBB', byName.category, null]])
    const intoClash = await call('PATCH', `/products/${product.id}`, { name: 'Free Fire' })
    expect([intoClash.statusCode, intoClash.json()]).toEqual([409, { message: 'DUPLICATE' }])

    expect((await call('DELETE', `/products/${product.id}`)).json().message).toBe('INVALID_STATE')
    expect((await call('DELETE', `/products/${byName.id}`)).json().data.deleted).toBe(true)
    expect((await call('GET', `/products/${byName.id}`)).json()).toEqual({ message: 'PRODUCT_NOT_FOUND' })
  })

  it('the CLI commands name these routes', async () => {
    const cat = (await admin(app, 'POST', '/categories', { name: unique('CLI') })).id
    const steps: [string, number][] = [
      [`categories:create --name ${JSON.stringify(unique('CLI new'))} --icon none`, 200],
      ['categories:list --search CLI', 200],
      [`categories:show ${cat}`, 200],
      [`categories:update ${cat} --icon none`, 200],
      [`products:create --name Thing --category-id ${cat}`, 200],
      [`products:list --category ${cat}`, 200],
      ['products:items 999999', 404],
      ['webhooks:failing', 200],
    ]
    for (const [line, status] of steps) {
      const { name, args, flags } = parseArgs(line.match(/"[^"]*"|\S+/g)!.map((a) => a.replace(/^"|"$/g, '')))
      const command = COMMANDS[name]
      const query = command.method === 'GET' ? `?${new URLSearchParams(flags as Record<string, string>)}` : ''
      const res = await call(command.method as 'GET', `${command.path(args)}${query}`, command.body?.(flags, args))
      expect(res.statusCode, `${line}: ${res.body}`).toBe(status)
    }
    const product = (await call('GET', `/products?category=${cat}`)).json().data[0]
    for (const line of [
      `products:update ${product.id} --image none --name Renamed`,
      `products:delete ${product.id}`,
      `categories:delete ${cat}`,
    ]) {
      const { name, args, flags } = parseArgs(line.split(' '))
      const res = await call(COMMANDS[name].method as 'PATCH', COMMANDS[name].path(args), COMMANDS[name].body?.(flags, args))
      expect(res.statusCode, `${line}: ${res.body}`).toBe(200)
    }
  })
})
