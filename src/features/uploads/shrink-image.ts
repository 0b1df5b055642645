// Drawing a photo smaller in the browser before it is sent: a phone's 10 MB photo leaves as a few hundred KB, so it
// is within every plan's file size and quick to send. The server still decodes and resizes what it is given.

export interface ShrinkTarget {
  width: number
  height: number
  /** Cut to the target's shape from the centre (a square picture); otherwise the whole image is kept, scaled. */
  crop?: boolean
}

/** How the canvas encodes: WebP where the browser writes it, JPEG where it does not (Safari writes PNG instead). */
const quality = 0.9

function encoded(canvas: HTMLCanvasElement, type: string): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, quality))
}

/**
 * The image no larger than needed to fill `target` (never enlarged), as WebP or JPEG. The image itself when it is
 * already that small; null when the browser cannot decode it (HEIC in Chromium, a damaged file), for the caller to
 * send it as it is or refuse it.
 */
export async function shrinkImage(file: Blob, target: ShrinkTarget): Promise<Blob | null> {
  let bitmap: ImageBitmap
  try {
    // Applies the photo's EXIF orientation, which the drawing would otherwise lose.
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' })
  } catch {
    return null
  }
  try {
    const ratio = target.width / target.height
    const source = target.crop
      ? { width: Math.min(bitmap.width, bitmap.height * ratio), height: Math.min(bitmap.height, bitmap.width / ratio) }
      : { width: bitmap.width, height: bitmap.height }
    const scale = Math.min(1, Math.max(target.width / source.width, target.height / source.height))
    if (scale === 1 && !target.crop) return file
    const canvas = document.createElement('canvas')
    canvas.width = Math.max(1, Math.round(source.width * scale))
    canvas.height = Math.max(1, Math.round(source.height * scale))
    const context = canvas.getContext('2d')
    if (!context) return null
    context.imageSmoothingQuality = 'high'
    const left = (bitmap.width - source.width) / 2
    const top = (bitmap.height - source.height) / 2
    context.drawImage(bitmap, left, top, source.width, source.height, 0, 0, canvas.width, canvas.height)
    const webp = await encoded(canvas, 'image/webp')
    if (webp?.type === 'image/webp') return webp
    return await encoded(canvas, 'image/jpeg')
  } finally {
    bitmap.close()
  }
}
