/**
 * Photos of receipts uploaded as expenses, in Chromium against the real server: on a phone (375 ×
 * 740, touch) a JPEG taken in portrait (stored landscape with EXIF orientation 6) chosen under
 * Expenses, and on the desktop a PNG dropped on the expense dialog. Each reaches the server as a
 * one-page PDF whose page is upright (pdf.js reads the page back: its image, where the page's matrix
 * puts it, has the printed bar at the top and the corner mark at the top right), and is processed
 * like any expense. `SCREENSHOT_DIR` keeps screenshots of the phone flow.
 */
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { getDocumentProxy, getResolvedPDFJS } from 'unpdf'
import { expect, it } from 'vitest'
import { readPdf } from '../../server/services/extraction/pdf-text'
import { devTools, joinNewCompany, network, openPage, serverAndBrowser, signIn } from './support'

const app = serverAndBrowser()

const screenshotDir = process.env.SCREENSHOT_DIR
async function screenshot(page: Page, name: string) {
  if (!screenshotDir) return
  await mkdir(screenshotDir, { recursive: true })
  await page.screenshot({ path: join(screenshotDir, `${name}.png`) })
}

/** The upright receipt: 300 × 400, white, a black bar across the top, a red mark at the top right, a few lines of text. */
const UPRIGHT = { width: 300, height: 400 }

/**
 * The receipt drawn by the browser as `type`. `stored: 'rotated'` draws it as a phone held upright
 * stores it, landscape and turned a quarter anticlockwise (what EXIF orientation 6 turns back).
 */
async function drawReceipt(page: Page, type: 'image/jpeg' | 'image/png', stored: 'upright' | 'rotated') {
  const base64 = await page.evaluate(
    async ({ type, stored, width, height }) => {
      const canvas = document.createElement('canvas')
      const rotated = stored === 'rotated'
      canvas.width = rotated ? height : width
      canvas.height = rotated ? width : height
      const c = canvas.getContext('2d')!
      if (rotated) {
        // Upright (x, y) lands at stored (y, width - x): the upright top is the stored left.
        c.translate(0, width)
        c.rotate(-Math.PI / 2)
      }
      c.fillStyle = '#fff'
      c.fillRect(0, 0, width, height)
      c.fillStyle = '#000'
      c.fillRect(0, 0, width, 40)
      c.fillStyle = '#f00'
      c.fillRect(width - 50, 60, 40, 40)
      c.fillStyle = '#000'
      c.font = '20px sans-serif'
      c.fillText('CAFE DU PORT', 20, 150)
      c.fillText('TOTAL 12,50 EUR', 20, 200)
      const blob = await new Promise<Blob>((done) => canvas.toBlob((b) => done(b!), type, 0.95))
      const bytes = new Uint8Array(await blob.arrayBuffer())
      let binary = ''
      for (const byte of bytes) binary += String.fromCharCode(byte)
      return btoa(binary)
    },
    { type, stored, ...UPRIGHT },
  )
  return Buffer.from(base64, 'base64')
}

/** A JPEG with an EXIF APP1 segment (big-endian TIFF, one IFD entry: Orientation = `orientation`) after its SOI. */
function withExifOrientation(jpeg: Buffer, orientation: number): Buffer {
  const tiff = Buffer.concat([
    Buffer.from('MM\0*\0\0\0\x08', 'binary'), // big-endian, 42, first IFD at offset 8
    Buffer.from([0x00, 0x01]), // one entry:
    Buffer.from([0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01]), // Orientation, SHORT, one value
    Buffer.from([0x00, orientation, 0x00, 0x00]),
    Buffer.from([0x00, 0x00, 0x00, 0x00]), // no next IFD
  ])
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'binary'), tiff])
  const length = Buffer.alloc(2)
  length.writeUInt16BE(payload.length + 2)
  return Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xe1]), length, payload, jpeg.subarray(2)])
}

/** A company the administrator belongs to, selected on the dashboard. */
async function companyOnDashboard(page: Page, name: string) {
  await signIn(page, app.server.url)
  return (await joinNewCompany(page, app.server.url, name)).id
}

