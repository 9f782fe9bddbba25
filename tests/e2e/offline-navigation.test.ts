/**
 * Pages whose code has not been fetched yet, opened while the network is away (DevTools offline
 * emulation), in Chromium against the real built app: the page waits for the network (the route's
 * pending view says so) and opens by itself once it is back, instead of giving way to the error
 * view. The route's chunk and the account screens' machines (the settings route's `beforeLoad`)
 * are both fetched again (src/api/code-chunks.ts, the route importers wrapped by vite.config.ts).
 */
import { expect, it } from 'vitest'
import { devTools, network, openPage, serverAndBrowser, signIn } from './support'

const app = serverAndBrowser()

it('opens Settings once the network is back when it was asked for offline, without the error view', async () => {
  const { page, context, errors } = await openPage(app.browser)
  await signIn(page, app.server.url)
  const settingsCode: string[] = []
  page.on('request', (r) => {
    if (/\/assets\/settings[\w-]*\.js$/.test(r.url())) settingsCode.push(r.url())
  })
  const cdp = await devTools(page)
  await network(cdp, 'offline')

  await page.getByRole('navigation').getByRole('link', { name: 'Settings' }).click()
  const waiting = page.getByRole('status').filter({ hasText: 'Waiting for network' })
  await waiting.waitFor()
  // It was asked for, and could not be had: the page waits, the dashboard's frame stays.
  expect(settingsCode.length).toBeGreaterThan(0)
  expect(await page.getByText('Something went wrong').count()).toBe(0)
  expect(await page.getByRole('heading', { name: 'Settings', level: 1 }).count()).toBe(0)

  await network(cdp, 'online')
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor()
  expect(new URL(page.url()).pathname).toBe('/settings')
  expect(await waiting.count()).toBe(0)
  expect(await page.getByText('Something went wrong').count()).toBe(0)
  expect(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(e))).toEqual([])
  await context.close()
})
