// png.mjs - a PNG decoder small enough to trust, for the browser test's
// screenshots: 8-bit RGB or RGBA, not interlaced, the five row filters,
// every chunk's CRC checked. encodePNG (each row with the filter asked for)
// lets the test check the decoder on pixels it knows.
import zlib from 'node:zlib'

const SIG = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])
const CRC_TABLE = new Int32Array(256).map((_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c
})
function crc32(buf) {
  let c = -1
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 255] ^ (c >>> 8)
  return (c ^ -1) >>> 0
}
function paeth(a, b, c) {
  const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c)
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
}

// {width, height, channels, data, rgb(x, y)}: data holds the rows unfiltered.
export function decodePNG(buf) {
  if (buf.length < 8 || !buf.subarray(0, 8).equals(SIG)) throw new Error('not a PNG')
  let pos = 8, ihdr = null
  const idat = []
  for (;;) {
    if (pos + 12 > buf.length) throw new Error('PNG cut short')
    const len = buf.readUInt32BE(pos), type = buf.toString('latin1', pos + 4, pos + 8)
    if (pos + 12 + len > buf.length) throw new Error(`PNG chunk ${type} cut short`)
    const body = buf.subarray(pos + 8, pos + 8 + len)
    if (crc32(buf.subarray(pos + 4, pos + 8 + len)) !== buf.readUInt32BE(pos + 8 + len))
      throw new Error(`PNG chunk ${type}: bad CRC`)
    pos += 12 + len
    if (type === 'IHDR') ihdr = body
    else if (type === 'IDAT') idat.push(body)
    else if (type === 'IEND') break
  }
  if (!ihdr) throw new Error('PNG without IHDR')
  const width = ihdr.readUInt32BE(0), height = ihdr.readUInt32BE(4)
  const depth = ihdr[8], color = ihdr[9], interlace = ihdr[12]
  if (depth !== 8 || (color !== 2 && color !== 6) || interlace !== 0)
    throw new Error(`PNG depth ${depth} colour type ${color} interlace ${interlace}: not 8-bit RGB/RGBA, plain`)
  const channels = color === 6 ? 4 : 3, stride = width * channels
  const raw = zlib.inflateSync(Buffer.concat(idat))
  if (raw.length !== height * (stride + 1)) throw new Error(`PNG data: ${raw.length} bytes, want ${height * (stride + 1)}`)
  const data = Buffer.alloc(height * stride)
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)], src = y * (stride + 1) + 1, cur = y * stride, prev = cur - stride
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? data[cur + x - channels] : 0
      const b = y > 0 ? data[prev + x] : 0
      const c = y > 0 && x >= channels ? data[prev + x - channels] : 0
      let v = raw[src + x]
      if (f === 1) v += a
      else if (f === 2) v += b
      else if (f === 3) v += (a + b) >> 1
      else if (f === 4) v += paeth(a, b, c)
      else if (f !== 0) throw new Error(`PNG row ${y}: filter ${f}`)
      data[cur + x] = v & 255
    }
  }
  return {width, height, channels, data,
          rgb(x, y) { const i = (y * width + x) * channels; return [data[i], data[i + 1], data[i + 2]] }}
}

// A PNG of pixels (rows of [r, g, b(, a)]), row y filtered with filters[y % filters.length].
export function encodePNG(width, height, channels, data, filters) {
  const stride = width * channels, raw = Buffer.alloc(height * (stride + 1))
  for (let y = 0; y < height; y++) {
    const f = filters[y % filters.length], cur = y * stride, prev = cur - stride
    raw[y * (stride + 1)] = f
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? data[cur + x - channels] : 0
      const b = y > 0 ? data[prev + x] : 0
      const c = y > 0 && x >= channels ? data[prev + x - channels] : 0
      const p = [0, a, b, (a + b) >> 1, paeth(a, b, c)][f]
      raw[y * (stride + 1) + 1 + x] = (data[cur + x] - p) & 255
    }
  }
  const chunk = (type, body) => {
    const t = Buffer.concat([Buffer.from(type, 'latin1'), body]), out = Buffer.alloc(body.length + 12)
    out.writeUInt32BE(body.length, 0)
    t.copy(out, 4)
    out.writeUInt32BE(crc32(t), body.length + 8)
    return out
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0); ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8; ihdr[9] = channels === 4 ? 6 : 2
  const z = zlib.deflateSync(raw)
  // Two IDAT chunks, as a decoder must join them.
  const half = z.length >> 1
  return Buffer.concat([SIG, chunk('IHDR', ihdr), chunk('IDAT', z.subarray(0, half)),
                        chunk('IDAT', z.subarray(half)), chunk('IEND', Buffer.alloc(0))])
}