/** The expenses tab of the invoice/expense dialog, opened from the header's Upload menu. */
async function openExpenseDialog(page: Page) {
  await page.getByRole('button', { name: 'Upload', exact: true }).click()
  await page.getByRole('menuitem', { name: 'Upload invoice' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('tab', { name: 'Expenses' }).click()
  return dialog
}

/** The panel's row of `name` once its processing has ended (completed or failed, like any expense). */
async function processed(page: Page, name: string) {
  const row = page
    .getByRole('region', { name: 'Uploads', exact: true })
    .getByRole('listitem')
    .filter({ hasText: name })
  await row.getByText(/^(Completed|Failed)$/).waitFor({ timeout: 60_000 })
  return row
}

/** The one expense the server holds for the company: its dashboard row and its stored file. */
async function storedExpense(context: BrowserContext, companyId: number) {
  const logs = (await (
    await context.request.get(`${app.server.url}/api/logs?company_id=${companyId}`)
  ).json()) as { document_id: number; name: string; type: string; status: string }[]
  expect(logs).toHaveLength(1)
  const file = await context.request.get(
    `${app.server.url}/api/expenses/expense/${logs[0]!.document_id}/download?company_id=${companyId}`,
  )
  expect(file.ok()).toBe(true)
  return { log: logs[0]!, bytes: new Uint8Array(await file.body()) }
}

/** Mean brightness (0–255) of a rectangle of pdf.js's decoded image, and its mean red minus green. */
function region(
  image: { width: number; height: number; channels: number; pixels: Uint8Array },
  box: { x0: number; y0: number; x1: number; y1: number },
) {
  let sum = 0
  let redness = 0
  let n = 0
  for (let y = Math.floor(box.y0 * image.height); y < box.y1 * image.height; y++)
    for (let x = Math.floor(box.x0 * image.width); x < box.x1 * image.width; x++) {
      const i = (y * image.width + x) * image.channels
      const [r, g, b] =
        image.channels >= 3
          ? [image.pixels[i]!, image.pixels[i + 1]!, image.pixels[i + 2]!]
          : [image.pixels[i]!, image.pixels[i]!, image.pixels[i]!]
      sum += (r + g + b) / 3
      redness += r - g
      n++
    }
  return { brightness: sum / n, redness: redness / n }
}

type Matrix = [number, number, number, number, number, number]
type PdfPage = Awaited<ReturnType<Awaited<ReturnType<typeof getDocumentProxy>>['getPage']>>
const multiply = ([a, b, c, d, e, f]: Matrix, [A, B, C, D, E, F]: Matrix): Matrix => [
  a * A + b * C,
  a * B + b * D,
  c * A + d * C,
  c * B + d * D,
  e * A + f * C + E,
  e * B + f * D + F,
]

/** The matrix pdf.js paints the page's first image with: its transforms composed, saves and restores followed. */
async function imageMatrix(page: PdfPage) {
  const ops = await page.getOperatorList()
  const { OPS } = await getResolvedPDFJS()
  let ctm: Matrix = [1, 0, 0, 1, 0, 0]
  const saved: Matrix[] = []
  for (let i = 0; i < ops.fnArray.length; i++) {
    const op = ops.fnArray[i]
    if (op === OPS.save) saved.push(ctm)
    else if (op === OPS.restore) ctm = saved.pop() ?? ctm
    else if (op === OPS.transform) ctm = multiply(ops.argsArray[i] as Matrix, ctm)
    else if (op === OPS.paintImageXObject) return ctm
  }
  throw new Error('the page paints no image')
}

/**
 * Reads the PDF back with pdf.js: one page, portrait, one image drawn over the whole page without
 * turning or mirroring it, and that image upright (the bar at the top, the red mark at the top right).
 */
async function expectUprightOnePagePdf(bytes: Uint8Array) {
  expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-')
  const pdf = await readPdf(bytes)
  expect(pdf.pages).toHaveLength(1)
  const { width, height } = pdf.pages[0]!
  expect(width).toBeCloseTo(595.28, 1)
  expect(height / width).toBeCloseTo(UPRIGHT.height / UPRIGHT.width, 2)
  const image = await pdf.pageImage(1)
  await pdf.close()
  expect(image).not.toBeNull()
  expect(image!.height / image!.width).toBeCloseTo(UPRIGHT.height / UPRIGHT.width, 2)
  // The matrix the image is painted with: the page's own size, no rotation, no mirror, at the origin.
  const doc = await getDocumentProxy(new Uint8Array(bytes))
  const page = await doc.getPage(1)
  expect(page.rotate).toBe(0)
  const ctm = await imageMatrix(page)
  expect(ctm.map((v) => Math.round(v * 100) / 100)).toEqual(
    [width, 0, 0, height, 0, 0].map((v) => Math.round(v * 100) / 100),
  )
  await doc.destroy()
  // The bar (top 10 %) is black, the foot of the receipt white, the mark red at the top right only.
  const bar = region(image!, { x0: 0.05, y0: 0, x1: 0.95, y1: 0.08 })
  const foot = region(image!, { x0: 0.05, y0: 0.88, x1: 0.95, y1: 1 })
  const markRight = region(image!, { x0: 0.85, y0: 0.17, x1: 0.93, y1: 0.23 })
  const markLeft = region(image!, { x0: 0.07, y0: 0.17, x1: 0.15, y1: 0.23 })
  expect(bar.brightness).toBeLessThan(50)
  expect(foot.brightness).toBeGreaterThan(220)
  expect(markRight.redness).toBeGreaterThan(150)
  expect(markLeft.redness).toBeLessThan(30)
}

it('on a phone, a portrait photo (EXIF orientation 6) chosen as an expense is sent as an upright one-page PDF and processed', async () => {
  const { page, context, errors } = await openPage(app.browser, { width: 375, height: 740 }, { touch: true })
  const companyId = await companyOnDashboard(page, 'Photo Receipts SARL')
  const stored = await drawReceipt(page, 'image/jpeg', 'rotated')
  const photo = withExifOrientation(stored, 6)

  const dialog = await openExpenseDialog(page)
  const input = dialog.getByLabel('Files for Expenses', { exact: true })
  // Photos are offered beside PDFs, and the camera is not forced: the phone offers camera and library.
  expect(await input.getAttribute('accept')).toContain('image/jpeg')
  expect(await input.getAttribute('accept')).toContain('application/pdf')
  expect(await input.getAttribute('capture')).toBeNull()
  await screenshot(page, '01-expense-dialog')
  await input.setInputFiles({ name: 'IMG_1234.jpg', mimeType: 'image/jpeg', buffer: photo })
  const chosen = dialog.getByRole('listitem').filter({ hasText: 'IMG_1234.jpg' })
  await chosen.locator('img[data-thumbnail]').waitFor()
  await screenshot(page, '02-photo-chosen')
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click()

  // The queue shows the receipt under its PDF's name with the photo's thumbnail.
  const panel = page.getByRole('region', { name: 'Uploads', exact: true })
  const row = panel.getByRole('listitem').filter({ hasText: 'IMG_1234.pdf' })
  await row.locator('img[data-thumbnail]').waitFor()
  await screenshot(page, '03-receipt-in-queue')
  await processed(page, 'IMG_1234.pdf')
  await screenshot(page, '04-receipt-processed')

  const { log, bytes } = await storedExpense(context, companyId)
  expect(log).toMatchObject({ name: 'IMG_1234.pdf', type: 'Expense' })
  expect(['completed', 'failed']).toContain(log.status.toLowerCase())
  await expectUprightOnePagePdf(bytes)
  expect(errors).toEqual([])
  await context.close()
})

it('on the desktop, a PNG dropped on the expense dialog is sent as an upright one-page PDF and processed', async () => {
  const { page, context, errors } = await openPage(app.browser)
  const companyId = await companyOnDashboard(page, 'Dropped Receipts SARL')
  const png = (await drawReceipt(page, 'image/png', 'upright')).toString('base64')

  const dialog = await openExpenseDialog(page)
  const transfer = await page.evaluateHandle((base64) => {
    const bytes = Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0))
    const data = new DataTransfer()
    data.items.add(new File([bytes], 'ticket-caisse.png', { type: 'image/png' }))
    return data
  }, png)
  const zone = dialog.getByRole('region', { name: 'Drop files for Expenses' })
  await zone.dispatchEvent('dragover', { dataTransfer: transfer })
  await zone.dispatchEvent('drop', { dataTransfer: transfer })
  await dialog.getByRole('listitem').filter({ hasText: 'ticket-caisse.png' }).waitFor()
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click()
  await processed(page, 'ticket-caisse.pdf')

  const { log, bytes } = await storedExpense(context, companyId)
  expect(log).toMatchObject({ name: 'ticket-caisse.pdf', type: 'Expense' })
  await expectUprightOnePagePdf(bytes)
  expect(errors).toEqual([])
  await context.close()
})

