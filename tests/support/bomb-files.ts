/**
 * Small files that declare huge or broken content: the crashing images and "bombs" of the
 * processing sandbox tests, built in memory (a few hundred bytes to a few hundred kB each).
 */
import { createDeflate, deflateSync } from 'node:zlib'
import { chunk as pngChunk } from '../../server/services/extraction/png.ts'

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

function ihdr(width: number, height: number): Buffer {
  const data = Buffer.alloc(13)
  data.writeUInt32BE(width, 0)
  data.writeUInt32BE(height, 4)
  data[8] = 8 // bit depth
  data[9] = 0 // grey
  return pngChunk('IHDR', data)
}

/** A 74-byte PNG whose header declares `size`² pixels, with a few bytes of image data. */
export function tinyPngDeclaring(size = 65_500): Buffer {
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(size, size),
    pngChunk('IDAT', deflateSync(Buffer.alloc(6), { level: 0 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

/** Raw zero bytes through deflate, streamed (never held whole): a row repeated `rows` times. */
async function deflatedZeros(rowBytes: number, rows: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 })
  const out: Buffer[] = []
  deflate.on('data', (chunk: Buffer) => out.push(chunk))
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve)
    deflate.on('error', reject)
  })
  const row = Buffer.alloc(rowBytes)
  for (let y = 0; y < rows; y++) {
    if (!deflate.write(row)) await new Promise((r) => deflate.once('drain', r))
  }
  deflate.end()
  await done
  return Buffer.concat(out)
}

/** A white `size`² 8-bit grey PNG, zlib-compressed (20 000² ≈ 390 kB on disk, 400 MP decoded). */
export async function whitePng(size = 20_000): Promise<Buffer> {
  // Each row: filter byte 0 then `size` pixels; zeros are black but compress the same as white.
  const idat = await deflatedZeros(size + 1, size)
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(size, size),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

/** 62 bytes that start like a JPEG (SOI, an APP0 marker) and then hold no valid segment. */
export function jpegLikeGarbage(): Buffer {
  const head = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01])
  const tail = Buffer.alloc(62 - head.length)
  for (let i = 0; i < tail.length; i++) tail[i] = (i * 37 + 11) & 0xff
  return Buffer.concat([head, tail])
}

/** A 49-byte baseline JPEG whose frame header declares `size`² pixels (one grey component). */
export function tinyJpegDeclaring(size = 65_500): Buffer {
  const sof = [
    0xff,
    0xc0,
    0x00,
    0x0b,
    0x08,
    size >> 8,
    size & 0xff,
    size >> 8,
    size & 0xff,
    0x01,
    0x01,
    0x11,
    0x00,
  ]
  const dht = [0xff, 0xc4, 0x00, 0x14, 0x00, 0x01, ...Array(15).fill(0), 0x00] // one 1-bit code
  const sos = [0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00]
  return Buffer.from([0xff, 0xd8, ...sof, ...dht, ...sos, 0xff, 0xd9])
}

/** Serialises numbered objects into a PDF with a correct cross-reference table. */
export function buildPdf(objects: (string | Buffer)[], rootRef = '1 0 R'): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')]
  const offsets: number[] = []
  let length = parts[0]!.length
  objects.forEach((body, i) => {
    offsets.push(length)
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n', 'latin1'),
    ])
    parts.push(chunk)
    length += chunk.length
  })
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root ${rootRef} >>`,
    'startxref',
    String(length),
    '%%EOF',
  ].join('\n')
  parts.push(Buffer.from(`${xref}\n`, 'latin1'))
  return Buffer.concat(parts)
}

const stream = (dict: string, data: Buffer) =>
  Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ])

/** `pages` blank pages, all the same page object listed `pages` times in the page tree. */
export function manyPagesPdf(pages = 20_000): Buffer {
  const kids = Array(pages).fill('3 0 R').join(' ')
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << >> >>',
  ])
}

/** One page showing one `size`² grey image whose Flate stream is a few bytes long. */
export function hugeImagePdf(size = 20_000): Buffer {
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>',
    stream('', Buffer.from('q 595 0 0 842 0 0 cm /Im0 Do Q', 'latin1')),
    stream(
      `/Type /XObject /Subtype /Image /Width ${size} /Height ${size} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
      deflateSync(Buffer.alloc(64, 0xff)),
    ),
  ])
}

/** `pages` pages without text, each showing one blank A4 scan at 200 dpi (one shared image). */
export function blankScanPdf(pages = 60): Buffer {
  const width = 1654
  const height = 2339
  const pageRefs = Array.from({ length: pages }, (_, i) => `${i + 5} 0 R`).join(' ')
  const objects: (string | Buffer)[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pageRefs}] /Count ${pages} >>`,
    stream('', Buffer.from('q 595 0 0 842 0 0 cm /Im0 Do Q', 'latin1')),
    stream(
      `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
      deflateSync(Buffer.alloc(width * height, 0xff), { level: 9 }),
    ),
  ]
  for (let i = 0; i < pages; i++)
    objects.push(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 3 0 R >>',
    )
  return buildPdf(objects)
}
