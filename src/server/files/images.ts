/** The image formats people upload, recognised by their first bytes (never by name or declared type). */
export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'avif'

/** What the bytes are, from their signature: an SVG (script inside an image) or anything else is not an image here. */
export function sniffImage(bytes: Uint8Array): ImageFormat | null {
  const at = (offset: number, ...expected: number[]) => expected.every((byte, index) => bytes[offset + index] === byte)
  const ascii = (offset: number, text: string) => at(offset, ...[...text].map((char) => char.charCodeAt(0)))
  if (at(0, 0xff, 0xd8, 0xff)) return 'jpeg'
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png'
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'gif'
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'webp'
  if (ascii(4, 'ftyp') && (ascii(8, 'avif') || ascii(8, 'avis'))) return 'avif'
  return null
}

/** A decoder stops at this many pixels: a small file that unpacks into gigabytes of pixels is refused, not decoded. */
const maxInputPixels = 40_000_000

export type ImageRefusal = 'not-an-image' | 'unreadable-image'

export interface ImageBox {
  width: number
  height: number
}

/**
 * The upload as WebP images of each box (cropped to the centre to fill it, EXIF rotation applied, metadata dropped),
 * keyed by width, or why not: bytes that are no image format we take, or an image the decoder cannot read whole.
 */
export async function webpImages(
  bytes: Uint8Array,
  boxes: readonly ImageBox[],
): Promise<{ ok: true; images: Map<number, Uint8Array> } | { ok: false; reason: ImageRefusal }> {
  if (!sniffImage(bytes)) return { ok: false, reason: 'not-an-image' }
  try {
    // sharp's native library loads with the first image, not with the server.
    const { default: sharp } = await import('sharp')
    const source = sharp(bytes, { limitInputPixels: maxInputPixels, failOn: 'error', animated: false })
    const metadata = await source.metadata()
    if (!metadata.width || !metadata.height) return { ok: false, reason: 'unreadable-image' }
    const images = new Map<number, Uint8Array>()
    for (const box of boxes) {
      const output = await source
        .clone()
        .rotate()
        .resize(box.width, box.height, { fit: 'cover', position: 'centre' })
        .webp({ quality: 82 })
        .toBuffer()
      images.set(box.width, new Uint8Array(output))
    }
    return { ok: true, images }
  } catch {
    return { ok: false, reason: 'unreadable-image' }
  }
}

/** Square WebP images of each size (a profile picture, a logo). */
export function squareWebpImages(bytes: Uint8Array, sizes: readonly number[]) {
  return webpImages(
    bytes,
    sizes.map((size) => ({ width: size, height: size })),
  )
}

/** What an attachment may be, by its bytes: a PDF or an image; its type is this, never what the upload declared. */
export function sniffAttachment(bytes: Uint8Array): { contentType: string; extension: string } | null {
  if (bytes.length >= 5 && new TextDecoder().decode(bytes.subarray(0, 5)) === '%PDF-') {
    return { contentType: 'application/pdf', extension: 'pdf' }
  }
  const image = sniffImage(bytes)
  if (!image) return null
  return { contentType: `image/${image}`, extension: image === 'jpeg' ? 'jpg' : image }
}