it('a photo sent while offline waits for the network (its converter cannot load), then is made into a PDF and sent once back', async () => {
  const { page, context, errors } = await openPage(app.browser)
  const companyId = await companyOnDashboard(page, 'Tunnel Receipts SARL')
  const png = (await drawReceipt(page, 'image/png', 'upright')).toString('base64')
  // The upload panel's code comes as the dialog opens, before the connection is lost.
  const panelCode = page.waitForResponse((r) => /upload-panel-content[\w-]*\.js$/.test(r.url()))
  const dialog = await openExpenseDialog(page)
  await panelCode

  // Cut before the photo is chosen: the converter's module (pdf-lib with it) has not been fetched.
  const converterRequests: string[] = []
  page.on('request', (r) => {
    if (/photo-to-pdf[\w-]*\.js$/.test(r.url())) converterRequests.push(r.url())
  })
  const cdp = await devTools(page)
  await network(cdp, 'offline')
  await dialog
    .getByLabel('Files for Expenses', { exact: true })
    .setInputFiles({ name: 'tunnel.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') })
  await dialog.getByRole('listitem').filter({ hasText: 'tunnel.png' }).waitFor()
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click()
  const row = page
    .getByRole('region', { name: 'Uploads', exact: true })
    .getByRole('listitem')
    .filter({ hasText: 'tunnel.pdf' })
  // Not "Failed": the photo is fine, the network is not.
  await row.getByText('Waiting for network').waitFor()
  expect(await row.getByText(/^Failed$/).count()).toBe(0)
  // It was asked for, and failed: the item waits for the network rather than giving up.
  expect(converterRequests.length).toBeGreaterThan(0)

  await network(cdp, 'online')
  await processed(page, 'tunnel.pdf')
  const { log, bytes } = await storedExpense(context, companyId)
  expect(log).toMatchObject({ name: 'tunnel.pdf', type: 'Expense' })
  await expectUprightOnePagePdf(bytes)
  expect(
    errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource|dynamically imported/.test(e)),
  ).toEqual([])
  await context.close()
})
