/** The largest upload the avatar endpoint reads; the page shrinks a photo to 512 px before sending it. */
export const avatarBytesMax = 1024 * 1024
/** The sizes stored: the header's and lists' small picture, and the profile's. */
export const avatarSizes = [64, 256] as const
/** What the page sends: the photo drawn on a canvas this large (square), as WebP. */
export const avatarUploadPixels = 512

/** A public file an avatar or a logo is stored as: content-addressed, so it can be cached for ever. */
export const publicFileKey = /^(avatars|logos)\/[A-Za-z0-9_-]{1,100}\/[a-f0-9]{16}-(64|256)\.webp$/
